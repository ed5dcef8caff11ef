// The small slice of SQLite the thread index uses, over whichever engine this Node has: the
// built-in `node:sqlite` where it exists without a flag (Node >= 22.13), else better-sqlite3 12.
// Why not better-sqlite3 everywhere: on Node >= 24.19 its 12.x addon aborts the process at exit
// (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook, nodejs/node#65446), and
// 13.x, which fixes it, needs Node 22. The built-in module also saves loading a native addon.
import { createRequire } from 'node:module';

export type SqlValue = string | number | bigint | null | Uint8Array;
/** Positional values, or one object of named values (`@name` in the SQL, `name` as the key). */
export type SqlParams = unknown[];

export interface SqlStatement {
  run(...params: SqlParams): void;
  /** The first row as an object keyed by column, or undefined. */
  get(...params: SqlParams): Record<string, unknown> | undefined;
  /** Every row as an object keyed by column. */
  all(...params: SqlParams): Record<string, unknown>[];
  /** Every row as an array of column values (cheaper than objects for long listings). */
  rows(...params: SqlParams): unknown[][];
  /** The first column of every row. */
  column(...params: SqlParams): unknown[];
}

export interface SqlDatabase {
  readonly engine: 'node:sqlite' | 'better-sqlite3';
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** The value of a pragma that returns one value (`user_version`, `journal_mode`). */
  pragmaValue(name: string): unknown;
  /** `PRAGMA name = value`. */
  setPragma(name: string, value: string | number): void;
  /** Runs `body` in a transaction; `immediate` takes the write lock at the start. */
  transaction<T>(body: () => T, options?: { immediate?: boolean }): T;
  close(): void;
}

/** True for "this file is not a (sane) SQLite database", from either engine. */
export function isCorruptionError(error: unknown): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // better-sqlite3 names the primary result code; node:sqlite gives its number (11, 26).
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || errcode === 26 || errcode === 11;
}

interface NodeSqliteStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
  setReturnArrays?(enabled: boolean): void;
}
interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen: boolean;
}
type NodeSqliteModule = { DatabaseSync: new (path: string) => NodeSqliteDatabase };

interface BetterStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  raw(enabled?: boolean): BetterStatement;
  pluck(enabled?: boolean): BetterStatement;
}
interface BetterDatabase {
  prepare(sql: string): BetterStatement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends () => unknown>(fn: F): F & { immediate: F };
  close(): void;
  readonly open: boolean;
}
type BetterConstructor = new (path: string) => BetterDatabase;

/** `node:sqlite` when this Node has it unflagged; undefined otherwise. */
function builtinSqlite(): NodeSqliteModule | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== 'function') return undefined;
  // Node 22.13-23 still print an ExperimentalWarning for SQLite on load; the index is an
  // implementation detail, so the user should not see it.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const mod = getBuiltin('node:sqlite') as NodeSqliteModule | undefined;
    return mod && typeof mod.DatabaseSync === 'function' ? mod : undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Which engine openSqlite would use (diagnostics and tests). */
export function sqliteEngine(): SqlDatabase['engine'] {
  return process.env['RIG_SQLITE'] === 'better-sqlite3' || !builtinSqlite() ? 'better-sqlite3' : 'node:sqlite';
}

/** Opens (creating) the database file. `RIG_SQLITE=better-sqlite3` forces the addon. */
export function openSqlite(file: string): SqlDatabase {
  const builtin = process.env['RIG_SQLITE'] === 'better-sqlite3' ? undefined : builtinSqlite();
  if (builtin) return wrapNodeSqlite(new builtin.DatabaseSync(file));
  // require, not import(): better-sqlite3 is CommonJS, and import() first parses it for named
  // exports (~3 ms of every `rig sessions list`).
  const Better = createRequire(import.meta.url)('better-sqlite3') as BetterConstructor;
  return wrapBetterSqlite(new Better(file));
}

function transactionRunner(exec: (sql: string) => void) {
  return <T>(body: () => T, options: { immediate?: boolean } = {}): T => {
    exec(options.immediate ? 'BEGIN IMMEDIATE' : 'BEGIN');
    let result: T;
    try {
      result = body();
    } catch (error) {
      exec('ROLLBACK');
      throw error;
    }
    exec('COMMIT');
    return result;
  };
}

function wrapNodeSqlite(db: NodeSqliteDatabase): SqlDatabase {
  const exec = (sql: string) => db.exec(sql);
  return {
    engine: 'node:sqlite',
    prepare(sql) {
      const objects = db.prepare(sql);
      let arrays: NodeSqliteStatement | undefined;
      const asArrays = (): NodeSqliteStatement | undefined => {
        if (arrays || !objects.setReturnArrays) return arrays;
        arrays = db.prepare(sql);
        arrays.setReturnArrays!(true);
        return arrays;
      };
      const rows = (params: unknown[]): unknown[][] => {
        const statement = asArrays();
        if (statement) return statement.all(...params) as unknown as unknown[][];
        return objects.all(...params).map((row) => Object.values(row));
      };
      return {
        run: (...params) => void objects.run(...params),
        get: (...params) => objects.get(...params),
        all: (...params) => objects.all(...params),
        rows: (...params) => rows(params),
        column: (...params) => rows(params).map((row) => row[0]),
      };
    },
    exec,
    pragmaValue(name) {
      const row = db.prepare(`PRAGMA ${name}`).get();
      return row ? Object.values(row)[0] : undefined;
    },
    setPragma(name, value) {
      db.exec(`PRAGMA ${name} = ${value}`);
    },
    transaction: transactionRunner(exec),
    close() {
      if (db.isOpen) db.close();
    },
  };
}

function wrapBetterSqlite(db: BetterDatabase): SqlDatabase {
  const exec = (sql: string) => db.exec(sql);
  return {
    engine: 'better-sqlite3',
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        run: (...params) => void statement.run(...params),
        get: (...params) => statement.pluck(false).raw(false).get(...params) as Record<string, unknown> | undefined,
        all: (...params) => statement.pluck(false).raw(false).all(...params) as Record<string, unknown>[],
        rows: (...params) => statement.raw(true).all(...params) as unknown[][],
        column: (...params) => statement.pluck(true).all(...params),
      };
    },
    exec,
    pragmaValue: (name) => db.pragma(name, { simple: true }),
    setPragma: (name, value) => void db.pragma(`${name} = ${value}`),
    transaction: transactionRunner(exec),
    close() {
      if (db.open) db.close();
    },
  };
}
