// User-facing thread names ("Fix the flaky test"), set by a front end (app-server's
// thread/name/set, a TUI rename). Kept beside the rollouts in RIG_HOME/session_index.jsonl, an
// append-only log of {id, thread_name, updated_at} where the last entry for an id wins — Codex
// keeps its names the same way — so naming never rewrites a rollout or needs its writer's lock.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const THREAD_NAMES_FILE = 'session_index.jsonl';

interface NameEntry {
  id: string;
  thread_name: string;
  updated_at: string;
}

/** Every named thread's current name. A torn last line (a crash mid-append) is skipped. */
export function readThreadNames(home: string): Map<string, string> {
  const names = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(home, THREAD_NAMES_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return names;
    throw error;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as Partial<NameEntry>;
      if (typeof entry.id === 'string' && typeof entry.thread_name === 'string') names.set(entry.id, entry.thread_name);
    } catch {
      // A partial line from an interrupted write: the entries before it still count.
    }
  }
  return names;
}

/** Names (or renames) a thread; an empty name is refused. Returns the trimmed name. */
export function setThreadName(home: string, id: string, name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new Error('a thread name cannot be empty');
  mkdirSync(home, { recursive: true });
  const entry: NameEntry = { id, thread_name: trimmed, updated_at: new Date().toISOString() };
  appendFileSync(join(home, THREAD_NAMES_FILE), `${JSON.stringify(entry)}\n`);
  return trimmed;
}
