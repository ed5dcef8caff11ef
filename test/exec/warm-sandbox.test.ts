// Sandboxes started ahead of their command (src/exec/warm-sandbox.ts), through the process layer
// with the real bubblewrap: a command run in a copy sees what it would in a sandbox of its own,
// copies are used only for the same set-up, stale ones are thrown away, and what cannot be passed
// through exactly gets a fresh sandbox.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type RunOptions } from '../../src/exec/spawn.js';
import { resolveSandboxPolicy, wrapCommand, type SandboxPolicy } from '../../src/exec/sandbox/index.js';
import { channel } from 'node:diagnostics_channel';
import { discardWarmSandboxes, launchScript, startWantedWarmSandboxes, warmSandboxPids, warmSandboxStats } from '../../src/exec/warm-sandbox.js';
import { refillSandboxesWhileWaiting } from '../../src/core/sandbox-refill.js';
import { MODEL_REQUEST_SENT_CHANNEL } from '../../src/model/transport/request-sent.js';
import { groupGone, liveGroupMembers } from './helpers.js';
import { makeScratch, noTmp, type Scratch } from './sandbox/helpers.js';

let s: Scratch;
let ww: SandboxPolicy;
let ro: SandboxPolicy;

const BASH = '/bin/bash';
const wrapFor = (policy: SandboxPolicy): RunOptions['wrap'] => (argv, context) => wrapCommand(policy, argv, context.cwd, 'linux', 'bwrap', { descriptors: true });

function commandEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: s.base, PWD: s.ws, SHLVL: '2', LANG: 'C.UTF-8', ...extra };
}

async function run(script: string, options: { policy?: SandboxPolicy; env?: Record<string, string | undefined>; program?: string; cwd?: string } & Partial<RunOptions> = {}) {
  const { policy = ww, env = commandEnv(), program = BASH, cwd = s.ws, ...rest } = options;
  const before = warmSandboxStats().used;
  const result = await runProcess({ argv: [program, '-c', script], cwd, env, wrap: wrapFor(policy), ...rest });
  // rig starts the copies for the next commands once its next model request has gone out: the
  // first at once, the second on the next turn of the event loop.
  startWantedWarmSandboxes();
  await nextTurn();
  return { ...result, warm: warmSandboxStats().used > before, miss: warmSandboxStats().lastMiss };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Polls until `condition` holds; fails after `timeoutMs` saying what never happened. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Runs `script` in a fresh sandbox, then twice more: the third run is in the copy the second left. */
async function coldThenWarm(script: string, options: Parameters<typeof run>[1] = {}) {
  process.env['RIG_WARM_SANDBOX'] = '0';
  const cold = await run(script, options);
  process.env['RIG_WARM_SANDBOX'] = '1';
  discardWarmSandboxes();
  const first = await run(script, options);
  const warm = await run(script, options);
  return { cold, first, warm };
}

const PROBE = [
  'echo "argv: $0 [$1] [$2]"',
  'echo "pwd: $PWD / $(pwd -P)"',
  'echo "shlvl: $SHLVL"',
  'env | grep -v "^_=" | sort',
  'ls /proc/self/fd | sort -n | tr "\\n" " "; echo',
  'umask; id -u; ulimit -n',
  'echo "stdin: $(wc -c)"',
  'trap -p; echo "pid: $$"',
].join('\n');

beforeAll(() => {
  s = makeScratch('rig-warm-sandbox-');
  fs.mkdirSync(path.join(s.ws, 'sub dir'));
  execFileSync('git', ['init', '-q'], { cwd: s.ws });
  const env = { ...process.env, TMPDIR: s.outside };
  ww = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp, env, rigHome: path.join(s.base, 'home') });
  ro = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, ...noTmp, env, rigHome: path.join(s.base, 'home') });
});
afterEach(() => {
  process.env['RIG_WARM_SANDBOX'] = '1';
});
afterAll(() => {
  discardWarmSandboxes();
  delete process.env['RIG_WARM_SANDBOX'];
  s.remove();
});

