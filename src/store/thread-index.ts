// The SQLite thread index ($RIG_HOME/state.sqlite, WAL): a derived cache of the rollouts for fast
// listing. Every query first reconciles it with the rollout directories that changed since the last
// query (dir-scan.ts), so a missing, stale or corrupt index repairs itself. The SQLite engine
// (sqlite.ts) is loaded only when an index is opened.
import fs from 'node:fs';
import path from 'node:path';
import { isCorruptionError, openSqlite, type SqlDatabase, type SqlStatement } from './sqlite.js';
import { archivedSessionsDir, parseRolloutFileName, sessionsDir, stateDbPath } from './home.js';
import { migrate, SCHEMA_VERSION } from './index-schema.js';
import { readRollout } from './rollout-reader.js';
import { summarizeRollout } from './reconstruct.js';
import type { RolloutFileStat } from './scan.js';
import { scanChangedDirs, UNSETTLED_MTIME } from './dir-scan.js';
import { THREAD_JSON_SQL } from './thread-json.js';
import { threadIdTime } from './ids.js';
import {
  LISTED_COLUMNS,
  threadRowFromValues,
  toThreadRow,
  UPSERT_SQL,
  type DbRow,
  type KnownRow,
  type KnownRowValues,
  type ListedRowValues,
  type ThreadRow,
} from './thread-rows.js';

export type { ThreadRow, ThreadUsageTotals } from './thread-rows.js';

export interface ListThreadsOptions {
  /** Include archived threads (hidden by default). */
  all?: boolean;
  /** Only archived threads. */
  archivedOnly?: boolean;
  /** Only threads started in this directory. */
  cwd?: string;
  limit?: number;
}

export interface RefreshResult {
  added: number;
  updated: number;
  removed: number;
  warnings: string[];
}

/** Summarizes one rollout file into an index row (the expensive path: parses the whole file). */
function rowFromFile(file: RolloutFileStat, previous: DbRow | undefined, warnings: string[]): DbRow {
  const read = readRollout(file.path);
  warnings.push(...read.warnings);
  const s = summarizeRollout(read.records);
  if (s.id && s.id !== file.threadId) {
    warnings.push(`${file.path}: session_meta id ${s.id} differs from the file name; using the file name`);
  }
  return {
    id: file.threadId,
    rollout_path: file.path,
    cwd: s.cwd,
    title: s.title,
    created_at: s.createdAt ?? threadIdTime(file.threadId) ?? file.mtimeMs,
    updated_at: file.mtimeMs,
    model: s.model ?? null,
    model_provider: s.modelProvider ?? null,
    harness: s.harness ?? null,
    archived: file.archived ? 1 : 0,
    archived_at: file.archived ? (previous?.archived_at ?? file.mtimeMs) : null,
    input_tokens: s.usage?.input_tokens ?? 0,
    cached_input_tokens: s.usage?.cached_input_tokens ?? 0,
    output_tokens: s.usage?.output_tokens ?? 0,
    reasoning_output_tokens: s.usage?.reasoning_output_tokens ?? 0,
    git_branch: s.gitBranch ?? null,
    git_sha: s.gitSha ?? null,
    forked_from_id: s.forkedFromId ?? null,
    parent_thread_id: s.parentThreadId ?? null,
    agent_path: s.agentPath ?? null,
    agent_role: s.agentRole ?? null,
    file_size: file.size,
    file_mtime_ms: file.mtimeMs,
  };
}

function statRollout(rolloutPath: string, threadId: string, home: string): RolloutFileStat {
  const stat = fs.statSync(rolloutPath);
  const archivedRoot = archivedSessionsDir(home) + path.sep;
  return {
    threadId,
    path: rolloutPath,
    size: stat.size,
    mtimeMs: Math.floor(stat.mtimeMs),
    archived: rolloutPath.startsWith(archivedRoot),
  };
}

export class ThreadIndex {
  /** Warnings from the last refresh (corrupt rollout lines, a rebuilt database). */
  readonly notices: string[] = [];

  constructor(
    readonly home: string,
    private readonly db: SqlDatabase,
  ) {}

