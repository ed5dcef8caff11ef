// Makes a first request comparable across runs: temp paths, dates, ids and the machine's details
// become placeholders, long texts (prompts, long tool descriptions) become a digest so a snapshot
// shows placement and structure and still fails when a single byte of them changes.
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { systemInformation } from '../../src/harness/instance-template.js';
import { longDate } from '../../src/harness/request-shape.js';

const LONG_TEXT = 400;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const HIDDEN_HEADERS = new Set([
  'authorization', 'x-api-key', 'host', 'content-length', 'connection', 'user-agent', 'accept-encoding',
  'accept-language', 'sec-fetch-mode', 'accept',
]);

export interface Volatile {
  repo: string;
  home: string;
  now: Date;
}

function replaceAll(text: string, needle: string, value: string): string {
  return needle === '' ? text : text.split(needle).join(value);
}

function normalizeText(text: string, v: Volatile): string {
  // mini-swe-agent's <system_information> is this machine's `uname -srvm`; a terminal prompt names the user.
  let out = replaceAll(text, systemInformation(), '<SYSTEM>');
  out = replaceAll(out, `${userInfo().username}@rig:`, '<USER>@rig:');
  out = replaceAll(out, v.repo, '<REPO>');
  // The prompt ends in `#` for root and `$` for anyone else.
  out = out.replace(/(<USER>@rig:\S*)[#$]/g, '$1$$');
  out = replaceAll(out, v.home, '<RIG_HOME>');
  out = replaceAll(out, longDate(v.now), '<LONG_DATE>');
  out = out.replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<DATE>');
  out = out.replace(UUID, '<UUID>');
  out = out.replace(/<timezone>[^<]*<\/timezone>/g, '<timezone><TZ></timezone>');
  return out;
}

function digest(text: string): string {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const head = text.slice(0, 60).replace(/\n/g, '⏎');
  return `<${text.length} chars sha256:${hash} "${head}…">`;
}

function walk(value: unknown, v: Volatile): unknown {
  if (typeof value === 'string') {
    const text = normalizeText(value, v);
    return text.length > LONG_TEXT ? digest(text) : text;
  }
  if (Array.isArray(value)) return value.map((entry) => walk(entry, v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, walk(entry, v)]));
  }
  return value;
}

/** The snapshot text of one request: path, the headers that describe it, and the normalised body. */
export function requestSnapshot(request: { path: string; headers: Record<string, string>; body: unknown }, v: Volatile): string {
  // Header values are constants (anthropic-version is a date that never changes) except session ids.
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !HIDDEN_HEADERS.has(name))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [name, value.replace(UUID, '<UUID>')]),
  );
  return `${JSON.stringify({ path: request.path, headers, body: walk(request.body, v) }, null, 2)}\n`;
}
