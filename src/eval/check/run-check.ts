// Scoring a trial once the agent has stopped: the task's tests are put back (the agent cannot have
// changed them), then the check runs in a fresh sandbox (./sandbox.ts) that can write only the
// trial's workspace and its own log folder.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CheckSpec, EvalTask, SolutionSpec } from '../tasks/types.js';
import { checkEnv, runSandboxed, type Mount, type SandboxedResult } from './sandbox.js';

const execFileAsync = promisify(execFile);

export interface CheckOutcome {
  /** 0..1; 1 for a passing command check. */
  reward: number;
  pass: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** Tail of the check's output. */
  output: string;
  durationMs: number;
  /** Format-specific facts (SWE-bench: which test groups passed). */
  details?: Record<string, unknown>;
  /** Why the check could not be scored (no reward written, patch did not apply, ...). */
  error?: string;
}

export const DEFAULT_CHECK_TIMEOUT_MS = 300_000;

/** Where the workspace sits in the sandbox and where commands start. */
export function workspaceLayout(task: EvalTask, workspace: string): { mounts: Mount[]; cwd: string } {
  if (task.check.kind === 'harbor') {
    return { mounts: [{ source: workspace, target: task.check.workdir, writable: true }], cwd: task.check.workdir };
  }
  return { mounts: [{ source: workspace, writable: true }], cwd: workspace };
}

/** The task's setup command, in the workspace, sandboxed like a check. */
export async function runSetup(task: EvalTask, workspace: string, timeoutMs: number): Promise<SandboxedResult | undefined> {
  if (!task.setup) return undefined;
  const layout = workspaceLayout(task, workspace);
  return runSandboxed({ command: task.setup, ...layout, env: checkEnv(layout.cwd), timeoutMs });
}

export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function withTests(command: string, tests: string[]): string {
  const quoted = tests.map(shellQuote).join(' ');
  return command.includes('{tests}') ? command.replaceAll('{tests}', quoted) : `${command} ${quoted}`;
}