  /**
   * Reconciles the index with the rollout files: adds new, re-reads changed, drops vanished. Only
   * directories whose mtime moved since the last refresh are listed (dir-scan.ts explains why that
   * is enough, and the one case it misses: a rollout edited in place by another program).
   */
  refresh(): RefreshResult {
    const knownDirs = new Map<string, number>();
    for (const [dir, mtime] of this.db.prepare('SELECT path, mtime_ms FROM dirs').rows() as [string, number][]) {
      knownDirs.set(dir, mtime);
    }
    const scan = scanChangedDirs(this.home, knownDirs);
    const files = new Map<string, RolloutFileStat>();
    for (const listed of scan.listed.values()) for (const file of listed) if (!files.has(file.threadId)) files.set(file.threadId, file);
    // No directory remembered (a new, migrated or reindexed index): check every row, so rows whose
    // rollout is in no directory walked are dropped too.
    const known = knownDirs.size === 0 ? this.allKnownRows() : this.knownRowsIn([...scan.listed.keys(), ...scan.vanished], files);
    const dirs = new Map<string, number>();
    for (const [dir, mtime] of scan.seen) if (knownDirs.get(dir) !== mtime) dirs.set(dir, mtime);
    return this.reconcile(files, known, dirs, scan.vanished);
  }

  private allKnownRows(): Map<string, KnownRow> {
    const known = new Map<string, KnownRow>();
    const rows = this.db.prepare('SELECT id, rollout_path, file_size, file_mtime_ms, archived_at FROM threads').rows() as KnownRowValues[];
    for (const [id, rollout_path, file_size, file_mtime_ms, archived_at] of rows) {
      known.set(id, { id, rollout_path, file_size, file_mtime_ms, archived_at });
    }
    return known;
  }

  /**
   * The rows of rollouts in `dirs` (the directories just listed or gone), plus the rows of files
   * found there that the index places elsewhere (moved in). A file whose row points at another
   * rollout that still exists is a copy: the row keeps its file, and the copy is dropped from `files`.
   */
  private knownRowsIn(dirs: readonly string[], files: Map<string, RolloutFileStat>): Map<string, KnownRow> {
    const known = new Map<string, KnownRow>();
    const inDir = this.db.prepare(
      'SELECT id, rollout_path, file_size, file_mtime_ms, archived_at FROM threads WHERE rollout_path > ? AND rollout_path < ?',
    );
    const afterSep = String.fromCharCode(path.sep.charCodeAt(0) + 1);
    for (const dir of dirs) {
      for (const [id, rollout_path, file_size, file_mtime_ms, archived_at] of inDir.rows(dir + path.sep, dir + afterSep) as KnownRowValues[]) {
        // The range also covers subdirectories, which are reconciled on their own.
        if (path.dirname(rollout_path) === dir) known.set(id, { id, rollout_path, file_size, file_mtime_ms, archived_at });
      }
    }
    const byId = this.db.prepare('SELECT id, rollout_path, file_size, file_mtime_ms, archived_at FROM threads WHERE id = ?');
    for (const file of [...files.values()]) {
      if (known.has(file.threadId)) continue;
      const values = byId.rows(file.threadId)[0] as KnownRowValues | undefined;
      if (!values) continue;
      const [id, rollout_path, file_size, file_mtime_ms, archived_at] = values;
      if (rollout_path !== file.path && fs.existsSync(rollout_path)) files.delete(file.threadId);
      else known.set(id, { id, rollout_path, file_size, file_mtime_ms, archived_at });
    }
    return known;
  }