describe('a command in a copy started ahead', () => {
  it('sees the argv, directory, environment, descriptors and stdin a sandbox of its own gives it', async () => {
    const tricky = `it's "quoted" $HOME \\ \`tick\` é\nsecond line\t`;
    const env = commandEnv({ TRICKY: tricky, EMPTY: '', BASH_ENV: '/nonexistent/bash-env', RIG_SANDBOX_PROBE: '1' });
    const { cold, first, warm } = await coldThenWarm(`${PROBE}\necho "$TRICKY"`, { env, cwd: path.join(s.ws, 'sub dir') });
    expect(cold.exitCode, cold.output).toBe(0);
    expect(cold.warm).toBe(false);
    expect(first.warm).toBe(false);
    expect(warm.warm, warm.miss).toBe(true);
    // Each sandbox is its own PID namespace: the shell's pid is the same small number in each.
    expect(warm.output).toBe(cold.output);
    expect(cold.output).toContain(`pwd: ${path.join(s.ws, 'sub dir')}`);
    expect(cold.output).toContain('shlvl: 3');
    expect(cold.output).toContain('stdin: 0');
    expect(cold.output).toContain(tricky);
  });

  it('with SHLVL unset, a bash command starts at level 1 as it would from nothing', async () => {
    const { cold, warm } = await coldThenWarm('echo "shlvl: $SHLVL"; env | grep -c ^SHLVL=', { env: commandEnv({ SHLVL: undefined }) });
    expect(warm.warm, warm.miss).toBe(true);
    expect(warm.output).toBe(cold.output);
    expect(cold.output).toBe('shlvl: 1\n1\n');
  });

  it("with a locale that is not installed, only the command's own shell warns, as it would", async () => {
    const env = commandEnv({ LC_ALL: 'xx_NOT.UTF-8', LC_CTYPE: 'UTF-8' });
    const { cold, warm } = await coldThenWarm('echo ran', { env });
    expect(warm.warm, warm.miss).toBe(true);
    expect(warm.output).toBe(cold.output);
    expect(cold.output).toMatch(/^\/bin\/bash: warning: setlocale: LC_ALL: cannot change locale \(xx_NOT.UTF-8\)\nran\n$/);
  });

  it('keeps exit codes, signals, arguments with quotes, and the timeout', async () => {
    await run('true');
    const code = await run('exit 7');
    expect([code.warm, code.exitCode]).toEqual([true, 7]);
    const signal = await run('kill -TERM $$');
    expect([signal.warm, signal.exitCode]).toEqual([true, 143]);
    const timed = await run('echo started; sleep 30', { timeoutMs: 300 });
    expect(timed.warm).toBe(true);
    expect(timed.timedOut).toBe(true);
    expect(timed.output).toBe('started\n');
    const quoted = await run(`printf '%s|' "$0" 'a'"'"'b' "c d"`);
    expect(quoted.warm).toBe(true);
    expect(quoted.output).toBe(`${BASH}|a'b|c d|`);
  });

  it('writes in the workspace land and protected paths stay read-only, as in a fresh sandbox', async () => {
    await run('true');
    const write = await run('echo made > made.txt && touch .git/planted');
    expect(write.warm).toBe(true);
    expect(write.exitCode).not.toBe(0);
    expect(fs.readFileSync(path.join(s.ws, 'made.txt'), 'utf8')).toBe('made\n');
    expect(fs.existsSync(path.join(s.ws, '.git', 'planted'))).toBe(false);
  });
});

describe('a copy is used only for the same sandbox', () => {
  it('not across policies: a read-only command gets a sandbox of its own', async () => {
    await run('true', { policy: ww });
    const r = await run('echo pwned > ro.txt', { policy: ro });
    expect(r.warm).toBe(false);
    expect(r.miss).toBe('no copy of this sandbox was waiting');
    expect(r.exitCode).not.toBe(0);
    expect(fs.existsSync(path.join(s.ws, 'ro.txt'))).toBe(false);
  });

  it('not once a bound path was replaced on the host: the copy still shows the old one', async () => {
    await run('true');
    const git = path.join(s.ws, '.git');
    fs.renameSync(git, path.join(s.base, 'old-git'));
    fs.mkdirSync(git);
    const r = await run('touch .git/planted');
    expect(fs.existsSync(path.join(git, 'planted'))).toBe(false);
    expect(r.exitCode).not.toBe(0);
    expect(r.miss).toBe('a path the waiting copy bound was replaced since it started');
    expect(r.warm).toBe(false);
    fs.rmSync(git, { recursive: true });
    fs.renameSync(path.join(s.base, 'old-git'), git);
  });

  it('not once a protected path appeared: its read-only bind changes the set-up', async () => {
    const fresh = path.join(s.base, 'fresh');
    fs.mkdirSync(fresh);
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: fresh, ...noTmp, env: { ...process.env, TMPDIR: s.outside }, rigHome: path.join(s.base, 'home') });
    const first = await run('git init -q && echo made', { policy, cwd: fresh });
    expect(first.output).toBe('made\n');
    const r = await run('touch .git/planted', { policy, cwd: fresh });
    expect(r.warm).toBe(false);
    expect(r.miss).toBe('no copy of this sandbox was waiting');
    expect(r.exitCode).not.toBe(0);
    expect(fs.existsSync(path.join(fresh, '.git', 'planted'))).toBe(false);
  });
});

