// The stored threads as a catalog: listing, lookup by id or prefix, archive, delete and reindex,
// over the SQLite index (a cache of the rollouts that repairs itself). Loaded on demand: a command
// that never lists threads never loads better-sqlite3.
export { openIndex as openThreadCatalog, stateDbPath, rigHome as rigHomeFor, threadJson } from '../store/index.js';
export type { ThreadJson } from '../store/index.js';
export type { ListThreadsOptions, RefreshResult, ThreadIndex as ThreadCatalog, ThreadRow as ThreadSummary } from '../store/index.js';
