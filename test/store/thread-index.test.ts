import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../src/store/sqlite.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantText, userText } from '../../src/protocol/index.js';
import {
  RolloutWriter,
  SCHEMA_VERSION,
  newThreadId,
  openIndex,
  MIGRATIONS,
  RACY_WINDOW_MS,
  reindex,
  responseItemRecord,
  threadJson,
  stateDbPath,
  tokenCountRecord,
  turnContextRecord,
  userMessageEventRecord,
  UNSETTLED_MTIME,
  type ThreadIndex,
} from '../../src/store/index.js';

let home: string;
let index: ThreadIndex | undefined;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-index-'));
});
afterEach(() => {
  index?.close();
  index = undefined;
  fs.rmSync(home, { recursive: true, force: true });
});

function writeThread(options: { cwd?: string; prompt?: string; now?: Date; model?: string } = {}): { id: string; path: string } {
  const id = newThreadId(options.now?.getTime());
  const writer = RolloutWriter.create({
    home,
    threadId: id,
    now: options.now,
    meta: { cwd: options.cwd ?? '/repo', originator: 'rig', cli_version: '0.1.0', model: 'gpt-5', model_provider: 'openai', harness: 'codex', git: { branch: 'main', commit_hash: 'a'.repeat(40) } },
  });
  writer.append(turnContextRecord({ cwd: options.cwd ?? '/repo', model: options.model ?? 'gpt-5' }));
  writer.append(responseItemRecord(userText('# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>')));
  writer.append(responseItemRecord(userText(`  ${options.prompt ?? 'fix the bug'}  \n`)));
  writer.append(responseItemRecord(assistantText('done')));
  const usage = { input_tokens: 100, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 7, reasoning_output_tokens: 3 };
  writer.append(tokenCountRecord(usage, usage));
  writer.close();
  return { id, path: writer.path };
}

