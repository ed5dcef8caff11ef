// scripts/eval-mock.mjs: the offline way to try `rig eval examples/eval` by hand (and to make the
// README's report screenshot). The command it prints is run as printed, through the real CLI, with
// a RIG_HOME that defines no provider at all: the `-c` override alone must carry the run, the
// harness fingerprints included.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { loadTasks } from '../../src/eval/tasks/load.js';
import { REPO_ROOT, jsonLines, removeDir, runRig, tempDir } from '../support/workspace.js';
import { defaultSolves } from './support/scripted-model.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'eval-mock.mjs');
const EXAMPLES = join(REPO_ROOT, 'examples', 'eval');

function startScript(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the printed `rig eval ...` line once the script has said where it listens. */
function printedCommand(script: ReturnType<typeof startScript>): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const line = /^\s*rig eval .*$/m.exec(script.output())?.[0];
      if (line) resolve(line.trim());
    };
    script.child.stdout!.on('data', look);
    look();
    void script.exited.then((code) => reject(new Error(`eval-mock exited (${code}) before printing the command:\n${script.output()}`)));
  });
}

describe('scripts/eval-mock.mjs', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('serves the examples to the command it prints: some tasks pass, some fail, all three outputs written; Ctrl-C stops it', async () => {
    const script = startScript(['--port', '0']);
    try {
      const command = await printedCommand(script);
      expect(script.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/);
      const args = command.split(/\s+/).slice(1).map((arg) => (arg === 'examples/eval' ? EXAMPLES : arg));
      const home = tempDir('home');
      const cwd = tempDir('eval-cwd');
      dirs.push(home, cwd);
      const out = join(cwd, 'run');
      const run = await runRig([...args, '--out', out], { cwd, home });
      expect(run.code, run.stderr).toBe(0);

      const tasks = loadTasks(EXAMPLES);
      const solves = defaultSolves(tasks);
      const results = jsonLines(readFileSync(join(out, 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
      expect(results).toHaveLength(tasks.length * 2);
      for (const r of results) expect({ task: r.task, harness: r.harness, status: r.status }).toEqual({ task: r.task, harness: r.harness, status: solves(r.task, r.harness) ? 'passed' : 'failed' });
      expect(results.some((r) => r.pass)).toBe(true);
      expect(results.some((r) => !r.pass)).toBe(true);
      expect(existsSync(join(out, 'summary.json'))).toBe(true);
      expect(existsSync(join(out, 'report.html'))).toBe(true);
    } finally {
      script.child.kill('SIGINT');
    }
    expect(await script.exited).toBe(0);
  }, 300_000);

  it('refuses an argument it does not know, saying how to call it', async () => {
    const script = startScript(['--prot', '9000']);
    expect(await script.exited).toBe(2);
    expect(script.output()).toContain('unknown argument "--prot" (usage: node scripts/eval-mock.mjs [--port N]');
  });
});
