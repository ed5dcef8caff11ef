// The safety commands: `rig sandbox`, `rig doctor`, `rig execpolicy check`, driven through their
// commander registrations (as `rig` parses them) and their front ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxCommand } from '../../src/frontends/safety/sandbox.js';
import { runDoctor } from '../../src/frontends/safety/doctor.js';
import { runExecPolicyCheckCommand } from '../../src/frontends/safety/execpolicy.js';
import { registerSandbox } from '../../src/cli/commands/sandbox.js';
import { registerExecpolicy } from '../../src/cli/commands/execpolicy.js';
import { registerDoctor } from '../../src/cli/commands/doctor.js';
import { writeRigHome } from './scripted-session.js';

let base = '';
let home = '';
let ws = '';
let outside = '';
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-safety-cmds-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  writeRigHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
  env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-0123456789abcdef', OPENAI_API_KEY: 'sk-openai-secret' };
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const sandbox = (command: string[], extra: Partial<Parameters<typeof runSandboxCommand>[0]> = {}) => {
  const errors: string[] = [];
  return runSandboxCommand({ command, env, cwd: ws, stderr: (text) => errors.push(text), ...extra }).then((code) => ({ code, errors: errors.join('') }));
};

describe('rig sandbox', () => {
  it('is read-only by default: a write in the workspace fails and leaves nothing', async () => {
    const result = await sandbox(['sh', '-c', 'echo x > made.txt']);
    expect(result.code).not.toBe(0);
    expect(fs.existsSync(path.join(ws, 'made.txt'))).toBe(false);
  });

  it('--full-auto and -s workspace-write let the workspace be written, not outside', async () => {
    expect((await sandbox(['sh', '-c', 'echo x > made.txt'], { fullAuto: true })).code).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8')).toBe('x\n');
    expect((await sandbox(['sh', '-c', `echo x > '${outside}/out.txt'`], { sandbox: 'workspace-write' })).code).not.toBe(0);
    expect(fs.existsSync(path.join(outside, 'out.txt'))).toBe(false);
  });

  it('--add-dir makes another directory writable', async () => {
    const result = await sandbox(['sh', '-c', `echo x > '${outside}/added.txt'`], { fullAuto: true, addDir: [outside] });
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(outside, 'added.txt'))).toBe(true);
  });

  it("exits with the command's status, and 128+N for a signal", async () => {
    expect((await sandbox(['sh', '-c', 'exit 7'])).code).toBe(7);
    expect((await sandbox(['sh', '-c', 'kill -TERM $$'])).code).toBe(128 + 15);
  });

  it('the command gets the agent environment: provider keys removed, sandbox markers set', async () => {
    const script = 'test -z "$OPENAI_API_KEY" && test -z "$MOCK_API_KEY" && test "$RIG_SANDBOX" = bwrap && test "$RIG_SANDBOX_NETWORK_DISABLED" = 1';
    expect((await sandbox(['sh', '-c', script])).code).toBe(0);
  });

  it('-c turns the network on as config would', async () => {
    const script = 'test -z "$RIG_SANDBOX_NETWORK_DISABLED"';
    expect((await sandbox(['sh', '-c', script], { config: ['sandbox_workspace_write.network_access=true'] })).code).toBe(0);
  });

  it('explains usage mistakes', async () => {
    expect(await sandbox([])).toEqual({ code: 2, errors: expect.stringContaining('no command given') });
    expect(await sandbox(['true'], { sandbox: 'wide-open' })).toEqual({ code: 2, errors: expect.stringContaining('unknown sandbox mode "wide-open"') });
    expect(await sandbox(['true'], { sandbox: 'read-only', fullAuto: true })).toEqual({ code: 2, errors: expect.stringContaining('choose one') });
    expect(await sandbox(['definitely-not-a-command-xyz'], { sandbox: 'danger-full-access' })).toEqual({ code: 127, errors: expect.stringContaining('command not found') });
  });
});

