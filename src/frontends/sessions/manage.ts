// `rig archive`, `rig unarchive` and `rig delete`: move a thread's rollout to archived_sessions/
// and back, or remove it for good (after asking, unless --yes).
import { openThreadCatalog, rigHomeFor, type ThreadCatalog as ThreadIndex, type ThreadSummary as ThreadRow } from '../../core/catalog.js';
import { defaultSessionsIo, type SessionsIo } from './io.js';

async function withIndex<T>(io: SessionsIo, body: (index: ThreadIndex) => Promise<T> | T): Promise<T> {
  const index = await openThreadCatalog(rigHomeFor(io.env));
  try {
    return await body(index);
  } finally {
    index.close();
  }
}

function findOrExplain(index: ThreadIndex, id: string, io: SessionsIo): ThreadRow | undefined {
  let row: ThreadRow | undefined;
  try {
    row = index.findThread(id);
  } catch (error) {
    io.stderr(`rig: ${(error as Error).message}\n`);
    return undefined;
  }
  if (!row) io.stderr(`rig: no thread with id ${id} under ${index.home}; see \`rig sessions list --all\` (add --archived for archived ones)\n`);
  return row;
}

function label(row: ThreadRow): string {
  return row.title ? `${row.id} "${row.title.length > 60 ? `${row.title.slice(0, 59)}…` : row.title}"` : row.id;
}

export async function runSetArchived(id: string, archived: boolean, io: SessionsIo = defaultSessionsIo()): Promise<number> {
  return withIndex(io, (index) => {
    const row = findOrExplain(index, id, io);
    if (!row) return 1;
    if (row.archived === archived) {
      io.stdout(`thread ${row.id} is already ${archived ? 'archived' : 'not archived'}\n`);
      return 0;
    }
    const moved = index.setArchived(row.id, archived);
    io.stdout(`${archived ? 'archived' : 'unarchived'} ${label(moved)} (${moved.rolloutPath})\n`);
    return 0;
  });
}

export interface DeleteCommandInput {
  id: string;
  yes?: boolean;
}

export async function runDelete(input: DeleteCommandInput, io: SessionsIo = defaultSessionsIo()): Promise<number> {
  return withIndex(io, async (index) => {
    const row = findOrExplain(index, input.id, io);
    if (!row) return 1;
    if (!input.yes) {
      if (!io.confirm) {
        io.stderr(
          `rig: not deleting ${row.id}: there is no terminal to confirm on. ` +
            `Pass --yes to delete it without asking (this removes ${row.rolloutPath}).\n`,
        );
        return 1;
      }
      const ok = await io.confirm(`delete thread ${label(row)}?\nits rollout ${row.rolloutPath} will be removed for good [y/N] `);
      if (!ok) {
        io.stdout('not deleted\n');
        return 1;
      }
    }
    index.deleteThread(row.id);
    io.stdout(`deleted ${label(row)}\n`);
    return 0;
  });
}
