// Parses durations such as "90s" or "5m" into seconds.
const UNITS = { s: 1, m: 60 };

export function parseDuration(text) {
  const match = /^(\d+)([sm])$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * UNITS[match[2]];
}
