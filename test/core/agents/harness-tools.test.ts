// The other harnesses' delegation tools and their companions, in-process against scripted models:
// Kimi's Agent (foreground reply, background + TaskOutput) and AgentSwarm, ZCode's Agent and
// SendMessage, Kimi CLI's Task, Claude Code's ListAgents, Codex's v1 tool set, and the answer a
// delegation tool gives when [agents] is off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { ModelRequest } from '../../../src/model/types.js';
import type { ModelEvent } from '../../../src/protocol/index.js';
import { startTestThread, writeTestHome } from '../../support/engine.js';
import { ScriptedClient, call, callTools, say, type ScriptedStep } from '../../support/scripted-client.js';
import { removeDir, tempDir, tempGitRepo } from '../../support/workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const ROLES = '[agents]\nenabled = true\n[agents.coder]\ndescription = "writes code"\ndeveloper_instructions = "You are the coder."\n';

function setup(extra = ROLES): { home: string; repo: string } {
  const home = tempDir('agents-tools-home');
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  dirs.push(home, repo);
  writeTestHome(home, extra);
  return { home, repo };
}

/** The text of the last tool output the request carries. */
function lastOutput(request: ModelRequest): string {
  const outputs = request.input.filter((item) => item.type === 'function_call_output');
  const output = outputs.at(-1) as { output: unknown } | undefined;
  return typeof output?.output === 'string' ? output.output : JSON.stringify(output?.output);
}

/** A step built from what the previous tool call returned. */
function after(make: (previous: string) => ModelEvent[]): ScriptedStep {
  return async function* (request) {
    yield* make(lastOutput(request));
  };
}

async function run(harness: string, clients: ScriptedClient[], extra?: string) {
  const { home, repo } = setup(extra);
  const t = await startTestThread({ home, cwd: repo, client: (index) => clients[index]!, request: { overrides: { harness, sandbox: 'workspace-write' } } });
  const result = await t.thread.startTurn({ text: 'go' }).done;
  await t.close();
  return { result, t };
}

test("Kimi's Agent waits for the child and replies with its id, type, status and summary", async () => {
  const root = new ScriptedClient([callTools(call('Agent', { prompt: 'write it', description: 'Write it', subagent_type: 'coder' })), after((text) => say(`got: ${text}`))]);
  const child = new ScriptedClient([say('wrote it')]);
  const { result } = await run('kimi-code', [root, child]);
  expect(result.lastAgentMessage).toMatch(/^got: agent_id: [0-9a-f-]{36}\nactual_subagent_type: coder\nstatus: completed\n\n\[summary\]\nwrote it$/);
  expect(JSON.stringify(child.requests[0]!.input)).toContain('You are the coder.');
});

test("Kimi's Agent in the background returns an id at once; TaskOutput on that id waits for the result", async () => {
  const root = new ScriptedClient([
    callTools(call('Agent', { prompt: 'write it', description: 'Write it', run_in_background: true })),
    after((text) => callTools(call('TaskOutput', { task_id: /agentId: (\S+)/.exec(text)![1], block: true, timeout: 30 }))),
    after((text) => say(text)),
  ]);
  const child = new ScriptedClient([say('background result')]);
  const { result } = await run('kimi-code', [root, child]);
  expect(lastOutput(root.requests[1]!)).toMatch(/^Async agent launched successfully\.\nagentId: [0-9a-f-]{36}/);
  expect(result.lastAgentMessage).toContain('<retrieval_status>complete</retrieval_status>');
  expect(result.lastAgentMessage).toContain('<task_type>local_agent</task_type>');
  expect(result.lastAgentMessage).toContain('<output>\nbackground result</output>');
});