describe('rig doctor', () => {
  const doctor = async (extraEnv: NodeJS.ProcessEnv = {}, options: Partial<Parameters<typeof runDoctor>[0]> = {}) => {
    let text = '';
    // offline: the provider here is a port nothing answers on; reachability has its own tests.
    const code = await runDoctor({ env: { ...env, ...extraEnv }, cwd: ws, stdout: (chunk) => (text += chunk), offline: true, ...options });
    return { code, text };
  };

  it('reports home, config, provider, key presence (never the key), harness, node and the sandbox', async () => {
    const { code, text } = await doctor();
    expect(code).toBe(0);
    expect(text).toContain(`RIG_HOME: ${home}`);
    expect(text).toContain(`config: ${path.join(home, 'config.toml')} (valid)`);
    expect(text).toMatch(/provider: mock \(Mock\) at http:\/\/127\.0\.0\.1:9\/v1, wire responses; MOCK_API_KEY is set/);
    expect(text).toContain('model: mock-model');
    expect(text).toMatch(/harness: \S+ \(/);
    expect(text).toContain(`node ${process.version}`);
    expect(text).toMatch(/sandbox: ok — bubblewrap/);
    expect(text).not.toContain('sk-mock-0123456789abcdef');
  });

  it('flags a missing key and an unavailable sandbox as problems', async () => {
    const diagnosis = () => ({ ok: false, reason: 'bwrap was not found on PATH', fix: 'install bubblewrap' }) as never;
    const { code, text } = await doctor({ MOCK_API_KEY: '' }, { diagnosis });
    expect(code).toBe(1);
    expect(text).toContain('MOCK_API_KEY is NOT set');
    expect(text).toContain('PROBLEM: export MOCK_API_KEY');
    expect(text).toContain('sandbox: UNAVAILABLE');
    expect(text).toContain('why: bwrap was not found on PATH');
  });

  it('names an invalid config file and keeps going', async () => {
    const badHome = path.join(base, 'bad-home');
    fs.mkdirSync(badHome);
    fs.writeFileSync(path.join(badHome, 'config.toml'), 'model = [unclosed\n');
    const { code, text } = await doctor({ RIG_HOME: badHome });
    expect(code).toBe(1);
    expect(text).toMatch(/PROBLEM: config is invalid: .*config\.toml/);
    expect(text).toMatch(/sandbox: /);
  });
});

describe('rig execpolicy check', () => {
  let rules = '';
  beforeAll(() => {
    rules = path.join(base, 'team.rules');
    fs.writeFileSync(rules, 'prefix_rule(pattern=["git", "push"], decision="prompt", justification="talks to the remote")\n');
  });

  const check = async (input: Partial<Parameters<typeof runExecPolicyCheckCommand>[0]>) => {
    let out = '';
    let err = '';
    const code = await runExecPolicyCheckCommand({ rules: [rules], command: [], stdout: (t) => (out += t), stderr: (t) => (err += t), ...input });
    return { code, out, err };
  };

  it('prints the decision and the matching rule as JSON', async () => {
    const { code, out } = await check({ command: ['git', 'push', 'origin'] });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      matchedRules: [{ prefixRuleMatch: { matchedPrefix: ['git', 'push'], decision: 'prompt', justification: 'talks to the remote' } }],
      decision: 'prompt',
    });
    expect((await check({ command: ['git', 'push'], pretty: true })).out).toContain('\n  "matchedRules"');
    expect(JSON.parse((await check({ command: ['ls'] })).out)).toEqual({ matchedRules: [] });
  });

  it('reports a broken rules file with its location', async () => {
    const broken = path.join(base, 'broken.rules');
    fs.writeFileSync(broken, 'prefix_rule(pattern=["git"], decision="sometimes")\n');
    const { code, err } = await check({ rules: [broken], command: ['git'] });
    expect(code).toBe(1);
    expect(err).toContain(`${broken}:1:`);
  });
});

describe('command-line parsing', () => {
  let saved: number | string | undefined;
  beforeAll(() => {
    saved = process.exitCode;
  });
  afterEach(() => {
    process.exitCode = saved;
  });

  const program = () => {
    const root = new Command('rig').enablePositionalOptions().exitOverride();
    registerSandbox(root);
    registerExecpolicy(root);
    registerDoctor(root);
    return root;
  };

  it('rig sandbox passes everything after -- to the command and sets the exit code', async () => {
    const cwd = process.cwd();
    const savedHome = process.env['RIG_HOME'];
    // The registered action reads process.env: keep it off the real home.
    process.env['RIG_HOME'] = home;
    process.chdir(ws);
    try {
      await program().parseAsync(['sandbox', '-s', 'read-only', '--', 'sh', '-c', 'exit 5'], { from: 'user' });
      expect(process.exitCode).toBe(5);
      await program().parseAsync(['sandbox', 'sh', '-c', 'exit 3'], { from: 'user' });
      expect(process.exitCode).toBe(3);
    } finally {
      process.chdir(cwd);
      if (savedHome === undefined) delete process.env['RIG_HOME'];
      else process.env['RIG_HOME'] = savedHome;
    }
  });

  it('rig execpolicy check needs --rules', async () => {
    await expect(program().parseAsync(['execpolicy', 'check', '--', 'ls'], { from: 'user' })).rejects.toThrow(/--rules/);
  });
});
