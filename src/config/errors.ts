// Config errors are read by people fixing a file: every message says where (file:line, or the -c
// override / flag), which key, what was found and what is allowed.

/** Thrown for any bad config input; `message` is the complete text to show the user. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key path as it would be written in TOML: `model_providers.x.wire_api`, `projects."/a/b".trust_level`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path
    .map((seg) => {
      if (typeof seg === 'number') return `[${seg}]`;
      const s = String(seg);
      return BARE_KEY.test(s) ? s : JSON.stringify(s);
    })
    .join('.')
    .replace(/\.\[/g, '[');
}

/** A short rendering of a value found in a config, for "found ..." in messages. */
export function describeFound(value: unknown): string {
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'a table';
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? value.slice(0, 77) + '...' : value);
  return String(value);
}
