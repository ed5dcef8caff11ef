// Credentials in a provider's base_url (`https://user:pass@host/v1`): fetch refuses such URLs, so
// they go out as HTTP Basic auth instead, and no message, log or report ever shows the password.

export interface UrlCredentials {
  /** The URL without its `user:pass@` part. */
  url: string;
  /** `Basic ...` for the Authorization header, when the URL carried credentials. */
  basicAuth?: string;
  /** Decoded and raw forms of the password and user:pass pair, for scrubbing messages. */
  secrets: string[];
}

export function splitUrlCredentials(raw: string): UrlCredentials {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: raw, secrets: [] };
  }
  if (url.username === '' && url.password === '') return { url: raw, secrets: [] };
  const user = safeDecode(url.username);
  const password = safeDecode(url.password);
  const secrets = [...new Set([url.password, password, `${url.username}:${url.password}`, `${user}:${password}`])].filter(
    (secret) => secret !== '' && secret !== ':',
  );
  url.username = '';
  url.password = '';
  return { url: url.toString(), basicAuth: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, secrets };
}

/** The URL as it may be shown: the password replaced by `***`, the query string dropped. */
export function displayUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
  if (url.password !== '') url.password = '***';
  url.search = '';
  return url.toString();
}

/** Replaces every secret in `text` with `***` (longest first, so a pair is not half-replaced). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
