// Secrets never reach disk: known secret values and credential headers are replaced before a
// rollout line is written. Works on the serialized line so the per-record cost is one scan.

export const REDACTED = '[redacted]';

/** Values shorter than this are too likely to occur by chance to be replaced everywhere. */
const MIN_SECRET_LENGTH = 6;

const CREDENTIAL_HINT = /authorization|api[-_]?key|x-goog-api-key/i;

// `"authorization": "..."` as a JSON key (headers objects in recorded requests).
const CREDENTIAL_JSON_FIELD =
  /("(?:proxy-)?authorization"|"x-api-key"|"api-key"|"api_key"|"apikey"|"x-goog-api-key")(\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

// `Authorization: Bearer abc` inside text (a curl command, a log line the model printed).
const CREDENTIAL_TEXT_HEADER =
  /\b((?:proxy-)?authorization|x-api-key|api-key|x-goog-api-key)(\s*:\s*)(?:(?:bearer|basic|token)\s+)?[^\s"'\\]+/gi;

export interface Redactor {
  /** Redact one serialized JSON value. */
  redactJson(json: string): string;
  /** Redact plain text (a line printed to a terminal or stderr). */
  redactText(text: string): string;
}

export function createRedactor(secrets: readonly string[]): Redactor {
  const raw = [...new Set(secrets)]
    .filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
    // Longest first so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  const escaped = raw.map((s) => JSON.stringify(s).slice(1, -1));
  return {
    redactText(text: string): string {
      let out = text;
      for (const secret of raw) {
        if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      }
      if (CREDENTIAL_HINT.test(out)) out = out.replace(CREDENTIAL_TEXT_HEADER, `$1$2${REDACTED}`);
      return out;
    },
    redactJson(json: string): string {
      let out = json;
      for (const secret of escaped) {
        if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      }
      if (CREDENTIAL_HINT.test(out)) {
        out = out.replace(CREDENTIAL_JSON_FIELD, `$1$2"${REDACTED}"`);
        out = out.replace(CREDENTIAL_TEXT_HEADER, `$1$2${REDACTED}`);
      }
      return out;
    },
  };
}

/** A copy of `value` with known secret values and credential headers replaced by "[redacted]". */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  if (value === undefined) return value;
  return JSON.parse(createRedactor(secrets).redactJson(JSON.stringify(value))) as T;
}

/** Environment variable names whose values are treated as secrets (Codex's default excludes). */
const SECRET_ENV_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

/**
 * Values of environment variables that look like credentials, plus any names the caller
 * excludes explicitly (shell_environment_policy excludes), to feed `createRedactor`.
 */
export function secretValuesFromEnv(
  env: NodeJS.ProcessEnv,
  extraNames: readonly string[] = [],
): string[] {
  const extra = new Set(extraNames);
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    if (extra.has(name) || SECRET_ENV_NAME.test(name)) values.push(value);
  }
  return values;
}
