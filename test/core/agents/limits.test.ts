// Limits and permissions of sub-agents through the real CLI: depth and concurrency limits (errors
// name the limit), a role asking for a wider sandbox (capped, with a warning), a model that does
// not exist (an error to the model, no substitute), and a child thread resumed on its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { ISSUE_CONFIG } from '../../support/agents-config.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  mock.setModelsAnswer(200, { object: 'list', data: [{ id: ROOT_MODEL, object: 'model' }, { id: CHILD_MODEL, object: 'model' }] });
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

function setup(config = ISSUE_CONFIG): { repo: string; home: string } {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url, { config });
  dirs.push(repo, home);
  return { repo, home };
}

const spawn = (id: string, task: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'spawn_agent',
  arguments: { task_name: task, agent_type: 'implementer', fork_turns: 'none', message: `do ${task}`, ...extra },
});
const wait = (id: string) => ({ id, name: 'wait_agent', arguments: { timeout_ms: 60000 } });

function exec(repo: string, home: string, prompt: string, extra: string[] = []) {
  return runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', ...extra, prompt], { cwd: repo, home });
}

test('a child cannot spawn beyond agents.max_depth; the error names the limit', async () => {
  const { repo, home } = setup();
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'outer')] }, { toolCalls: [wait('call_2')] }, { text: 'root done' }],
    [CHILD_MODEL]: [{ toolCalls: [spawn('call_c1', 'inner')] }, { text: 'could not delegate' }],
  });
  const run = await exec(repo, home, 'go');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const refusal = inputTexts(seen[CHILD_MODEL]![1]!).at(-1)!;
  expect(refusal).toContain('agents.max_depth = 1');
  expect(refusal).toContain('/root/outer');
});

test('spawning past agents.max_concurrent_threads_per_session (alias max_threads) is refused, naming the limit', async () => {
  const { repo, home } = setup(ISSUE_CONFIG.replace('enabled = true', 'enabled = true\nmax_threads = 1'));
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'first'), spawn('call_2', 'second')] }, { toolCalls: [wait('call_3')] }, { text: 'root done' }],
    [CHILD_MODEL]: [{ text: 'first done' }],
  });
  const run = await exec(repo, home, 'go');
  expect(run.code).toBe(0);
  const outputs = inputTexts(seen[ROOT_MODEL]![1]!);
  expect(outputs.at(-2)).toBe(JSON.stringify({ task_name: '/root/first', nickname: 'first' }));
  expect(outputs.at(-1)).toContain('agents.max_concurrent_threads_per_session = 1');
  expect(seen[CHILD_MODEL]).toHaveLength(1);
});

test('a role asking for a wider sandbox than its parent gets the parent\'s, with a warning', async () => {
  const { repo, home } = setup(ISSUE_CONFIG + 'sandbox_mode = "danger-full-access"\n');
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'wide')] }, { toolCalls: [wait('call_2')] }, { text: 'root done' }],
    [CHILD_MODEL]: [{ toolCalls: [{ id: 'call_w', name: 'exec_command', arguments: { cmd: 'touch ../outside-the-workspace.txt' } }] }, { text: 'tried' }],
  });
  // Temp folders are writable in workspace-write unless excluded: exclude them, so that the
  // folder next to the workspace is outside every writable root.
  const run = await exec(repo, home, 'go', ['-c', 'sandbox_workspace_write.exclude_slash_tmp=true', '-c', 'sandbox_workspace_write.exclude_tmpdir_env_var=true']);
  expect(run.code).toBe(0);
  const events = jsonLines(run.stdout);
  const warnings = events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'error').map((e) => (e['item'] as { message: string }).message);
  expect(warnings).toEqual([expect.stringMatching(/agent \/root\/wide \(role implementer.*asks for sandbox_mode = "danger-full-access", broader than its parent's "workspace-write"; the child runs with "workspace-write"/)]);
  expect(inputTexts(seen[CHILD_MODEL]![0]!).join('\n')).toContain('<sandbox_mode>workspace-write</sandbox_mode>');
  // The sandbox held: nothing was written outside the workspace.
  expect(() => readFileSync(join(repo, '..', 'outside-the-workspace.txt'))).toThrow();
});

test('a model that does not exist is an error returned to the model, never a substitute', async () => {
  const { repo, home } = setup();
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'typo', { model: 'gpt-5.6-sool' })] }, { text: 'noted' }],
  });
  const run = await exec(repo, home, 'go');
  expect(run.code).toBe(0);
  const error = inputTexts(seen[ROOT_MODEL]![1]!).at(-1)!;
  expect(error).toContain('model "gpt-5.6-sool" does not exist at provider mock');
  expect(error).toContain(`it offers: ${ROOT_MODEL}, ${CHILD_MODEL}`);
  expect(mock.requests.filter((r) => r.body?.model === 'gpt-5.6-sool')).toHaveLength(0);
});