test("Kimi's AgentSwarm runs one child per item, one after another, and reports each", async () => {
  const root = new ScriptedClient([
    callTools(call('AgentSwarm', { description: 'Check files', prompt_template: 'check {{item}}', items: ['a.txt', 'b.txt'] })),
    after((text) => say(text)),
  ]);
  const first = new ScriptedClient([say('a is fine')]);
  const second = new ScriptedClient([say('b is fine')]);
  const { result } = await run('kimi-code', [root, first, second]);
  expect(result.lastAgentMessage).toBe(
    '<agent_swarm_result><summary>completed: 2</summary><subagent item="a.txt" outcome="completed">a is fine</subagent><subagent item="b.txt" outcome="completed">b is fine</subagent></agent_swarm_result>',
  );
  expect(JSON.stringify(first.requests[0]!.input)).toContain('check a.txt');
  expect(JSON.stringify(second.requests[0]!.input)).toContain('check b.txt');
});

test("ZCode's Agent replies with the result and agent id; SendMessage gives that agent a new task", async () => {
  const root = new ScriptedClient([
    callTools(call('Agent', { prompt: 'first task', description: 'Helper' })),
    after((text) => callTools(call('SendMessage', { to: /agentId: (\S+)/.exec(text)![1], summary: 'more', message: 'second task' }))),
    after((text) => say(text)),
  ]);
  let secondTask!: (input: string) => void;
  const secondSeen = new Promise<string>((resolve) => (secondTask = resolve));
  const child = new ScriptedClient([
    say('first done'),
    async function* (request) {
      secondTask(JSON.stringify(request.input.at(-1)));
      yield* say('second done');
    },
  ]);
  const { home, repo } = setup();
  const t = await startTestThread({ home, cwd: repo, client: (index) => [root, child][index]!, request: { overrides: { harness: 'zcode', sandbox: 'workspace-write' } } });
  await t.thread.startTurn({ text: 'go' }).done;
  expect(lastOutput(root.requests[1]!)).toMatch(/^first done\n\nagentId: [0-9a-f-]{36} .*\n<usage>total_tokens: \d+\ntool_uses: 0\nduration_ms: \d+<\/usage>$/);
  expect(lastOutput(root.requests[2]!)).toBe('Message sent to /root/helper; it is working on it.');
  expect(await secondSeen).toContain('second task');
  await t.close();
});

test("Kimi CLI's Task hands the prompt to the named sub-agent and returns its answer", async () => {
  const root = new ScriptedClient([callTools(call('Task', { description: 'Do', subagent_name: 'coder', prompt: 'do the thing' })), after((text) => say(text))]);
  const child = new ScriptedClient([say('thing done')]);
  const { result } = await run('kimi-cli', [root, child]);
  expect(result.lastAgentMessage).toBe('thing done');
});

test("Claude Code's ListAgents lists the session's agents with their paths and states", async () => {
  const root = new ScriptedClient([
    callTools(call('Agent', { prompt: 'look', description: 'Looker', subagent_type: 'Explore' })),
    callTools(call('ListAgents', {})),
    after((text) => say(text)),
  ]);
  const child = new ScriptedClient([say('looked')]);
  const { result } = await run('claude-code', [root, child]);
  expect(result.lastAgentMessage).toMatch(/^agents: 1\n- [0-9a-f-]{36} \/root\/looker: completed$/);
});

test("Codex's v1 tools (multi_agent_v2 off): spawn_agent gives an id, wait_agent its final message, close_agent frees it", async () => {
  const root = new ScriptedClient([
    callTools(call('spawn_agent', { message: 'count files' })),
    after((text) => callTools(call('wait_agent', { targets: [JSON.parse(text).agent_id], timeout_ms: 1 }))),
    after((text) => callTools(call('close_agent', { target: Object.keys(JSON.parse(text).status)[0] }))),
    after((text) => say(text)),
  ]);
  const child = new ScriptedClient([say('3 files')]);
  const { result } = await run('native', [root, child], '[agents]\nenabled = true\n');
  const spawned = JSON.parse(lastOutput(root.requests[1]!));
  expect(spawned).toEqual({ agent_id: expect.stringMatching(/^[0-9a-f-]{36}$/), nickname: 'agent' });
  expect(JSON.parse(lastOutput(root.requests[2]!))).toEqual({ status: { [spawned.agent_id]: { completed: '3 files' } }, timed_out: false });
  expect(JSON.parse(result.lastAgentMessage!)).toEqual({ previous_status: { completed: '3 files' } });
  const names = root.requests[0]!.tools!.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['spawn_agent', 'send_input', 'resume_agent', 'wait_agent', 'close_agent']));
  expect(names).not.toContain('followup_task');
});