describe('what a copy cannot pass through exactly gets a fresh sandbox', () => {
  it.each([
    ['a variable name bash cannot export', () => ({ env: commandEnv({ 'odd-name': 'x' }) }), 'the variable odd-name cannot be passed through bash exactly'],
    ['a variable bash treats as its own', () => ({ env: commandEnv({ BASHOPTS: 'x' }) }), 'the variable BASHOPTS cannot be passed through bash exactly'],
    ['SHLVL unset under a shell that is not bash', () => ({ env: commandEnv({ SHLVL: undefined }), program: '/bin/sh' }), 'SHLVL is unset and the program is not bash'],
    ['SHLVL not a plain number', () => ({ env: commandEnv({ SHLVL: '07' }) }), 'SHLVL="07" is not a plain level bash keeps as given'],
    ['a program not named by an absolute path', () => ({ program: 'bash' }), 'the program is not an absolute path to an executable file'],
  ] as const)('%s', async (_what, options, reason) => {
    await run('true');
    const r = await run('echo ran', options());
    expect(r.warm).toBe(false);
    expect(r.miss).toBe(reason);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toBe('ran\n');
  });

  it('a command that wants stdin', async () => {
    await run('true');
    const r = await run('cat', { input: 'typed\n' });
    expect(r.warm).toBe(false);
    expect(r.output).toBe('typed\n');
  });

  it('RIG_WARM_SANDBOX=0 turns it off', async () => {
    await run('true');
    process.env['RIG_WARM_SANDBOX'] = '0';
    const r = await run('echo ran');
    expect(r.warm).toBe(false);
    expect(r.miss).toBe('turned off (RIG_WARM_SANDBOX=0)');
  });

  it('the script refuses a NUL byte rather than cut the command short', () => {
    expect(launchScript({ argv: [BASH, '-c', 'echo a\0b'], cwd: s.ws, env: {} })).toEqual({ reason: 'an argument holds a NUL byte' });
    expect(launchScript({ argv: [BASH, '-c', 'true'], cwd: path.join(s.ws, 'missing'), env: {} })).toEqual({ reason: 'the working directory is not an existing absolute directory' });
  });
});

describe('when copies start', () => {
  const bare = (script: string) => runProcess({ argv: [BASH, '-c', script], cwd: s.ws, env: commandEnv(), wrap: wrapFor(ww) });

  it('two wait per sandbox, so commands run back to back each find one', async () => {
    discardWarmSandboxes();
    await run('true');
    expect(warmSandboxPids()).toHaveLength(2);
    const started = warmSandboxStats().started;
    const [a, b] = await Promise.all([run('echo a'), run('echo b')]);
    expect([a.warm, b.warm, a.output, b.output]).toEqual([true, true, 'a\n', 'b\n']);
    await nextTurn();
    // Topped up to two again, not one more per command taken.
    expect(warmSandboxPids()).toHaveLength(2);
    expect(warmSandboxStats().started - started).toBe(2);
  });

  it('after a command, when the next model request has gone out', async () => {
    discardWarmSandboxes();
    refillSandboxesWhileWaiting();
    await bare('true');
    expect(warmSandboxPids()).toEqual([]);
    channel(MODEL_REQUEST_SENT_CHANNEL).publish('http://127.0.0.1/v1/responses');
    expect(warmSandboxPids()).toHaveLength(1);
    expect(warmSandboxStats().lastRefill).toBe('a model request went out');
    await nextTurn();
    expect(warmSandboxPids()).toHaveLength(2);
  });

  it('shortly after a command all the same when no model request follows', async () => {
    discardWarmSandboxes();
    await bare('true');
    expect(warmSandboxPids()).toEqual([]);
    await until(() => warmSandboxPids().length === 2, 'two copies without a model request');
    expect(warmSandboxStats().lastRefill).toBe('no model request within 20 ms');
  });

  it('while a command is still running, once it has run a while', async () => {
    discardWarmSandboxes();
    const stop = new AbortController();
    let finished = false;
    const running = runProcess({ argv: [BASH, '-c', 'sleep 30'], cwd: s.ws, env: commandEnv(), wrap: wrapFor(ww), signal: stop.signal }).finally(() => {
      finished = true;
    });
    await until(() => warmSandboxPids().length === 2, 'two copies while the command runs');
    expect(finished).toBe(false);
    expect(warmSandboxStats().lastRefill).toBe('a command was still running after 100 ms');
    stop.abort();
    expect((await running).aborted).toBe(true);
  });
});

describe('idle copies', () => {
  it('are killed when thrown away, with the whole sandbox', async () => {
    await run('true');
    const pids = warmSandboxPids();
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.map((pid) => liveGroupMembers(pid).length > 0)).toEqual(pids.map(() => true));
    discardWarmSandboxes();
    for (const pid of pids) expect(await groupGone(pid)).toBe(true);
  });
});
