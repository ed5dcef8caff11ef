// RIG_HOME layout: one place that knows where every persisted file lives.
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