test('with [agents] off, native profiles offer no agent tools and a harness Agent tool says how to enable them', async () => {
  const root = new ScriptedClient([callTools(call('Agent', { prompt: 'x', description: 'X' })), after((text) => say(text))]);
  const { result } = await run('claude-code', [root], '');
  expect(result.lastAgentMessage).toContain('sub-agents are not enabled in this session. Set `[agents] enabled = true`');
  const native = new ScriptedClient([say('hi')]);
  await run('native', [native], '');
  expect(native.requests[0]!.tools!.map((tool) => tool.name)).not.toContain('spawn_agent');
});

test('a role file in RIG_HOME/agents/ is a role by its file name', async () => {
  const { home, repo } = setup('[agents]\nenabled = true\n');
  mkdirSync(join(home, 'agents'), { recursive: true });
  writeFileSync(join(home, 'agents', 'reviewer.toml'), 'developer_instructions = "Review, do not edit."\n');
  const root = new ScriptedClient([callTools(call('task', { description: 'Review', prompt: 'review a.txt', subagent_type: 'reviewer' })), after((text) => say(text))]);
  const child = new ScriptedClient([say('looks good')]);
  const t = await startTestThread({ home, cwd: repo, client: (index) => [root, child][index]!, request: { overrides: { harness: 'opencode' } } });
  const result = await t.thread.startTurn({ text: 'go' }).done;
  await t.close();
  expect(result.lastAgentMessage).toMatch(/<task_result>\nlooks good\n<\/task_result>$/);
  expect(JSON.stringify(child.requests[0]!.input)).toContain('Review, do not edit.');
});

test('fork_turns "all" (v2\'s default) starts the child with the parent\'s conversation, then its role\'s instructions and task', async () => {
  const { home, repo } = setup(ROLES + '[features]\nmulti_agent_v2 = true\n');
  const root = new ScriptedClient([
    callTools(call('spawn_agent', { task_name: 'forked', agent_type: 'coder', message: 'continue from here' })),
    callTools(call('wait_agent', { timeout_ms: 60000 })),
    say('root done'),
  ]);
  const child = new ScriptedClient([say('forked child done')]);
  const t = await startTestThread({ home, cwd: repo, client: (index) => [root, child][index]!, request: { ephemeral: false, overrides: { harness: 'native', sandbox: 'workspace-write' } } });
  const result = await t.thread.startTurn({ text: 'the original request' }).done;
  await t.close();
  expect(result.status).toBe('completed');
  const texts = child.requests[0]!.input.flatMap((item) => (item.type === 'message' ? [item.content.map((part) => ('text' in part ? part.text : '')).join('')] : []));
  expect(texts).toContain('the original request');
  expect(texts.indexOf('You are the coder.')).toBeGreaterThan(texts.indexOf('the original request'));
  expect(texts.at(-1)).toBe('continue from here');
  const rows = await t.engine.listThreads({ all: true });
  expect(rows.find((row) => row.agentPath === '/root/forked')).toMatchObject({ parentThreadId: t.thread.id, agentRole: 'coder', forkedFromId: t.thread.id });
});

test('fork_turns in an ephemeral session is an error that says to use "none"', async () => {
  const root = new ScriptedClient([callTools(call('spawn_agent', { task_name: 'x', message: 'm', fork_turns: 'all' })), after((text) => say(text))]);
  const { result } = await run('native', [root], '[agents]\nenabled = true\n[features]\nmulti_agent_v2 = true\n');
  expect(result.lastAgentMessage).toContain('spawn with fork_turns "none"');
});
