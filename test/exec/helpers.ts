// Shared helpers for exec tests: is anything of a process group still running?
import { readFileSync, readdirSync } from 'node:fs';

/**
 * Pids in the group that are not zombies, read from /proc (what `ps -g` shows). Zombies are dead
 * processes waiting for their parent (here often PID 1, which reaps slowly) and are ignored.
 */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the parenthesised command name: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
  }
  return members;
}

/** Poll until no live process is left in the group; false if some remain at the deadline. */
export async function groupGone(pgid: number, withinMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (liveGroupMembers(pgid).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return liveGroupMembers(pgid).length === 0;
}

/** The first line a command printed, as a number (commands print `$$` there). */
export function firstLineNumber(output: string): number {
  const pid = Number.parseInt(output.split(/\r?\n/)[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`expected a pid on the first line, got ${JSON.stringify(output)}`);
  return pid;
}
