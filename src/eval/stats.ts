// The statistics the report needs, small enough to write out: Wilson score intervals for pass
// rates (sound at 0 and n, unlike the normal approximation) and McNemar's exact test for paired
// pass/fail outcomes of two harnesses on the same tasks.

/** 95% Wilson score interval for `passed` of `n`. */
export function wilsonInterval(passed: number, n: number, z = 1.959963984540054): [number, number] {
  if (n === 0) return [0, 1];
  const p = passed / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 and n the bounds are exactly 0 and 1; floating point would leave them a hair inside.
  return [passed === 0 ? 0 : Math.max(0, centre - half), passed === n ? 1 : Math.min(1, centre + half)];
}

/** log of n choose k, exact enough for any n a run can have. */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * Two-sided exact McNemar test: with b pairs where only A passed and c where only B passed, the
 * probability under "no difference" (each discordant pair is a fair coin) of a split at least as
 * uneven. 1 when there are no discordant pairs.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  const p = 2 * tail;
  // A balanced split sums to exactly 1 (or more): do not report rounding noise below it.
  return p > 1 - 1e-9 ? 1 : p;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}