describe('thread index', () => {
  it('builds itself from rollouts on first open and lists newest first', async () => {
    const a = writeThread({ prompt: 'first thing', now: new Date(2026, 0, 1) });
    const b = writeThread({ prompt: 'second thing', cwd: '/other', now: new Date(2026, 0, 2) });
    fs.utimesSync(a.path, new Date(2026, 0, 1), new Date(2026, 0, 1));
    fs.utimesSync(b.path, new Date(2026, 0, 2), new Date(2026, 0, 2));
    index = await openIndex(home);
    expect(fs.existsSync(stateDbPath(home))).toBe(true);
    const rows = index.listThreads();
    expect(rows.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(rows[1]).toMatchObject({
      title: 'first thing',
      cwd: '/repo',
      model: 'gpt-5',
      modelProvider: 'openai',
      harness: 'codex',
      archived: false,
      gitBranch: 'main',
      usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7, reasoning_output_tokens: 3 },
    });
    expect(rows[1]!.createdAt).toBe(new Date(2026, 0, 1).getTime());
    expect(index.listThreads({ cwd: '/other' }).map((r) => r.id)).toEqual([b.id]);
    expect(index.latestThread({ cwd: '/repo' })?.id).toBe(a.id);
    expect(index.listThreads({ limit: 1 })).toHaveLength(1);
    const db = openSqlite(stateDbPath(home));
    expect(db.pragmaValue('journal_mode')).toBe('wal');
    db.close();
  });

  it('filters an unlimited listing exactly as a limited one', async () => {
    const threads = [
      writeThread({ prompt: 'one', now: new Date(2026, 0, 1) }),
      writeThread({ prompt: 'two', cwd: '/other', now: new Date(2026, 0, 2) }),
      writeThread({ prompt: 'three', now: new Date(2026, 0, 3) }),
      writeThread({ prompt: 'four', cwd: '/other', now: new Date(2026, 0, 4) }),
    ];
    threads.forEach((t, i) => fs.utimesSync(t.path, new Date(2026, 0, i + 1), new Date(2026, 0, i + 1)));
    index = await openIndex(home);
    index.setArchived(threads[2]!.id, true);
    index.listThreads(); // settles the index after the archive move
    const combos = [{}, { all: true }, { archivedOnly: true }, { cwd: '/repo' }, { cwd: '/other', all: true }, { cwd: '/repo', archivedOnly: true }];
    for (const options of combos) {
      const unlimited = index.listThreads(options);
      expect(unlimited, JSON.stringify(options)).toEqual(index.listThreads({ ...options, limit: 100 }));
    }
    expect(index.listThreads({ all: true }).map((r) => r.title)).toEqual(['four', 'three', 'two', 'one']);
    expect(index.listThreads({ cwd: '/repo' }).map((r) => r.title)).toEqual(['one']);
  });

  it('prefers the typed prompt recorded as an event for the title', async () => {
    const id = newThreadId();
    const w = RolloutWriter.create({ home, threadId: id, meta: { cwd: '/r', originator: 'rig', cli_version: '0' } });
    w.append(userMessageEventRecord('what the user typed'));
    w.append(responseItemRecord(userText('<environment_context>\n</environment_context>')));
    w.close();
    index = await openIndex(home);
    expect(index.findThread(id)?.title).toBe('what the user typed');
  });

  it('finds by id and unique prefix, and rejects an ambiguous prefix', async () => {
    const a = writeThread();
    const b = writeThread();
    index = await openIndex(home);
    expect(index.findThread(a.id)?.id).toBe(a.id);
    expect(index.findThread(a.id.slice(0, 30))?.id).toBe(a.id);
    expect(index.findThread('ffffffff')).toBeUndefined();
    const common = commonPrefix(a.id, b.id);
    if (common.length > 0) expect(() => index!.findThread(common)).toThrow(/several threads/);
  });

  it('archives by moving the rollout, hides it from the default list, and restores it', async () => {
    const a = writeThread({ now: new Date(2026, 4, 6) });
    index = await openIndex(home);
    const archived = index.setArchived(a.id, true);
    expect(archived.archived).toBe(true);
    expect(archived.rolloutPath).toBe(path.join(home, 'archived_sessions', path.basename(a.path)));
    expect(fs.existsSync(a.path)).toBe(false);
    expect(index.listThreads()).toEqual([]);
    expect(index.listThreads({ all: true }).map((r) => r.id)).toEqual([a.id]);
    expect(index.listThreads({ archivedOnly: true }).map((r) => r.id)).toEqual([a.id]);
    const restored = index.setArchived(a.id, false);
    expect(restored.archived).toBe(false);
    expect(restored.rolloutPath).toBe(a.path);
    expect(index.listThreads().map((r) => r.id)).toEqual([a.id]);
  });

  it('deletes the row and the rollout file', async () => {
    const a = writeThread();
    index = await openIndex(home);
    expect(index.deleteThread(a.id)).toBe(true);
    expect(fs.existsSync(a.path)).toBe(false);
    expect(index.listThreads({ all: true })).toEqual([]);
    expect(index.deleteThread(a.id)).toBe(false);
  });

  it('repairs itself when the database is deleted, a rollout grows, or a file disappears', async () => {
    const a = writeThread({ prompt: 'alpha' });
    index = await openIndex(home);
    expect(index.listThreads()).toHaveLength(1);
    index.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(stateDbPath(home) + suffix, { force: true });

    index = await openIndex(home);
    expect(index.listThreads().map((r) => r.title)).toEqual(['alpha']);

    // Resumed elsewhere with a new model: the row follows the file.
    const w = RolloutWriter.open({ path: a.path });
    w.append(turnContextRecord({ cwd: '/repo', model: 'o3' }));
    w.close();
    fs.utimesSync(a.path, new Date(), new Date(Date.now() + 5000));
    expect(index.findThread(a.id)?.model).toBe('o3');

    const b = writeThread({ prompt: 'beta' });
    expect(index.listThreads().map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    fs.rmSync(b.path);
    expect(index.listThreads().map((r) => r.id)).toEqual([a.id]);
  });

  it('rebuilds a corrupt database file', async () => {
    writeThread();
    fs.writeFileSync(stateDbPath(home), 'this is not sqlite'.repeat(100));
    index = await openIndex(home);
    expect(index.notices.join('\n')).toMatch(/not a valid database/);
    expect(index.listThreads()).toHaveLength(1);
  });

  it('reindex rebuilds every row from the rollouts', async () => {
    writeThread();
    writeThread();
    index = await openIndex(home);
    index.listThreads();
    index.close();
    const db = openSqlite(stateDbPath(home));
    db.exec("UPDATE threads SET title = 'garbage'");
    db.close();
    const result = await reindex(home);
    expect(result.added).toBe(2);
    index = await openIndex(home);
    expect(index.listThreads().map((r) => r.title)).toEqual(['fix the bug', 'fix the bug']);
  });

  it('migrates a version-0 database and refuses a newer one', async () => {
    fs.mkdirSync(home, { recursive: true });
    const db = openSqlite(stateDbPath(home));
    expect(db.pragmaValue('user_version')).toBe(0);
    db.close();
    writeThread();
    index = await openIndex(home);
    expect(index.listThreads()).toHaveLength(1);
    index.close();
    index = undefined;
    const check = openSqlite(stateDbPath(home));
    expect(check.pragmaValue('user_version')).toBe(SCHEMA_VERSION);
    check.setPragma('user_version', SCHEMA_VERSION + 1);
    check.close();
    await expect(openIndex(home)).rejects.toThrow(/newer rig.*rig sessions reindex/);
  });

  it('upsertThread records the engine’s view and skips re-parsing an unchanged file', async () => {
    const a = writeThread();
    index = await openIndex(home);
    index.upsertThread({ id: a.id, rolloutPath: a.path, title: 'custom name' });
    expect(index.listThreads()[0]?.title).toBe('custom name');
  });
});

describe('listThreadsJson', () => {
  it('writes, in SQL, exactly the text JSON.stringify(threadJson(row)) writes', async () => {
    const titles = ['plain', 'quote " back \\ slash', 'tab\tnew\nline\r\b\f\u0001\u001f\u007f', 'emoji 😀 ünïcödé \u2028\u2029', ''];
    const threads = titles.map((title, i) => writeThread({ prompt: title || ' ', cwd: i % 2 ? '/other' : '/repo', now: new Date(2025, 0, i + 1) }));
    index = await openIndex(home);
    index.setArchived(threads[1]!.id, true);
    index.listThreads();
    const db = openSqlite(stateDbPath(home));
    const edit = db.prepare('UPDATE threads SET title = ?, forked_from_id = ?, git_sha = ?, created_at = ?, updated_at = ? WHERE id = ?');
    threads.forEach((t, i) => edit.run(titles[i], i === 2 ? threads[0]!.id : null, i === 3 ? null : 'b'.repeat(40), i === 4 ? 0 : Date.UTC(2025, 0, i + 1, 1, 2, 3, 7 * i), Date.UTC(2026, 5, 1) + i * 1001, t.id));
    db.close();
    for (const options of [{}, { all: true }, { archivedOnly: true }, { cwd: '/other' }, { cwd: '/repo', all: true }, { all: true, limit: 2 }]) {
      const expected = index.listThreads(options).map((row) => JSON.stringify(threadJson(row)));
      expect(index.listThreadsJson(options), JSON.stringify(options)).toEqual(expected);
    }
    expect(index.listThreadsJson({ all: true })).toHaveLength(titles.length);
  });
});

const V1_COLUMNS = `id, rollout_path, cwd, title, created_at, updated_at, model, model_provider, harness, archived,
  archived_at, input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, git_branch, git_sha,
  forked_from_id, file_size, file_mtime_ms`;

/** Sets a path's mtime `secondsAgo` in the past, so its directory counts as settled (outside the racy window). */
function age(p: string, secondsAgo = 60): void {
  const then = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(p, then, then);
}

describe('thread index refresh by directory mtime', () => {
  it('a rollout appended after indexing shows its new turn in the next list', async () => {
    const a = writeThread({ prompt: 'alpha', now: new Date(2025, 2, 3) });
    age(path.dirname(a.path));
    index = await openIndex(home);
    expect(index.listThreads()[0]).toMatchObject({ id: a.id, model: 'gpt-5' });
    const stored = openSqlite(stateDbPath(home));
    expect(stored.prepare('SELECT mtime_ms FROM dirs WHERE path = ?').column(path.dirname(a.path))[0]).toBeGreaterThan(0);
    stored.close();
    age(path.dirname(a.path), 30); // as if another process indexed it a while ago
    index.listThreads();

    const indexedMtime = fs.statSync(path.dirname(a.path)).mtimeMs;
    const w = RolloutWriter.open({ path: a.path });
    w.append(turnContextRecord({ cwd: '/repo', model: 'o3' }));
    w.append(responseItemRecord(userText('second turn')));
    w.close();
    // Appending does not change a directory's mtime by itself: the writer moves it.
    expect(fs.statSync(path.dirname(a.path)).mtimeMs).toBeGreaterThan(indexedMtime + 20_000);
    // Age it (still different from the stored mtime) so this is not the racy-window path.
    age(path.dirname(a.path), 10);
    expect(index.listThreads()[0]).toMatchObject({ id: a.id, model: 'o3' });
  });

  it('a new thread in an old day directory appears, and a removed rollout disappears', async () => {
    const old = new Date(2025, 5, 7);
    const a = writeThread({ prompt: 'first', now: old });
    age(path.dirname(a.path));
    index = await openIndex(home);
    expect(index.listThreads().map((r) => r.title)).toEqual(['first']);

    const b = writeThread({ prompt: 'second', now: old });
    expect(path.dirname(b.path)).toBe(path.dirname(a.path));
    age(path.dirname(b.path), 50);
    expect(index.listThreads().map((r) => r.id).sort()).toEqual([a.id, b.id].sort());

    fs.rmSync(a.path);
    age(path.dirname(a.path), 40);
    expect(index.listThreads().map((r) => r.id)).toEqual([b.id]);

    // A whole day directory removed drops its rows too.
    fs.rmSync(path.dirname(b.path), { recursive: true });
    expect(index.listThreads()).toEqual([]);
  });

  it('an external edit in an unchanged directory is NOT re-read until reindex (the documented trade-off)', async () => {
    const a = writeThread({ prompt: 'original title', now: new Date(2025, 8, 9) });
    const dir = path.dirname(a.path);
    age(dir);
    index = await openIndex(home);
    expect(index.listThreads()[0]?.model).toBe('gpt-5');

    // Another program appends in place; the directory's mtime stays where it was.
    const dirMtime = fs.statSync(dir).mtime;
    fs.appendFileSync(a.path, JSON.stringify({ timestamp: new Date().toISOString(), type: 'turn_context', payload: { cwd: '/repo', model: 'edited-elsewhere' } }) + '\n');
    fs.utimesSync(dir, dirMtime, dirMtime);
    expect(index.listThreads()[0]?.model).toBe('gpt-5');

    index.reindex();
    expect(index.listThreads()[0]?.model).toBe('edited-elsewhere');
  });

  it('lists a directory again while its mtime is within the racy window, then trusts it once settled', async () => {
    const a = writeThread({ prompt: 'racy', now: new Date(2025, 10, 11) });
    const dir = path.dirname(a.path);
    // Written just now: the directory's mtime is inside the racy window. (Whole milliseconds, so
    // putting it back below restores it exactly.)
    const justNow = new Date();
    fs.utimesSync(dir, justNow, justNow);
    index = await openIndex(home);
    expect(index.listThreads()[0]?.model).toBe('gpt-5');
    const read = () => {
      const db = openSqlite(stateDbPath(home));
      try {
        return db.prepare('SELECT mtime_ms FROM dirs WHERE path = ?').column(dir)[0] as number;
      } finally {
        db.close();
      }
    };
    expect(read()).toBe(UNSETTLED_MTIME);

    // A write in the same clock tick as that scan would leave the directory's mtime unchanged:
    // emulate it by editing in place and putting the directory's mtime back.
    const dirMtime = fs.statSync(dir).mtime;
    fs.appendFileSync(a.path, JSON.stringify({ timestamp: new Date().toISOString(), type: 'turn_context', payload: { cwd: '/repo', model: 'same-tick' } }) + '\n');
    fs.utimesSync(dir, dirMtime, dirMtime);
    // Still unsettled, so listed again: the write is seen.
    expect(index.listThreads()[0]?.model).toBe('same-tick');

    // Once quiet for longer than the window, the mtime is stored and trusted.
    age(dir, RACY_WINDOW_MS / 1000 + 5);
    index.listThreads();
    expect(read()).toBe(fs.statSync(dir).mtimeMs);
  });

  it('migrates a version-1 index (no dirs table) and reconciles every row on the first refresh', async () => {
    const a = writeThread({ prompt: 'kept' });
    const gone = writeThread({ prompt: 'gone', now: new Date(2024, 0, 2) });
    fs.mkdirSync(home, { recursive: true });
    const db = openSqlite(stateDbPath(home));
    db.exec(MIGRATIONS[0]!);
    db.setPragma('user_version', 1);
    db.close();
    index = await openIndex(home);
    expect(index.listThreads({ all: true })).toHaveLength(2);
    index.close();
    // Rows whose whole directory tree is gone before the upgrade still disappear: a version-1
    // database holding the same rows.
    const newer = `${stateDbPath(home)}.newer`;
    fs.renameSync(stateDbPath(home), newer);
    const v1 = openSqlite(stateDbPath(home));
    v1.exec(MIGRATIONS[0]!);
    v1.setPragma('user_version', 1);
    v1.exec(`ATTACH DATABASE '${newer}' AS newer; INSERT INTO threads SELECT ${V1_COLUMNS} FROM newer.threads; DETACH DATABASE newer;`);
    expect(v1.prepare('SELECT count(*) FROM threads').column()[0]).toBe(2);
    v1.close();
    fs.rmSync(path.join(home, 'sessions', '2024'), { recursive: true });
    index = await openIndex(home);
    expect(index.listThreads({ all: true }).map((r) => r.id)).toEqual([a.id]);
    expect(gone.id).not.toBe(a.id);
  });
});

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
