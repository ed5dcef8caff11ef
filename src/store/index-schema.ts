// Versioned schema of the thread index (PRAGMA user_version). The index is a derived cache of
// the rollouts, so a migration may also choose to drop and rebuild.
import type { SqlDatabase } from './sqlite.js';

/** Each entry migrates from version i to i + 1. Never edit a shipped entry; append a new one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE threads (
     id TEXT PRIMARY KEY,
     rollout_path TEXT NOT NULL,
     cwd TEXT NOT NULL DEFAULT '',
     title TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     model TEXT,
     model_provider TEXT,
     harness TEXT,
     archived INTEGER NOT NULL DEFAULT 0,
     archived_at INTEGER,
     input_tokens INTEGER NOT NULL DEFAULT 0,
     cached_input_tokens INTEGER NOT NULL DEFAULT 0,
     output_tokens INTEGER NOT NULL DEFAULT 0,
     reasoning_output_tokens INTEGER NOT NULL DEFAULT 0,
     git_branch TEXT,
     git_sha TEXT,
     forked_from_id TEXT,
     file_size INTEGER NOT NULL DEFAULT 0,
     file_mtime_ms INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX threads_by_updated ON threads(archived, updated_at DESC);
   CREATE INDEX threads_by_cwd ON threads(cwd, updated_at DESC);`,
  // 2: each rollout directory's mtime as of its last listing (dir-scan.ts), so a refresh lists
  // only directories that changed; threads_by_path finds the rows of one directory.
  `CREATE TABLE dirs (
     path TEXT PRIMARY KEY,
     mtime_ms REAL NOT NULL
   );
   CREATE INDEX threads_by_path ON threads(rollout_path);`,
  // 3: listings order by (updated_at DESC, id DESC); indexes in that full order need no sort.
  `DROP INDEX threads_by_updated;
   DROP INDEX threads_by_cwd;
   CREATE INDEX threads_by_updated ON threads(archived, updated_at DESC, id DESC);
   CREATE INDEX threads_by_cwd ON threads(cwd, updated_at DESC, id DESC);
   CREATE INDEX threads_by_time ON threads(updated_at DESC, id DESC);`,
  // 4: the times as Date.prototype.toISOString() text, stored once per row so that listing
  // thousands of threads as JSON formats no dates (thread-json.ts). Generated columns: no write
  // path can forget them. Integer arithmetic, not strftime's %f, which rounds through a float.
  // A STORED column cannot be added in place, so the table is rebuilt with its rows.
  `CREATE TABLE threads_v4 (
     id TEXT PRIMARY KEY,
     rollout_path TEXT NOT NULL,
     cwd TEXT NOT NULL DEFAULT '',
     title TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     model TEXT,
     model_provider TEXT,
     harness TEXT,
     archived INTEGER NOT NULL DEFAULT 0,
     archived_at INTEGER,
     input_tokens INTEGER NOT NULL DEFAULT 0,
     cached_input_tokens INTEGER NOT NULL DEFAULT 0,
     output_tokens INTEGER NOT NULL DEFAULT 0,
     reasoning_output_tokens INTEGER NOT NULL DEFAULT 0,
     git_branch TEXT,
     git_sha TEXT,
     forked_from_id TEXT,
     file_size INTEGER NOT NULL DEFAULT 0,
     file_mtime_ms INTEGER NOT NULL DEFAULT 0,
     created_iso TEXT GENERATED ALWAYS AS
       (strftime('%Y-%m-%dT%H:%M:%S', created_at / 1000, 'unixepoch') || printf('.%03dZ', created_at % 1000)) STORED,
     updated_iso TEXT GENERATED ALWAYS AS
       (strftime('%Y-%m-%dT%H:%M:%S', updated_at / 1000, 'unixepoch') || printf('.%03dZ', updated_at % 1000)) STORED,
     archived_iso TEXT GENERATED ALWAYS AS (CASE WHEN archived_at IS NULL THEN NULL ELSE
       strftime('%Y-%m-%dT%H:%M:%S', archived_at / 1000, 'unixepoch') || printf('.%03dZ', archived_at % 1000) END) STORED
   );
   INSERT INTO threads_v4 (id, rollout_path, cwd, title, created_at, updated_at, model, model_provider, harness,
     archived, archived_at, input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, git_branch,
     git_sha, forked_from_id, file_size, file_mtime_ms)
   SELECT id, rollout_path, cwd, title, created_at, updated_at, model, model_provider, harness,
     archived, archived_at, input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, git_branch,
     git_sha, forked_from_id, file_size, file_mtime_ms FROM threads;
   DROP TABLE threads;
   ALTER TABLE threads_v4 RENAME TO threads;
   CREATE INDEX threads_by_updated ON threads(archived, updated_at DESC, id DESC);
   CREATE INDEX threads_by_cwd ON threads(cwd, updated_at DESC, id DESC);
   CREATE INDEX threads_by_time ON threads(updated_at DESC, id DESC);
   CREATE INDEX threads_by_path ON threads(rollout_path);`,
  // 5: sub-agents: a child thread's parent, task path and role (from its session_meta). Rows of
  // threads indexed before are children of nobody, which is what their rollouts say too.
  `ALTER TABLE threads ADD COLUMN parent_thread_id TEXT;
   ALTER TABLE threads ADD COLUMN agent_path TEXT;
   ALTER TABLE threads ADD COLUMN agent_role TEXT;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: SqlDatabase, dbPath: string): void {
  // One step per IMMEDIATE transaction, re-reading the version inside it: two rig processes
  // opening a fresh index at once must not both run the same step.
  const step = (): boolean => {
    const current = db.pragmaValue('user_version') as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `${dbPath} was written by a newer rig (index schema ${current}, this rig knows ${SCHEMA_VERSION}); ` +
          'upgrade rig, or delete the file and run `rig sessions reindex` to rebuild it from the rollouts',
      );
    }
    if (current === SCHEMA_VERSION) return false;
    db.exec(MIGRATIONS[current]!);
    db.setPragma('user_version', current + 1);
    return true;
  };
  while (db.transaction(step, { immediate: true })) {
    // next step
  }
}
