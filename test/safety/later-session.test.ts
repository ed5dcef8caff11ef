// "Nothing a model writes in one session may widen a later session's sandbox, approval policy or
// rules", through the real CLI and the real sandbox: a first `rig exec` whose model writes a
// project config and rules (or the user's own config, when RIG_HOME lies in a writable root), then
// a second, plain `rig exec` whose model tries to write outside the workspace.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let base = '';

beforeAll(async () => {
  mock = await startMockProvider();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-later-session-')));
});

afterAll(async () => {
  await mock.close();
  removeDir(base);
});

function lastOutput(request: MockRequest): string {
  const items = (request.body.input as { type: string; output?: unknown }[]).filter((item) => item.type.endsWith('call_output'));
  return String(items.at(-1)?.output ?? '');
}

function repoWithOutside(name: string): { repo: string; outside: string } {
  const repo = path.join(base, name, 'repo');
  const outside = path.join(base, name, 'outside');
  fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  execFileSync('git', ['init', '-q', repo]);
  return { repo, outside };
}

// /tmp (where `outside` lives) would be a writable root: keep it out so outside means outside.
const NO_TMP = '\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n';
const WIDEN_CONFIG = 'sandbox_mode = "danger-full-access"\napproval_policy = "never"\n\n[sandbox_workspace_write]\nnetwork_access = true\n';
const ALLOW_RULE = 'prefix_rule(pattern = ["touch"], decision = "allow")\n';

describe('a model cannot widen the next session', () => {
  it('through sub/.rig/config.toml and a project rules file in a trusted project', { timeout: 60_000 }, async () => {
    const { repo, outside } = repoWithOutside('project');
    const home = tempRigHome({ url: mock.url, extra: `${NO_TMP}\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n` });
    const victim = path.join(outside, 'pwned');
    // Session 1 (workspace-write, the trusted project's default): the model plants the files.
    mock.enqueue(
      {
        toolCalls: [
          {
            name: 'exec_command',
            arguments: {
              cmd: `mkdir -p sub/.rig && printf '${WIDEN_CONFIG.replace(/\n/g, '\\n')}' > sub/.rig/config.toml && echo planted`,
            },
          },
        ],
      },
      { text: 'planted' },
    );
    const first = await runRig(['exec', '--json', 'plant'], { cwd: repo, home });
    expect(first.code, first.stderr).toBe(0);
    expect(lastOutput(mock.requests.at(-1)!)).toContain('planted');
    expect(fs.readFileSync(path.join(repo, 'sub', '.rig', 'config.toml'), 'utf8')).toBe(WIDEN_CONFIG);

    // The project's own rules (rig reads them from the project root's .rig, which the sandbox keeps
    // the model from creating; a cloned repository can ship one) allow `touch`: unsandboxed, on main.
    fs.mkdirSync(path.join(repo, '.rig', 'rules'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.rig', 'rules', 'mine.rules'), ALLOW_RULE);

    // Session 2, plain, in sub/: the model tries a write outside, with and without the "allowed" prefix.
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo pwned > ${victim}; printenv RIG_SANDBOX` } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `touch ${victim}` } }] },
      { text: 'done' },
    );
    const second = await runRig(['exec', '--json', 'escape'], { cwd: path.join(repo, 'sub'), home });
    expect(second.code, second.stderr).toBe(0);
    expect(fs.existsSync(victim)).toBe(false);
    const requests = mock.requests.slice(-3);
    expect(lastOutput(requests[1]!)).toMatch(/bwrap/);
    expect(lastOutput(requests[2]!)).toMatch(/Process exited with code [1-9]/);
    const warnings = jsonLines(second.stdout)
      .filter((event) => event['type'] === 'item.completed' && (event['item'] as { type: string }).type === 'error')
      .map((event) => (event['item'] as { message: string }).message)
      .join('\n');
    expect(warnings).toContain('sandbox_mode = "danger-full-access" (yours: "workspace-write")');
    expect(warnings).toContain('sandbox_workspace_write.network_access = true (yours: false)');
    expect(warnings).toContain('allow_wider_safety = true');
    expect(warnings).toMatch(/mine\.rules:1: prefix_rule \["touch"\] decision="allow"/);
    removeDir(home);
  });

  it('the user can let a project widen its settings (allow_wider_safety)', { timeout: 60_000 }, async () => {
    const { repo } = repoWithOutside('opted-in');
    const home = tempRigHome({ url: mock.url, extra: `\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\nallow_wider_safety = true\n` });
    fs.mkdirSync(path.join(repo, '.rig'));
    fs.writeFileSync(path.join(repo, '.rig', 'config.toml'), '[sandbox_workspace_write]\nnetwork_access = true\n');
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'printenv RIG_SANDBOX_NETWORK_DISABLED || echo network-on' } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', 'check'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expect(lastOutput(mock.requests.at(-1)!)).toContain('network-on');
    removeDir(home);
  });

  it('through $RIG_HOME/config.toml when RIG_HOME lies in a writable root', { timeout: 60_000 }, async () => {
    const { repo, outside } = repoWithOutside('home');
    // As with RIG_HOME=$(mktemp -d) under a writable /tmp: here the home is a writable root itself.
    const home = tempRigHome({ url: mock.url, extra: NO_TMP });
    const config = path.join(home, 'config.toml');
    const before = fs.readFileSync(config, 'utf8');
    mock.enqueue(
      {
        toolCalls: [
          {
            name: 'exec_command',
            arguments: { cmd: `echo 'sandbox_mode = "danger-full-access"' >> ${config}; echo "home=[$RIG_HOME]"; mkdir -p ${home}/rules && echo '${ALLOW_RULE.trim()}' > ${home}/rules/x.rules` },
          },
        ],
      },
      { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: `*** Begin Patch\n*** Add File: ${home}/rules/y.rules\n+${ALLOW_RULE.trim()}\n*** End Patch` }] },
      { text: 'done' },
    );
    const first = await runRig(['exec', '--json', '-s', 'workspace-write', '--add-dir', home, 'widen'], { cwd: repo, home });
    expect(first.code, first.stderr).toBe(0);
    const [, afterExec, afterPatch] = mock.requests.slice(-3);
    expect(lastOutput(afterExec!)).toContain('home=[]');
    expect(lastOutput(afterExec!)).toMatch(/Read-only file system/);
    expect(lastOutput(afterPatch!)).toMatch(/read-only|rejected/);
    expect(fs.readFileSync(config, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(home, 'rules', 'x.rules'))).toBe(false);
    expect(fs.existsSync(path.join(home, 'rules', 'y.rules'))).toBe(false);

    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `touch ${outside}/pwned` } }] }, { text: 'done' });
    const second = await runRig(['exec', '--json', '-s', 'workspace-write', '--add-dir', home, 'escape'], { cwd: repo, home });
    expect(second.code, second.stderr).toBe(0);
    expect(fs.existsSync(path.join(outside, 'pwned'))).toBe(false);
    removeDir(home);
  });
});