test('an unknown agent_type is an error that lists the configured roles', async () => {
  const { repo, home } = setup();
  const seen = scriptByModel(mock, { [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'x', { agent_type: 'reviewer' })] }, { text: 'noted' }] });
  const run = await exec(repo, home, 'go');
  expect(run.code).toBe(0);
  expect(inputTexts(seen[ROOT_MODEL]![1]!).at(-1)).toContain('unknown agent type "reviewer": the configured roles are "implementer"');
});

test('a child thread is a real thread: recorded with its parent, listed under it, resumable on its own', async () => {
  const { repo, home } = setup();
  scriptByModel(mock, {
    [ROOT_MODEL]: [{ toolCalls: [spawn('call_1', 'implement_fix')] }, { toolCalls: [wait('call_2')] }, { text: 'root done' }],
    [CHILD_MODEL]: [{ text: 'child first answer' }],
  });
  const run = await exec(repo, home, 'go');
  expect(run.code).toBe(0);
  const events = jsonLines(run.stdout);
  const rootId = events[0]!['thread_id'] as string;
  const collab = events.find((e) => e['type'] === 'item.completed' && (e['item'] as { type?: string } | undefined)?.type === 'collab_agent_tool_call')!['item'] as { receiver_thread_ids: string[] };
  const childId = collab.receiver_thread_ids[0]!;

  const listed = await runRig(['sessions', 'list', '--json'], { cwd: repo, home });
  expect(listed.code).toBe(0);
  const rows = JSON.parse(listed.stdout) as { id: string; parent_thread_id: string | null; agent_path: string | null; agent_role: string | null }[];
  expect(rows.find((r) => r.id === childId)).toMatchObject({ parent_thread_id: rootId, agent_path: '/root/implement_fix', agent_role: 'implementer' });
  expect(rows.find((r) => r.id === rootId)).toMatchObject({ parent_thread_id: null });
  const human = await runRig(['sessions', 'list'], { cwd: repo, home });
  const lines = human.stdout.split('\n');
  const parentLine = lines.findIndex((line) => line.startsWith(rootId));
  expect(parentLine).toBeGreaterThan(0);
  expect(lines[parentLine + 1]).toMatch(new RegExp(`^└ ${childId} .*/root/implement_fix \\(implementer\\): do implement_fix`));

  const seen = scriptByModel(mock, { [CHILD_MODEL]: [{ text: 'child second answer' }] });
  const resumed = await runRig(['exec', '--json', 'resume', childId, 'one more thing'], { cwd: repo, home });
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(jsonLines(resumed.stdout)[0]).toEqual({ type: 'thread.started', thread_id: childId });
  const texts = inputTexts(seen[CHILD_MODEL]![0]!);
  expect(texts).toContain('do implement_fix');
  expect(texts).toContain('child first answer');
  expect(texts.at(-1)).toBe('one more thing');
  expect(seen[CHILD_MODEL]![0]!.body.reasoning.effort).toBe('medium');
});
