// `rig harness capture` and `rig harness diff` through the real CLI with the fake agent of
// test/fixtures/fake-agent (it reads the knobs Claude Code, Qwen Code and Codex read), for the
// originals that are not installable here. Captures go to temp dirs only.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockProvider } from '../support/mock-provider/index.js';
import { REPO_ROOT, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { normalizeBody } from './normalize.js';

const FAKE = join(REPO_ROOT, 'test', 'fixtures', 'fake-agent', 'fake-agent.mjs');
const dirs: string[] = [];
const temp = (prefix: string): string => {
  const dir = realpathSync(tempDir(prefix));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function capture(home: string, ...args: string[]) {
  return runRig(['harness', 'capture', ...args], { cwd: home, home });
}

describe('rig harness capture with a fake original', () => {
  it('claude-code: records the first request with tools, binds its tools and omits what rig cannot send', async () => {
    const home = temp('cap-home');
    const run = await capture(home, 'claude-code', '--bin', FAKE, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as { tools: string[]; wires: string[]; version: string; omitted: { what: string; reason: string }[] };
    expect(summary).toMatchObject({ wires: ['messages'], version: '9.9.9', tools: ['Bash', 'Read'] });
    expect(summary.omitted.map((item) => item.what)).toEqual(
      expect.arrayContaining(['tool FakeOnly', 'messages: body field metadata', 'messages: headers x-fake-client']),
    );
    const prompt = readFileSync(join(home, 'harnesses', 'claude-code.prompt.md'), 'utf8');
    // The workspace and date became slots; the original saw no network interface but loopback.
    expect(prompt).toBe('You are the fake agent (claude).\nWorking directory: {{cwd}}\nToday: {{date}}\nNetwork interfaces: lo');
    const profile = JSON.parse(readFileSync(join(home, 'harnesses', 'claude-code.json'), 'utf8')) as Record<string, any>;
    expect(profile['tools'].filter((tool: any) => (tool.exposure ?? 'advertised') === 'advertised').map((tool: any) => [tool.name, tool.capability])).toEqual([
      ['Bash', 'shell.bash'],
      ['Read', 'fs.read'],
    ]);
    expect(profile['request']['startup_context']).toEqual({ parts: ['<system-reminder>Fake context for the prompt.</system-reminder>'], placement: 'first-user-message' });
    expect(profile['request']['by_wire']['messages']).toMatchObject({ max_tokens: 4096, extra_body: { thinking: { type: 'enabled', budget_tokens: 1024 } } });
    // The title request without tools came first and is not the one taken.
    const stored = JSON.parse(readFileSync(join(home, 'harnesses', 'claude-code.capture', 'messages.request.json'), 'utf8')) as { body: Record<string, unknown> };
    expect(Array.isArray(stored.body['tools'])).toBe(true);
  });

  it('claude-code: rig exec then sends the captured request, less what it omits', async () => {
    const mock = await startMockProvider();
    const home = realpathSync(tempRigHome({ url: mock.url, wire: 'messages', model: 'fake-claude-default' }));
    dirs.push(home);
    try {
      expect((await capture(home, 'claude', '--bin', FAKE)).code).toBe(0);
      const stored = JSON.parse(readFileSync(join(home, 'harnesses', 'claude-code.capture', 'messages.request.json'), 'utf8')) as {
        body: Record<string, unknown>;
        workspace: string;
        home: string;
        prompt: string;
      };
      const workspace = temp('cap-ws');
      execFileSync('git', ['init', '-q', workspace]);
      mock.enqueue({ text: 'ready' });
      const run = await runRig(['--harness', 'claude-code', 'exec', '--json', '-s', 'read-only', stored.prompt], { cwd: workspace, home, env: { TZ: 'UTC' } });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const now = new Date();
      const ours = normalizeBody(mock.requests[0]!.body, { workspace, home, tmp: tmpdir(), now }) as Record<string, unknown>;
      const theirs = normalizeBody(stored.body, { workspace: stored.workspace, home: stored.home, tmp: join(stored.home, 'tmp'), now }) as Record<string, any>;
      // Everything but the omitted: the identity field and the tool rig has no capability for.
      const { metadata: _m, ...rest } = theirs;
      expect(ours).toEqual({ ...rest, tools: theirs['tools'].filter((tool: { name: string }) => tool.name !== 'FakeOnly') });
    } finally {
      await mock.close();
    }
  });

  it('qwen-code on one wire and codex as native: each original is pointed at the recorder by its own knobs', async () => {
    const home = temp('cap-home');
    const qwen = await capture(home, 'qwen-code', '--bin', FAKE, '--wire', 'chat', '--json');
    expect(qwen.stderr).toBe('');
    expect(JSON.parse(qwen.stdout)).toMatchObject({ id: 'qwen-code', wires: ['chat'], tools: ['run_shell_command', 'read_file'] });
    const qwenProfile = JSON.parse(readFileSync(join(home, 'harnesses', 'qwen-code.json'), 'utf8')) as Record<string, any>;
    expect(qwenProfile['request']['by_wire']['chat']).toMatchObject({ max_tokens: 8000, wire_shape: { user_content: 'parts', tool_choice: null, stream_usage: true } });
    const codex = await capture(home, 'codex', '--bin', FAKE, '--json');
    expect(codex.stderr).toBe('');
    expect(JSON.parse(codex.stdout)).toMatchObject({ id: 'native', wires: ['responses'], tools: ['exec_command'] });
    const native = JSON.parse(readFileSync(join(home, 'harnesses', 'native.json'), 'utf8')) as Record<string, any>;
    expect(native['request']['environment_context']).toBe('keep');
    expect(native['request']['by_wire']['responses']).toMatchObject({ parallel_tool_calls: true });
    expect(native['capture']['omitted']).toContainEqual(expect.objectContaining({ what: 'responses: body field client_metadata' }));
  });

  it('refuses to overwrite a capture without --refresh, and replaces it with --refresh', async () => {
    const home = temp('cap-home');
    expect((await capture(home, 'claude-code', '--bin', FAKE)).code).toBe(0);
    const again = await capture(home, 'claude-code', '--bin', FAKE);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /claude-code\.json already holds a capture \(version 9\.9\.9, \d{4}-\d\d-\d\d\); the installed original is the same version; pass --refresh to capture again/,
    );
    const refreshed = await capture(home, 'claude-code', '--bin', FAKE, '--refresh');
    expect(refreshed.stderr).toBe('');
    expect(refreshed.code).toBe(0);
  });

  it('says what is wrong with an unknown agent or a missing original', async () => {
    const home = temp('cap-home');
    const unknown = await capture(home, 'nosuch');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no capture recipe for "nosuch"; rig knows how to capture: pi (pi), opencode (opencode), claude-code (claude)');
    const missing = await runRig(['harness', 'capture', 'claude-code'], { cwd: home, home, env: { PATH: '/nonexistent' } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("claude is not on PATH: install claude-code's original, or pass --bin PATH");
    expect(existsSync(join(home, 'harnesses', 'claude-code.json'))).toBe(false);
  });
});

describe('rig harness diff', () => {
  it('shows what differs between the built-in profile and the capture: fields, tools, schemas, prompt size', async () => {
    const home = temp('diff-home');
    expect((await capture(home, 'claude-code', '--bin', FAKE)).code).toBe(0);
    const text = await runRig(['harness', 'diff', 'claude-code'], { cwd: home, home });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('# claude-code on messages (model fake-claude-default): built-in vs captured');
    expect(text.stdout).toMatch(/system prompt: \d+ bytes built-in, \d+ bytes captured/);
    const json = await runRig(['harness', 'diff', 'claude-code', '--json'], { cwd: home, home });
    const [diff] = JSON.parse(json.stdout) as { wire: string; prompt_bytes: { builtin: number; captured: number }; differences: { at: string; ours: unknown; theirs: unknown }[] }[];
    const byAt = new Map(diff!.differences.map((difference) => [difference.at, difference]));
    expect(diff!.prompt_bytes.captured).toBe(Buffer.byteLength(readFileSync(join(home, 'harnesses', 'claude-code.capture', 'messages.request.json'), 'utf8').match(/"text": "(You are the fake agent[^"]*)"/)![1]!.replace(/\\n/g, '\n')));
    expect(byAt.get('settings.max_tokens')).toMatchObject({ ours: 32000, theirs: 4096 });
    expect(byAt.get('present.metadata')).toMatchObject({ ours: false, theirs: true });
    expect((byAt.get('tools.names')?.theirs as string[])).toEqual(['Bash', 'Read', 'FakeOnly']);
    expect(byAt.has('tools.Bash.parameters')).toBe(true);
  });

  it('without a capture says how to make one', async () => {
    const home = temp('diff-home');
    const run = await runRig(['harness', 'diff', 'pi'], { cwd: home, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no capture of pi in');
    expect(run.stderr).toContain('run `rig harness capture pi` first');
  });
});