  private reconcile(
    files: Map<string, RolloutFileStat>,
    known: Map<string, KnownRow>,
    dirs: Map<string, number>,
    vanishedDirs: readonly string[],
  ): RefreshResult {
    const result: RefreshResult = { added: 0, updated: 0, removed: 0, warnings: [] };
    const changed: RolloutFileStat[] = [];
    for (const file of files.values()) {
      const row = known.get(file.threadId);
      if (!row || row.rollout_path !== file.path || row.file_size !== file.size || row.file_mtime_ms !== file.mtimeMs) changed.push(file);
    }
    const vanished = [...known.keys()].filter((id) => !files.has(id));
    // Usually nothing changed: then no write transaction (and no write lock) at all.
    if (changed.length === 0 && vanished.length === 0 && dirs.size === 0 && vanishedDirs.length === 0) return result;
    const upsert = this.db.prepare(UPSERT_SQL);
    const remove = this.db.prepare('DELETE FROM threads WHERE id = ?');
    const rememberDir = this.db.prepare('INSERT INTO dirs (path, mtime_ms) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms');
    const forgetDir = this.db.prepare('DELETE FROM dirs WHERE path = ?');
    this.db.transaction(() => {
      for (const file of changed) {
        const row = known.get(file.threadId);
        let fresh: DbRow;
        try {
          fresh = rowFromFile(file, row as DbRow | undefined, result.warnings);
        } catch (error) {
          // Deleted or unreadable since the scan: leave the old row, and list its directory again
          // next time to decide.
          result.warnings.push((error as Error).message);
          dirs.set(path.dirname(file.path), UNSETTLED_MTIME);
          continue;
        }
        upsert.run(fresh);
        if (row) result.updated += 1;
        else result.added += 1;
      }
      for (const id of vanished) {
        remove.run(id);
        result.removed += 1;
      }
      for (const [dir, mtime] of dirs) rememberDir.run(dir, mtime);
      for (const dir of vanishedDirs) forgetDir.run(dir);
    });
    this.notices.push(...result.warnings);
    return result;
  }

  /** Drops every row and rebuilds from the rollouts (`rig sessions reindex`). */
  reindex(): RefreshResult {
    this.db.exec('DELETE FROM threads; DELETE FROM dirs;');
    return this.refresh();
  }

  /**
   * Records a thread the engine just wrote. Reads the rollout to fill what is not given, and
   * stores its size and mtime so the next listing does not parse it again.
   */
  upsertThread(thread: { id: string; rolloutPath: string } & Partial<Omit<ThreadRow, 'id' | 'rolloutPath'>>): ThreadRow {
    const warnings: string[] = [];
    const file = statRollout(thread.rolloutPath, thread.id, this.home);
    const previous = this.getRow(thread.id);
    const base = rowFromFile(file, previous, warnings);
    const row: DbRow = {
      ...base,
      cwd: thread.cwd ?? base.cwd,
      title: thread.title ?? base.title,
      created_at: thread.createdAt ?? base.created_at,
      model: thread.model ?? base.model,
      model_provider: thread.modelProvider ?? base.model_provider,
      harness: thread.harness ?? base.harness,
      input_tokens: thread.usage?.input_tokens ?? base.input_tokens,
      cached_input_tokens: thread.usage?.cached_input_tokens ?? base.cached_input_tokens,
      output_tokens: thread.usage?.output_tokens ?? base.output_tokens,
      reasoning_output_tokens: thread.usage?.reasoning_output_tokens ?? base.reasoning_output_tokens,
    };
    this.db.prepare(UPSERT_SQL).run(row);
    this.notices.push(...warnings);
    return toThreadRow(row);
  }

  listThreads(options: ListThreadsOptions = {}): ThreadRow[] {
    // Rows as arrays: building an object per row column by column costs more than the query
    // itself when listing thousands of threads.
    return (this.listQuery(LISTED_COLUMNS.join(', '), options).rows(...this.listParams(options)) as ListedRowValues[]).map(
      threadRowFromValues,
    );
  }

  /** listThreads() as the JSON text of each thread (threadJson()'s shape), written by SQLite. */
  listThreadsJson(options: ListThreadsOptions = {}): string[] {
    return this.listQuery(THREAD_JSON_SQL, options).column(...this.listParams(options)) as string[];
  }

