// Parses durations such as "90s", "5m", "2h" or "1h30m" into seconds.
const UNITS = { s: 1, m: 60, h: 3600 };

export function parseDuration(text) {
  const trimmed = text.trim();
  if (!/^(\d+[hms])+$/.test(trimmed)) throw new Error(`not a duration: ${text}`);
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([hms])/g)) total += Number(amount) * UNITS[unit];
  return total;
}
