// RIG_HOME layout: one place that knows where every persisted file lives.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function rigHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.RIG_HOME;
  if (configured && configured.trim() !== '') return path.resolve(configured);
  return path.join(os.homedir(), '.rig');
}

export function sessionsDir(home: string): string {
  return path.join(home, 'sessions');
}

export function archivedSessionsDir(home: string): string {
  return path.join(home, 'archived_sessions');
}

export function stateDbPath(home: string): string {
  return path.join(home, 'state.sqlite');
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYY-MM-DDThh-mm-ss` in local time, as Codex names rollout files. */
export function rolloutTimestamp(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`
  );
}

export function rolloutFileName(date: Date, threadId: string): string {
  return `rollout-${rolloutTimestamp(date)}-${threadId}.jsonl`;
}

/** sessions/YYYY/MM/DD (local date) for a rollout started at `date`. */
export function rolloutDayDir(home: string, date: Date): string {
  return path.join(sessionsDir(home), String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate()));
}

const ROLLOUT_NAME = /^rollout-(\d{4})-(\d{2})-(\d{2})T\d{2}-\d{2}-\d{2}-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export interface ParsedRolloutName {
  threadId: string;
  year: string;
  month: string;
  day: string;
}

export function parseRolloutFileName(name: string): ParsedRolloutName | undefined {
  const m = ROLLOUT_NAME.exec(name);
  if (!m) return undefined;
  return { year: m[1]!, month: m[2]!, day: m[3]!, threadId: m[4]!.toLowerCase() };
}

/**
 * Creates `dir` (and its parents) under RIG_HOME, or throws a message that says what is wrong:
 * Node reports a read-only file system during a recursive mkdir as "ENOENT ... mkdir", which
 * points the user at the wrong problem.
 */
export function ensureHomeDir(dir: string, home: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    return;
  } catch (error) {
    throw new Error(unwritableHomeMessage(dir, home, error as NodeJS.ErrnoException));
  }
}

export function unwritableHomeMessage(target: string, home: string, error: NodeJS.ErrnoException): string {
  // The deepest directory that exists is where creating failed.
  let existing = target;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  let why = error.code ?? error.message;
  try {
    fs.accessSync(existing, fs.constants.W_OK);
  } catch (access) {
    const code = (access as NodeJS.ErrnoException).code;
    why = code === 'EROFS' ? 'it is on a read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'you may not write there' : why;
  }
  const where = existing === home || target === home ? `RIG_HOME (${home})` : `${existing} (inside RIG_HOME ${home})`;
  return (
    `cannot create ${target}: ${where} is not writable, ${why}. rig keeps sessions and its index there. ` +
    'Make it writable, set RIG_HOME to a writable directory, or pass --ephemeral to keep no session on disk.'
  );
}