  private listQuery(columns: string, options: ListThreadsOptions): SqlStatement {
    this.refresh();
    const where: string[] = [];
    // With a cwd, `+archived` keeps SQLite off threads_by_updated (every unarchived thread) and on
    // threads_by_cwd: a directory's threads without reading anyone else's.
    const archived = options.cwd !== undefined ? '+archived' : 'archived';
    if (options.archivedOnly) where.push(`${archived} = 1`);
    else if (!options.all) where.push(`${archived} = 0`);
    if (options.cwd !== undefined) where.push('cwd = ?');
    const sql =
      `SELECT ${columns} FROM threads` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ' ORDER BY updated_at DESC, id DESC' +
      (options.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(options.limit))}` : '');
    return this.db.prepare(sql);
  }

  private listParams(options: ListThreadsOptions): unknown[] {
    return options.cwd !== undefined ? [path.resolve(options.cwd)] : [];
  }

  /** By full id or unique prefix (archived included). Throws when a prefix is ambiguous. */
  findThread(idOrPrefix: string): ThreadRow | undefined {
    this.refresh();
    const needle = idOrPrefix.trim().toLowerCase();
    if (needle === '') return undefined;
    const exact = this.getRow(needle);
    if (exact) return toThreadRow(exact);
    const matches = this.db
      .prepare("SELECT * FROM threads WHERE id LIKE ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT 6")
      .all(needle.replace(/[\\%_]/g, (c) => `\\${c}`) + '%') as unknown as DbRow[];
    if (matches.length > 1) {
      const shown = matches.slice(0, 5).map((m) => m.id).join(', ');
      throw new Error(`thread id prefix "${idOrPrefix}" matches several threads (${shown}); give more characters`);
    }
    return matches[0] ? toThreadRow(matches[0]) : undefined;
  }

  /** The most recently updated unarchived thread, optionally only those started in `cwd`. */
  latestThread(options: { cwd?: string } = {}): ThreadRow | undefined {
    return this.listThreads({ ...options, limit: 1 })[0];
  }

  /** Archives (moves the rollout to archived_sessions/) or restores it to sessions/YYYY/MM/DD. */
  setArchived(id: string, archived: boolean): ThreadRow {
    const thread = this.findThread(id);
    if (!thread) throw new Error(`no thread with id ${id}; see \`rig sessions list --all\``);
    if (thread.archived !== archived) {
      const name = path.basename(thread.rolloutPath);
      let target: string;
      if (archived) {
        target = path.join(archivedSessionsDir(this.home), name);
      } else {
        const parsed = parseRolloutFileName(name);
        target = parsed
          ? path.join(sessionsDir(this.home), parsed.year, parsed.month, parsed.day, name)
          : path.join(sessionsDir(this.home), name);
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(thread.rolloutPath, target);
      const file = statRollout(target, thread.id, this.home);
      this.db
        .prepare('UPDATE threads SET rollout_path = ?, archived = ?, archived_at = ?, file_size = ?, file_mtime_ms = ? WHERE id = ?')
        .run(target, archived ? 1 : 0, archived ? Date.now() : null, file.size, file.mtimeMs, thread.id);
    }
    return toThreadRow(this.getRow(thread.id)!);
  }

  /** Removes the thread from the index and deletes its rollout file. */
  deleteThread(id: string): boolean {
    const thread = this.findThread(id);
    if (!thread) return false;
    fs.rmSync(thread.rolloutPath, { force: true });
    this.db.prepare('DELETE FROM threads WHERE id = ?').run(thread.id);
    return true;
  }

  close(): void {
    this.db.close();
  }

  private getRow(id: string): DbRow | undefined {
    return this.db.prepare('SELECT * FROM threads WHERE id = ?').get(id) as DbRow | undefined;
  }
}

function openDatabase(dbPath: string): SqlDatabase {
  const db = openSqlite(dbPath);
  try {
    db.setPragma('journal_mode', 'WAL');
    db.setPragma('synchronous', 'NORMAL');
    db.setPragma('busy_timeout', 5000);
    // migrate() takes the write lock to check the version; an index that is current needs no lock.
    if (db.pragmaValue('user_version') !== SCHEMA_VERSION) migrate(db, dbPath);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Opens (creating or migrating) $RIG_HOME/state.sqlite. A corrupt file is set aside and rebuilt. */
export async function openIndex(home: string): Promise<ThreadIndex> {
  fs.mkdirSync(home, { recursive: true });
  const dbPath = stateDbPath(home);
  let db: SqlDatabase;
  const notices: string[] = [];
  try {
    db = openDatabase(dbPath);
  } catch (error) {
    if (!isCorruptionError(error)) throw error;
    const aside = `${dbPath}.corrupt-${Date.now()}`;
    fs.renameSync(dbPath, aside);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
    notices.push(`${dbPath} was not a valid database; moved it to ${aside} and rebuilt the index from the rollouts`);
    db = openDatabase(dbPath);
  }
  const index = new ThreadIndex(home, db);
  index.notices.push(...notices);
  return index;
}

/** Rebuilds the whole index from the rollouts (`rig sessions reindex`). */
export async function reindex(home: string): Promise<RefreshResult> {
  const index = await openIndex(home);
  try {
    return index.reindex();
  } finally {
    index.close();
  }
}
