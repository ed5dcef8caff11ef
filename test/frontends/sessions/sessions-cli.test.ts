// `rig sessions list|reindex`, `rig archive|unarchive|delete` as real processes against threads
// written by real `rig exec` runs (loopback mock model, temp RIG_HOME).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { runDelete } from '../../../src/frontends/sessions/manage.js';

interface ListedThread {
  id: string;
  title: string;
  cwd: string;
  model: string | null;
  harness: string | null;
  archived: boolean;
  updated_at: string;
  usage: { input_tokens: number; output_tokens: number };
  rollout_path: string;
}

let mock: MockProvider;
let home: string;
let repoA: string;
let repoB: string;
const ids: Record<'a1' | 'a2' | 'b1', string> = { a1: '', a2: '', b1: '' };

async function execThread(cwd: string, prompt: string): Promise<string> {
  mock.enqueue({ text: `answer to ${prompt}`, usage: { input_tokens: 100, output_tokens: 7 } });
  const run = await runRig(['exec', '--json', prompt], { cwd, home });
  expect(run.code, run.stderr).toBe(0);
  const started = run.stdout.split('\n').map((l) => (l ? JSON.parse(l) : {})).find((e) => e.type === 'thread.started');
  return started.thread_id as string;
}

async function list(args: string[], cwd = repoA): Promise<ListedThread[]> {
  const run = await runRig(['sessions', 'list', '--json', ...args], { cwd, home });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ListedThread[];
}

beforeAll(async () => {
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  repoA = tempGitRepo({ 'a.txt': 'a' });
  repoB = tempGitRepo({ 'b.txt': 'b' });
  ids.a1 = await execThread(repoA, 'first task in A');
  ids.a2 = await execThread(repoA, 'second task in A');
  ids.b1 = await execThread(repoB, 'task in B');
}, 60_000);

afterAll(async () => {
  await mock.close();
  for (const dir of [home, repoA, repoB]) removeDir(dir);
});

describe('rig sessions list', () => {
  test("shows this directory's threads as a table, newest first", async () => {
    const run = await runRig(['sessions', 'list'], { cwd: repoA, home });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+UPDATED\s+MODEL\/HARNESS\s+TOKENS\s+CWD\s+TITLE$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(ids.a2);
    expect(lines[1]).toContain('second task in A');
    expect(lines[1]).toContain('mock-model/native');
    expect(lines[1]).toContain('107');
    expect(lines[2]).toContain(ids.a1);
    expect(run.stdout).not.toContain(ids.b1);
  });

  test('--json prints an array of thread objects', async () => {
    const threads = await list([]);
    expect(threads.map((t) => t.id)).toEqual([ids.a2, ids.a1]);
    const [a2] = threads;
    expect(a2).toMatchObject({ title: 'second task in A', cwd: repoA, model: 'mock-model', harness: 'native', archived: false });
    expect(a2!.usage).toMatchObject({ input_tokens: 100, output_tokens: 7 });
    expect(Number.isNaN(Date.parse(a2!.updated_at))).toBe(false);
    expect(existsSync(a2!.rollout_path)).toBe(true);
  });

  test('--all lists every directory; --cwd names one', async () => {
    expect((await list(['--all'])).map((t) => t.id).sort()).toEqual([ids.a1, ids.a2, ids.b1].sort());
    expect((await list(['--cwd', repoB])).map((t) => t.id)).toEqual([ids.b1]);
    expect((await list(['--cwd', repoB], repoB)).map((t) => t.id)).toEqual([ids.b1]);
  });

  test('an empty directory says so and points at --all', async () => {
    const run = await runRig(['sessions', 'list'], { cwd: home, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no threads in');
    expect(run.stdout).toContain('--all');
  });
});

test('reindex rebuilds a deleted state.sqlite from the rollouts', async () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(home, `state.sqlite${suffix}`), { force: true });
  const run = await runRig(['sessions', 'reindex'], { cwd: repoA, home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('3 threads');
  expect(existsSync(join(home, 'state.sqlite'))).toBe(true);
  expect(await list(['--all'])).toHaveLength(3);
});

test('archive hides a thread, unarchive brings it back', async () => {
  const archived = await runRig(['archive', ids.a1], { cwd: repoA, home });
  expect(archived.code, archived.stderr).toBe(0);
  expect(archived.stdout).toContain(`archived ${ids.a1}`);
  expect(readdirSync(join(home, 'archived_sessions')).some((name) => name.includes(ids.a1))).toBe(true);
  expect((await list([])).map((t) => t.id)).toEqual([ids.a2]);
  const onlyArchived = await list(['--archived']);
  expect(onlyArchived.map((t) => [t.id, t.archived])).toEqual([[ids.a1, true]]);

  const again = await runRig(['archive', ids.a1], { cwd: repoA, home });
  expect(again.stdout).toContain('already archived');

  const restored = await runRig(['unarchive', ids.a1], { cwd: repoA, home });
  expect(restored.code, restored.stderr).toBe(0);
  expect((await list([])).map((t) => t.id).sort()).toEqual([ids.a1, ids.a2].sort());
  expect(await list(['--archived'])).toEqual([]);
});

describe('rig delete', () => {
  test('refuses without --yes when there is no terminal to ask on', async () => {
    const run = await runRig(['delete', ids.b1], { cwd: repoA, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--yes');
    expect(run.stderr).toContain('no terminal');
    expect((await list(['--all'])).map((t) => t.id)).toContain(ids.b1);
  });

  test('an unknown id is an error naming where to look', async () => {
    const run = await runRig(['delete', '--yes', '0000dead'], { cwd: repoA, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no thread with id 0000dead');
  });

  test('asks on a terminal; "no" keeps the thread', async () => {
    const out: string[] = [];
    const questions: string[] = [];
    const code = await runDelete(
      { id: ids.b1 },
      {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
        env: { RIG_HOME: home },
        cwd: repoA,
        confirm: async (question) => {
          questions.push(question);
          return false;
        },
      },
    );
    expect(code).toBe(1);
    expect(questions[0]).toContain(ids.b1);
    expect(questions[0]).toContain('[y/N]');
    expect(out.join('')).toContain('not deleted');
    expect((await list(['--all'])).map((t) => t.id)).toContain(ids.b1);
  });

  test('--yes deletes the thread and its rollout', async () => {
    const before = (await list(['--all'])).find((t) => t.id === ids.b1)!;
    const run = await runRig(['delete', '--yes', ids.b1], { cwd: repoA, home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`deleted ${ids.b1}`);
    expect(existsSync(before.rollout_path)).toBe(false);
    expect((await list(['--all'])).map((t) => t.id)).not.toContain(ids.b1);
  });
});
