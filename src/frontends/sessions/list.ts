// `rig sessions list` and `rig sessions reindex`.
//
// Which threads are listed: by default the unarchived threads started in the current directory;
// `--cwd DIR` names another directory; `--all` lists every directory. Archived threads are never
// mixed in: `--archived` lists only them (with `--all` or `--cwd` as above).
import path from 'node:path';
import { openThreadCatalog, rigHomeFor, stateDbPath, type ListThreadsOptions } from '../../core/catalog.js';
import { formatThreadTable } from './format.js';
import { defaultSessionsIo, type SessionsIo } from './io.js';

export interface ListCommandInput {
  all?: boolean;
  cwd?: string;
  archived?: boolean;
  json?: boolean;
  limit?: number;
}

export async function runSessionsList(input: ListCommandInput, io: SessionsIo = defaultSessionsIo()): Promise<number> {
  const home = rigHomeFor(io.env);
  const index = await openThreadCatalog(home);
  try {
    const options: ListThreadsOptions = {
      ...(input.archived ? { archivedOnly: true } : {}),
      ...(input.all ? {} : { cwd: path.resolve(io.cwd, input.cwd ?? '.') }),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
    };
    if (input.json) {
      // Each thread's JSON text comes straight from SQLite (threadJson()'s shape, see thread-json.ts).
      const threads = index.listThreadsJson(options);
      for (const notice of index.notices) io.stderr(`warning: ${notice}\n`);
      // One thread per line: compact for thousands of threads, still easy to read and grep.
      io.stdout(threads.length === 0 ? '[]\n' : `[\n${threads.join(',\n')}\n]\n`);
      return 0;
    }
    const rows = index.listThreads(options);
    for (const notice of index.notices) io.stderr(`warning: ${notice}\n`);
    if (rows.length === 0) {
      const where = input.all ? '' : ` in ${options.cwd}`;
      const hint = input.all ? '' : ' (use --all to list every directory)';
      io.stdout(`no ${input.archived ? 'archived ' : ''}threads${where}${hint}\n`);
      return 0;
    }
    io.stdout(formatThreadTable(rows, { now: Date.now(), ...(io.columns ? { width: io.columns } : {}) }));
    return 0;
  } finally {
    index.close();
  }
}

export async function runSessionsReindex(io: SessionsIo = defaultSessionsIo()): Promise<number> {
  const home = rigHomeFor(io.env);
  const index = await openThreadCatalog(home);
  try {
    const result = index.reindex();
    // reindex() empties the table first, so every thread found counts as added.
    const total = result.added;
    for (const warning of index.notices) io.stderr(`warning: ${warning}\n`);
    io.stdout(
      `reindexed ${stateDbPath(home)}: ${total} thread${total === 1 ? '' : 's'}` +
        (result.warnings.length > 0 ? `, ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}` : '') +
        '\n',
    );
    return 0;
  } finally {
    index.close();
  }
}
