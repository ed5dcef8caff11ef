// Confirmed hashes of project hooks, kept under $RIG_HOME (a cloned repository cannot vouch for
// itself): a project handler runs only while its current hash equals the one the user confirmed,
// so any change to its command, matcher or options asks again.
import fs from 'node:fs';
import path from 'node:path';
import type { HookDefinition } from './types.js';

interface TrustFile {
  version: 1;
  hooks: Record<string, { hash: string; confirmedAt: string }>;
}

export function hookTrustPath(home: string): string {
  return path.join(home, 'hooks', 'trusted.json');
}

export function readHookTrust(home: string): Map<string, string> {
  const file = hookTrustPath(home);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  try {
    const data = JSON.parse(text) as Partial<TrustFile>;
    return new Map(Object.entries(data.hooks ?? {}).map(([key, entry]) => [key, entry.hash]));
  } catch {
    // An unreadable store trusts nothing; confirming again rewrites it.
    return new Map();
  }
}

/** Records the current hashes of `hooks` as confirmed (atomic write: temp file + rename). */
export function confirmHooks(home: string, hooks: readonly Pick<HookDefinition, 'key' | 'hash'>[]): void {
  const file = hookTrustPath(home);
  let data: TrustFile = { version: 1, hooks: {} };
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<TrustFile>;
    if (parsed.hooks) data = { version: 1, hooks: parsed.hooks };
  } catch {
    // start afresh
  }
  const now = new Date().toISOString();
  for (const hook of hooks) data.hooks[hook.key] = { hash: hook.hash, confirmedAt: now };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}