async function git(cwd: string, args: string[], input?: string): Promise<void> {
  const child = execFileAsync('git', ['-C', cwd, ...args], { maxBuffer: 64 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin!.end(input);
  await child;
}

function patchedFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((match) => match[1]!);
}

/** Puts a patch over the workspace; the files it touches are first reset to the start commit. */
async function applyPatch(workspace: string, patch: string, baseCommit: string): Promise<string | undefined> {
  for (const file of patchedFiles(patch)) {
    await git(workspace, ['checkout', baseCommit, '--', file]).catch(() => rmSync(join(workspace, file), { force: true }));
  }
  try {
    await git(workspace, ['apply', '--whitespace=nowarn', '-'], patch);
    return undefined;
  } catch (error) {
    return `the patch does not apply: ${String((error as { stderr?: unknown }).stderr ?? error).trim().slice(0, 500)}`;
  }
}

function readReward(logs: string): { reward?: number; error?: string } {
  const txt = join(logs, 'verifier', 'reward.txt');
  const json = join(logs, 'verifier', 'reward.json');
  if (existsSync(txt)) {
    const value = Number.parseFloat(readFileSync(txt, 'utf8').trim());
    return Number.isFinite(value) ? { reward: value } : { error: `reward.txt holds no number: ${JSON.stringify(readFileSync(txt, 'utf8').slice(0, 80))}` };
  }
  if (existsSync(json)) {
    try {
      const parsed = JSON.parse(readFileSync(json, 'utf8')) as unknown;
      if (typeof parsed === 'number') return { reward: parsed };
      const record = parsed as Record<string, unknown>;
      if (typeof record['reward'] === 'number') return { reward: record['reward'] };
      const first = Object.values(record).find((value) => typeof value === 'number');
      if (typeof first === 'number') return { reward: first };
      return { error: 'reward.json holds no numeric reward' };
    } catch (error) {
      return { error: `reward.json is not JSON: ${(error as Error).message}` };
    }
  }
  return { error: 'tests/test.sh wrote no /logs/verifier/reward.txt or reward.json' };
}

export interface CheckContext {
  workspace: string;
  baseCommit: string;
  /** A scratch folder of this trial (the Harbor log folder goes here). */
  scratch: string;
  timeoutMs: number;
}

function outcome(result: SandboxedResult, reward: number, extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return { reward, pass: reward >= 1, exitCode: result.exitCode, timedOut: result.timedOut, output: result.output, durationMs: result.durationMs, ...extra };
}

export async function runCheck(task: EvalTask, context: CheckContext): Promise<CheckOutcome> {
  const check: CheckSpec = task.check;
  const startedAt = performance.now();
  if (check.kind === 'command') {
    if (check.testsDir) cpSync(check.testsDir, context.workspace, { recursive: true, force: true });
    const result = await runSandboxed({
      command: check.command,
      mounts: [{ source: context.workspace, writable: true }],
      cwd: context.workspace,
      env: checkEnv(context.workspace, check.env),
      timeoutMs: context.timeoutMs,
    });
    return outcome(result, result.exitCode === 0 ? 1 : 0);
  }
  if (check.kind === 'harbor') {
    const logs = join(context.scratch, 'logs');
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(join(logs, 'verifier'), { recursive: true });
    mkdirSync(join(logs, 'agent'), { recursive: true });
    const result = await runSandboxed({
      command: 'bash /tests/test.sh',
      mounts: [
        { source: context.workspace, target: check.workdir, writable: true },
        { source: check.testsDir, target: '/tests', writable: false },
        { source: logs, target: '/logs', writable: true },
      ],
      cwd: check.workdir,
      env: checkEnv(check.workdir, check.env),
      timeoutMs: context.timeoutMs,
    });
    const { reward, error } = readReward(logs);
    return outcome(result, reward ?? 0, error ? { error: result.timedOut ? 'the check timed out' : error } : {});
  }
  // SWE-bench
  if (check.testPatch) {
    const problem = await applyPatch(context.workspace, check.testPatch, context.baseCommit);
    if (problem) return { reward: 0, pass: false, exitCode: null, timedOut: false, output: '', durationMs: performance.now() - startedAt, error: `test_patch: ${problem}` };
  }
  const groups: [string, string[]][] = [['fail_to_pass', check.failToPass], ['pass_to_pass', check.passToPass]];
  const details: Record<string, unknown> = {};
  let last: SandboxedResult | undefined;
  let output = '';
  let passed = true;
  for (const [name, tests] of groups) {
    if (tests.length === 0) continue;
    last = await runSandboxed({
      command: withTests(check.testCommand, tests),
      mounts: [{ source: context.workspace, writable: true }],
      cwd: context.workspace,
      env: checkEnv(context.workspace),
      timeoutMs: context.timeoutMs,
    });
    details[name] = last.exitCode === 0;
    output += `== ${name}\n${last.output}\n`;
    if (last.exitCode !== 0) passed = false;
  }
  const timedOut = Boolean(last?.timedOut);
  return { reward: passed ? 1 : 0, pass: passed, exitCode: last?.exitCode ?? 0, timedOut, output: output.slice(-8192), durationMs: performance.now() - startedAt, details };
}

/** Applies a task's reference solution to a workspace (to prove the check can pass). */
export async function applySolution(task: EvalTask, solution: SolutionSpec, workspace: string, baseCommit: string, timeoutMs = 120_000): Promise<void> {
  if (solution.kind === 'overlay') {
    cpSync(solution.dir, workspace, { recursive: true, force: true });
    return;
  }
  if (solution.kind === 'patch') {
    const problem = await applyPatch(workspace, solution.patch, baseCommit);
    if (problem) throw new Error(`${task.id}: the gold patch: ${problem}`);
    return;
  }
  const layout = workspaceLayout(task, workspace);
  const folder = join(solution.file, '..');
  const result = await runSandboxed({
    command: 'bash /solution/solve.sh',
    mounts: [...layout.mounts, { source: folder, target: '/solution', writable: false }],
    cwd: layout.cwd,
    env: checkEnv(layout.cwd),
    timeoutMs,
  });
  if (result.exitCode !== 0) throw new Error(`${task.id}: solution/solve.sh exited ${result.exitCode}:\n${result.output}`);
}
