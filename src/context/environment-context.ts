// The <environment_context> block (reference/context-and-state.md §2): sent at thread start and,
// with only the changed fields, whenever the environment changes between turns.
import { readlinkSync, statSync } from 'node:fs';
import { userText, type MessageItem } from '../protocol/index.js';
import { ENVIRONMENT_CONTEXT_CLOSE, ENVIRONMENT_CONTEXT_OPEN } from './contextual.js';

export type NetworkAccess = 'enabled' | 'restricted';

export interface EnvironmentContextInput {
  cwd?: string;
  /** Shell name as the model should think of it: bash, zsh, powershell. */
  shell?: string;
  sandboxMode?: string;
  approvalPolicy?: string;
  networkAccess?: NetworkAccess | boolean;
  writableRoots?: readonly string[];
  /** The current time; rendered as a date in `timezone`. */
  now?: Date;
  /** IANA zone, e.g. Europe/Berlin. Defaults to the process's zone when `now` is given. */
  timezone?: string;
}

/** The rendered fields, in output order. Comparing these decides whether anything changed. */
interface EnvironmentFields {
  cwd?: string;
  approval_policy?: string;
  sandbox_mode?: string;
  network_access?: NetworkAccess;
  writable_roots?: readonly string[];
  shell?: string;
  current_date?: string;
  timezone?: string;
}

const FIELD_ORDER: readonly (keyof EnvironmentFields)[] = [
  'cwd',
  'approval_policy',
  'sandbox_mode',
  'network_access',
  'writable_roots',
  'shell',
  'current_date',
  'timezone',
];

/** The user's shell as the model should name it (basename of $SHELL), or undefined. */
export function shellName(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const shell = env.SHELL?.trim();
  if (!shell) return undefined;
  const base = shell.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.exe$/i, '') || undefined;
}

// The first Intl call of a process loads ICU's locale data: 10-25 ms on the way to the first
// model request. So the local zone is named from the system settings ICU itself reads (TZ, else
// the /etc/localtime link, as Codex does), and today's date in it comes from Date's local-time
// getters; Intl is the fallback when neither names a zone.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const ZONEINFO_DIRS = ['/usr/share/zoneinfo', '/usr/lib/zoneinfo', '/usr/share/lib/zoneinfo'];

let systemZone: string | null | undefined;

function isZoneFile(name: string): boolean {
  if (!IANA_NAME.test(name)) return false;
  return ZONEINFO_DIRS.some((dir) => statSync(`${dir}/${name}`, { throwIfNoEntry: false })?.isFile() === true);
}

/** The zone named by TZ or /etc/localtime, when it is an IANA name with a zoneinfo file; else null. */
export function zoneFromSystem(env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform === 'win32') return null;
  const tz = env['TZ'];
  if (tz !== undefined) {
    const name = tz.replace(/^:/, '');
    return isZoneFile(name) ? name : null;
  }
  try {
    const target = readlinkSync('/etc/localtime');
    const name = /zoneinfo\/(?:posix\/|right\/)?(.+)$/.exec(target)?.[1];
    return name !== undefined && isZoneFile(name) ? name : null;
  } catch {
    return null;
  }
}

function cachedSystemZone(): string | null {
  systemZone ??= zoneFromSystem();
  return systemZone;
}

export function localTimezone(): string {
  return cachedSystemZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of `date` in `timezone`. */
export function dateInTimezone(date: Date, timezone: string): string {
  if (timezone === cachedSystemZone()) {
    return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
  }
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function fields(input: EnvironmentContextInput): EnvironmentFields {
  const out: EnvironmentFields = {};
  if (input.cwd !== undefined) out.cwd = input.cwd;
  if (input.approvalPolicy !== undefined) out.approval_policy = input.approvalPolicy;
  if (input.sandboxMode !== undefined) out.sandbox_mode = input.sandboxMode;
  if (input.networkAccess !== undefined) {
    out.network_access = typeof input.networkAccess === 'boolean' ? (input.networkAccess ? 'enabled' : 'restricted') : input.networkAccess;
  }
  if (input.writableRoots !== undefined && input.writableRoots.length > 0) out.writable_roots = [...input.writableRoots];
  if (input.shell !== undefined) out.shell = input.shell;
  const timezone = input.timezone ?? (input.now ? localTimezone() : undefined);
  if (input.now !== undefined && timezone !== undefined) out.current_date = dateInTimezone(input.now, timezone);
  if (timezone !== undefined) out.timezone = timezone;
  return out;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function render(f: EnvironmentFields): string {
  const lines = [ENVIRONMENT_CONTEXT_OPEN];
  for (const key of FIELD_ORDER) {
    const value = f[key];
    if (value === undefined) continue;
    if (key === 'writable_roots') {
      lines.push('  <writable_roots>');
      for (const root of value as readonly string[]) lines.push(`    <root>${escapeXml(root)}</root>`);
      lines.push('  </writable_roots>');
    } else {
      lines.push(`  <${key}>${escapeXml(value as string)}</${key}>`);
    }
  }
  lines.push(ENVIRONMENT_CONTEXT_CLOSE);
  return lines.join('\n');
}

/** The full block, with every known field. */
export function buildEnvironmentContext(input: EnvironmentContextInput): string {
  return render(fields(input));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

function changedFields(prev: EnvironmentContextInput, next: EnvironmentContextInput): EnvironmentFields {
  const before = fields(prev);
  const after = fields(next);
  const out: EnvironmentFields = {};
  for (const key of FIELD_ORDER) {
    if (after[key] !== undefined && !sameValue(before[key], after[key])) {
      (out as Record<string, unknown>)[key] = after[key];
    }
  }
  return out;
}

/** True when the model would see a different block (a new date counts; a new time of day does not). */
export function environmentContextChanged(prev: EnvironmentContextInput, next: EnvironmentContextInput): boolean {
  return Object.keys(changedFields(prev, next)).length > 0;
}

/** The block to send before the next turn, holding only the changed fields; undefined if none. */
export function environmentContextUpdate(prev: EnvironmentContextInput, next: EnvironmentContextInput): string | undefined {
  const changed = changedFields(prev, next);
  return Object.keys(changed).length > 0 ? render(changed) : undefined;
}

export function environmentContextMessage(block: string): MessageItem {
  return userText(block);
}
