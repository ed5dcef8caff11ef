// `rig resume` / `rig fork` without an id: a numbered list of recent threads to choose from (on a
// terminal only; scripts must name the thread or use --last).
import path from 'node:path';
import { openThreadCatalog, rigHomeFor } from '../../core/catalog.js';
import { formatThreadTable } from '../sessions/format.js';
import { LineReader } from './line-reader.js';
import type { ReplIo } from './run.js';

const PICK_LIMIT = 15;

/** The chosen thread id, or undefined when nothing was chosen (a message has been printed). */
export async function pickThread(io: ReplIo, options: { cwd: string; all: boolean; verb: string }): Promise<string | undefined> {
  const err = (text: string) => void io.stderr.write(text);
  if (!io.stdin.isTTY || !io.stdout.isTTY) {
    err(`rig: which thread? pass a thread id or --last (see \`rig sessions list\`); there is no terminal to pick on\n`);
    return undefined;
  }
  const index = await openThreadCatalog(rigHomeFor(io.env));
  const rows = (() => {
    try {
      return index.listThreads({ ...(options.all ? {} : { cwd: path.resolve(options.cwd) }), limit: PICK_LIMIT });
    } finally {
      index.close();
    }
  })();
  if (rows.length === 0) {
    err(`rig: no threads ${options.all ? 'yet' : `in ${options.cwd}; use --all to see every directory`}\n`);
    return undefined;
  }
  const table = formatThreadTable(rows, { now: Date.now(), ...(process.stdout.columns ? { width: process.stdout.columns - 4 } : {}) }).split('\n');
  io.stdout.write(`    ${table[0]}\n`);
  rows.forEach((_, i) => io.stdout.write(`${String(i + 1).padStart(2)}) ${table[i + 1]}\n`));
  const reader = new LineReader({ input: io.stdin, output: io.stdout, terminal: true, onInterrupt: () => reader.close() });
  try {
    for (;;) {
      const answer = await reader.next(`${options.verb} which? [1-${rows.length}, empty to cancel] `);
      if (answer === undefined || answer.trim() === '') return undefined;
      const n = Number(answer.trim());
      if (Number.isInteger(n) && n >= 1 && n <= rows.length) return rows[n - 1]!.id;
      io.stdout.write(`please type a number from 1 to ${rows.length}\n`);
    }
  } finally {
    reader.close();
  }
}
