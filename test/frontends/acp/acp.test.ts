// `rig acp` driven by @agentclientprotocol/sdk's client app over stdio of the real binary (the
// loopback mock model): a prompt whose command needs permission (session/request_permission
// answered by the client), a file edit shown as a diff, a plan, thought and message chunks, a
// cancel ending the prompt with stopReason "cancelled" and killing the command, set_mode, and
// session/load in a new process replaying the history as session/update.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, RequestError, type ClientContext, type McpServer, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, RIG_BIN, removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';
import { membersOf, processGroupsWith, toolResult, waitUntil } from '../exec/helpers.js';
import { referenceServer } from '../../mcp/support/servers.js';
import { startHttpMcpServer } from '../../mcp/support/http-server.js';

/** test/frontends/fixtures/ask-server.mjs: MCP tools that ask the user (elicitation). */
const ASK_SERVER = join(REPO_ROOT, 'test', 'frontends', 'fixtures', 'ask-server.mjs');

let mock: MockProvider;
let repo: string;
let home: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'one\ntwo\n' });
  home = tempRigHome({ url: mock.url });
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

interface Recorder {
  updates: SessionNotification[];
  /** fs/write_text_file calls the client got (it keeps them as buffers, not on disk). */
  writes: { path: string; content: string }[];
  permissions: RequestPermissionRequest[];
  /** terminal/* requests the client got, by method (terminal/create with its command and args). */
  terminals: { method: string; params: Record<string, unknown> }[];
  /** Paths the client was asked for with fs/read_text_file. */
  reads: string[];
  /** What the client's buffers hold (answers to fs/read_text_file; a path not here is an error). */
  buffers: Map<string, string>;
  /** How the next permission request is answered (an option id, or "cancelled"). */
  answer: string;
  exited: Promise<number | null>;
  child: ChildProcess;
}

/** Runs `body` as an ACP client of a fresh `rig acp` process; resolves once the process exited. */
async function withAgent<T>(
  body: (agent: ClientContext, recorder: Recorder) => Promise<T>,
  config: string[] = ['harness="native"', 'approval_policy="untrusted"', 'sandbox_mode="workspace-write"'],
): Promise<{ result: T; recorder: Recorder; code: number | null }> {
  const child = spawn(process.execPath, [RIG_BIN, 'acp', ...config.flatMap((entry) => ['-c', entry])], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const recorder: Recorder = { updates: [], writes: [], permissions: [], reads: [], buffers: new Map(), terminals: [], answer: 'approve', exited, child };
  const app = client({ name: 'rig-acp-test' })
    .onNotification('session/update', ({ params }) => {
      recorder.updates.push(params);
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      recorder.writes.push({ path: params.path, content: params.content });
      return {};
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      recorder.reads.push(params.path);
      const held = recorder.buffers.get(params.path);
      if (held === undefined) throw RequestError.resourceNotFound(params.path);
      return { content: held };
    })
    // The editor's terminal: it records what it was asked to run and answers with its own output,
    // so a test tells a command the editor ran from one rig ran.
    .onRequest('terminal/create', ({ params }) => {
      recorder.terminals.push({ method: 'terminal/create', params: { ...params } });
      return { terminalId: `term-${recorder.terminals.length}` };
    })
    .onRequest('terminal/wait_for_exit', ({ params }) => {
      recorder.terminals.push({ method: 'terminal/wait_for_exit', params: { ...params } });
      return { exitCode: 0, signal: null };
    })
    .onRequest('terminal/output', ({ params }) => {
      recorder.terminals.push({ method: 'terminal/output', params: { ...params } });
      return { output: 'printed in the editor terminal\n', truncated: false, exitStatus: { exitCode: 0, signal: null } };
    })
    .onRequest('terminal/release', ({ params }) => {
      recorder.terminals.push({ method: 'terminal/release', params: { ...params } });
      return {};
    })
    .onRequest('terminal/kill', ({ params }) => {
      recorder.terminals.push({ method: 'terminal/kill', params: { ...params } });
      return {};
    })
    .onRequest('session/request_permission', ({ params }) => {
      recorder.permissions.push(params);
      if (recorder.answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      return { outcome: { outcome: 'selected', optionId: recorder.answer } };
    });
  const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  try {
    const result = await app.connectWith(stream, (agent) => body(agent, recorder));
    child.stdin!.end();
    const code = await exited;
    return { result, recorder, code };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nrig acp stderr:\n${stderr}`);
  }
}

function kinds(updates: SessionNotification[]): string[] {
  return updates.map((notification) => notification.update.sessionUpdate);
}

function textOf(updates: SessionNotification[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .map((notification) => notification.update)
    .filter((update) => update.sessionUpdate === kind)
    .map((update) => {
      const content = 'content' in update && !Array.isArray(update.content) ? update.content : undefined;
      return content && content.type === 'text' ? content.text : '';
    })
    .join('');
}

describe('rig acp', () => {
  let sessionId = '';

  it('runs a prompt: thought and message chunks, a plan, a command that asks permission, an edit as a diff', async () => {
    const patch = '*** Begin Patch\n*** Update File: note.txt\n@@\n one\n-two\n+three\n*** End Patch';
    mock.enqueue(
      { reasoning: 'Planning the work.', toolCalls: [{ name: 'update_plan', arguments: { plan: [{ step: 'make a file', status: 'in_progress' }, { step: 'edit the note', status: 'pending' }] } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch acp-made.txt' } }] },
      { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: patch }] },
      { text: 'Made the file and edited the note.', deltaSize: 6 },
    );
    const { result, recorder, code } = await withAgent(async (agent, recorder) => {
      const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
      expect(init.agentCapabilities?.loadSession).toBe(true);
      expect(init.agentInfo?.name).toBe('rig');
      const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
      expect(created.modes?.currentModeId).toBe('custom');
      expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(['read-only', 'auto', 'full-access', 'custom']);
      sessionId = created.sessionId;
      const answer = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make a file and edit the note' }] });
      return { answer, updates: recorder.updates.length };
    });
    expect(code).toBe(0);
    expect(result.answer.stopReason).toBe('end_turn');
    expect(existsSync(join(repo, 'acp-made.txt'))).toBe(true);
    expect(readFileSync(join(repo, 'note.txt'), 'utf8')).toBe('one\nthree\n');

    const updates = recorder.updates;
    expect(updates.every((notification) => notification.sessionId === sessionId)).toBe(true);
    expect(textOf(updates, 'agent_thought_chunk')).toBe('Planning the work.');
    expect(textOf(updates, 'agent_message_chunk')).toBe('Made the file and edited the note.');
    const plan = updates.map((n) => n.update).find((update) => update.sessionUpdate === 'plan');
    expect(plan).toMatchObject({ entries: [{ content: 'make a file', status: 'in_progress' }, { content: 'edit the note', status: 'pending' }] });

    // Two permission requests: the command, then the edit, each about a tool call announced first.
    expect(recorder.permissions).toHaveLength(2);
    const [command, edit] = recorder.permissions;
    expect(command!.toolCall).toMatchObject({ kind: 'execute', status: 'pending' });
    expect(command!.toolCall.title).toContain('touch acp-made.txt');
    expect(command!.options.map((option) => option.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const calls = updates.map((n) => n.update).filter((update) => update.sessionUpdate === 'tool_call');
    expect(calls.map((call) => call.toolCallId)).toEqual(expect.arrayContaining([command!.toolCall.toolCallId, edit!.toolCall.toolCallId]));
    const notePath = join(repo, 'note.txt');
    expect(edit!.toolCall).toMatchObject({ kind: 'edit', locations: [{ path: notePath }], content: [{ type: 'diff', path: notePath, oldText: 'one\ntwo\n', newText: 'one\nthree\n' }] });
    const finished = updates.map((n) => n.update).filter((update) => update.sessionUpdate === 'tool_call_update');
    expect(finished.find((update) => update.toolCallId === command!.toolCall.toolCallId)).toMatchObject({ status: 'completed' });
    expect(finished.find((update) => update.toolCallId === edit!.toolCall.toolCallId)).toMatchObject({ status: 'completed' });
    // The answer's chunks come after the tool calls.
    const order = kinds(updates);
    expect(order.lastIndexOf('tool_call_update')).toBeLessThan(order.indexOf('agent_message_chunk'));
  });

  it("writes an approved edit through the client's fs/write_text_file when it offers it", async () => {
    const patch = '*** Begin Patch\n*** Add File: from-editor.txt\n+hello editor\n*** End Patch';
    mock.enqueue({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: patch }] }, { text: 'written' });
    const { result, recorder } = await withAgent(async (agent) => {
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: true } } });
      const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
      return agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'add a file' }] });
    });
    expect(result.stopReason).toBe('end_turn');
    // Asked first (untrusted), then written by the editor, not by rig.
    expect(recorder.permissions).toHaveLength(1);
    expect(recorder.writes).toEqual([{ path: join(repo, 'from-editor.txt'), content: 'hello editor\n' }]);
    expect(existsSync(join(repo, 'from-editor.txt'))).toBe(false);
    const update = recorder.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update');
    expect(update).toMatchObject({ status: 'completed' });
  });

  it("reads workspace files through the client's fs/read_text_file (its unsaved buffer), and files outside the workspace from disk", async () => {
    const notePath = join(repo, 'note.txt');
    const outside = join(home, 'config.toml');
    mock.enqueue(
      { toolCalls: [{ name: 'Read', arguments: { file_path: notePath } }, { name: 'Read', arguments: { file_path: outside } }] },
      { toolCalls: [{ name: 'Edit', arguments: { file_path: notePath, old_string: 'unsaved', new_string: 'edited' } }] },
      { text: 'read it' },
    );
    const before = mock.requests.length;
    const { result, recorder } = await withAgent(
      async (agent, recorder) => {
        recorder.buffers.set(notePath, 'one\nunsaved line in the editor\n');
        await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } });
        const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
        return agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'read the note' }] });
      },
      ['harness="claude-code"', 'approval_policy="never"', 'sandbox_mode="workspace-write"'],
    );
    expect(result.stopReason).toBe('end_turn');
    // The editor was asked for the workspace file only; the file outside was read by rig.
    expect(recorder.reads).toContain(notePath);
    expect(recorder.reads).not.toContain(outside);
    const second = JSON.stringify(mock.requests[before + 1]!.body);
    expect(second).toContain('unsaved line in the editor');
    expect(second).toContain('wire_api');
    // The edit was computed against the buffer and written back through the editor; the disk is untouched.
    expect(recorder.writes).toEqual([{ path: notePath, content: 'one\nedited line in the editor\n' }]);
    expect(readFileSync(notePath, 'utf8')).not.toContain('edited');
  });

  it("runs commands in the client's terminal only when the thread has no sandbox (danger-full-access); sandboxed commands stay rig's", async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'Bash', arguments: { command: 'echo ran-by-rig', description: 'print' } }] },
      { text: 'sandboxed done' },
      { toolCalls: [{ name: 'Bash', arguments: { command: 'echo ran-by-editor', description: 'print' } }] },
      { text: 'editor done' },
    );
    const before = mock.requests.length;
    const { result, recorder } = await withAgent(
      async (agent, recorder) => {
        await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { terminal: true } });
        const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
        const first = await agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'print in the sandbox' }] });
        const sandboxedTerminals = recorder.terminals.length;
        await agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'full-access' });
        const second = await agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'print without a sandbox' }] });
        return { first, second, sandboxedTerminals, sessionId: created.sessionId };
      },
      ['harness="claude-code"', 'approval_policy="never"', 'sandbox_mode="workspace-write"'],
    );
    expect(result.first.stopReason).toBe('end_turn');
    expect(result.second.stopReason).toBe('end_turn');
    // workspace-write: rig's sandboxed exec ran it, and its output went to the model.
    expect(result.sandboxedTerminals).toBe(0);
    expect(JSON.stringify(mock.requests[before + 1]!.body)).toContain('ran-by-rig');
    // danger-full-access: the editor's terminal ran it, from create to release.
    expect(recorder.terminals.map((call) => call.method)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const create = recorder.terminals[0]!.params;
    expect(create).toMatchObject({ sessionId: result.sessionId, cwd: repo });
    expect([create['command'], ...(create['args'] as string[])].join(' ')).toContain('echo ran-by-editor');
    const afterEditor = JSON.stringify(mock.requests[before + 3]!.body);
    expect(afterEditor).toContain('printed in the editor terminal');
    // The tool call shows the editor's output.
    const updates = recorder.updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(JSON.stringify(updates.at(-1))).toContain('printed in the editor terminal');
  });

  it("starts the MCP servers session/new and session/load bring (stdio, with the client's name made to fit; http with its headers) and refuses SSE by name", async () => {
    const http = await startHttpMcpServer({ token: 'editor-token' });
    const everything = referenceServer('@modelcontextprotocol/server-everything');
    const editorServer: McpServer = { name: 'editor tools', command: process.execPath, args: [everything, 'stdio'], env: [{ name: 'EDITOR_MARK', value: '1' }] };
    mock.enqueue({ toolCalls: [{ id: 'call_echo_new', name: 'mcp__editor_tools__echo', arguments: { message: 'from the editor' } }] }, { text: 'echoed' });
    const before = mock.requests.length;
    const config = ['harness="native"', 'approval_policy="never"', 'sandbox_mode="workspace-write"'];
    const created = await withAgent(async (agent) => {
      const init = await agent.request('initialize', { protocolVersion: 1 });
      expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true, sse: false });
      const sse = await agent
        .request('session/new', { cwd: repo, mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:9/sse', headers: [] }] })
        .then(() => 'accepted', (error: Error) => error.message);
      expect(sse).toMatch(/"old".*SSE/);
      const web: McpServer = { type: 'http', name: 'web', url: http.url, headers: [{ name: 'Authorization', value: 'Bearer editor-token' }] };
      const session = await agent.request('session/new', { cwd: repo, mcpServers: [editorServer, web] });
      const answer = await agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'echo' }] });
      return { answer, sessionId: session.sessionId };
    }, config);
    expect(created.result.answer.stopReason).toBe('end_turn');
    const first = mock.requests[before]!.body;
    expect(JSON.stringify(first.tools)).toContain('"mcp__editor_tools__echo"');
    expect(JSON.stringify(first.tools)).toContain('"mcp__web__add"');
    expect(http.seen.some((headers) => headers['authorization'] === 'Bearer editor-token')).toBe(true);
    await http.close();
    expect(toolResult('responses', mock.requests[before + 1]!.body)).toEqual({ callId: 'call_echo_new', text: 'Echo: from the editor' });
    const call = created.recorder.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call');
    expect(call).toMatchObject({ title: 'editor_tools: echo' });

    // A new process loading the session starts the servers session/load names.
    mock.enqueue({ toolCalls: [{ id: 'call_echo_load', name: 'mcp__editor_tools__echo', arguments: { message: 'after load' } }] }, { text: 'again' });
    const mark = mock.requests.length;
    const loaded = await withAgent(async (agent) => {
      await agent.request('initialize', { protocolVersion: 1 });
      await agent.request('session/load', { sessionId: created.result.sessionId, cwd: repo, mcpServers: [editorServer] });
      return agent.request('session/prompt', { sessionId: created.result.sessionId, prompt: [{ type: 'text', text: 'echo again' }] });
    }, config);
    expect(loaded.result.stopReason).toBe('end_turn');
    expect(JSON.stringify(mock.requests[mark]!.body.tools)).toContain('"mcp__editor_tools__echo"');
    expect(JSON.stringify(mock.requests[mark + 1]!.body)).toContain('Echo: after load');
  });

  it('advertises model, reasoning effort, harness and approval mode as config options; session/set_config_option applies from the next turn', async () => {
    mock.enqueue({ text: 'first' }, { text: 'second' });
    const before = mock.requests.length;
    const { result, recorder } = await withAgent(async (agent) => {
      await agent.request('initialize', { protocolVersion: 1 });
      const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
      const sessionId = created.sessionId;
      const options = created.configOptions ?? [];
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'as configured' }] });
      const set = async (configId: string, value: string) => (await agent.request('session/set_config_option', { sessionId, configId, value })).configOptions;
      await set('model', 'mock-model-large');
      await set('reasoning_effort', 'high');
      await set('harness', 'claude-code');
      const last = await set('mode', 'auto');
      const unknown = await agent.request('session/set_config_option', { sessionId, configId: 'temperature', value: 'hot' }).then(() => 'accepted', (error: Error) => error.message);
      const badValue = await agent.request('session/set_config_option', { sessionId, configId: 'reasoning_effort', value: 'extreme' }).then(() => 'accepted', (error: Error) => error.message);
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'as chosen' }] });
      return { options, last, unknown, badValue };
    });
    const byId = (list: typeof result.options) => Object.fromEntries(list.map((option) => [option.id, option]));
    const initial = byId(result.options);
    expect(Object.keys(initial)).toEqual(['model', 'reasoning_effort', 'harness', 'mode']);
    expect(initial['model']).toMatchObject({ type: 'select', category: 'model', currentValue: 'mock-model' });
    expect(initial['reasoning_effort']).toMatchObject({ category: 'thought_level', currentValue: 'default' });
    expect(initial['harness']).toMatchObject({ currentValue: 'native' });
    expect(JSON.stringify(initial['harness'])).toContain('"claude-code"');
    expect(initial['mode']).toMatchObject({ category: 'mode', currentValue: 'custom' });
    const chosen = byId(result.last);
    expect(chosen['model']).toMatchObject({ currentValue: 'mock-model-large' });
    expect(chosen['reasoning_effort']).toMatchObject({ currentValue: 'high' });
    expect(chosen['harness']).toMatchObject({ currentValue: 'claude-code' });
    expect(chosen['mode']).toMatchObject({ currentValue: 'auto' });
    expect(result.unknown).toMatch(/temperature/);
    expect(result.badValue).toMatch(/extreme/);
    expect(recorder.updates.some((n) => n.update.sessionUpdate === 'current_mode_update' && n.update.currentModeId === 'auto')).toBe(true);
    // The first turn ran as configured; the second with every chosen value.
    const [first, second] = [mock.requests[before]!.body, mock.requests[before + 1]!.body];
    expect(first.model).toBe('mock-model');
    expect(first.reasoning).toBeUndefined();
    expect(second.model).toBe('mock-model-large');
    expect(second.reasoning).toMatchObject({ effort: 'high' });
    expect(JSON.stringify(second.tools)).toContain('"Bash"');
    expect(JSON.stringify(first.tools)).not.toContain('"Bash"');
  });

  it("asks an MCP server's confirmation (no fields, one boolean) as session/request_permission and declines a form with the reason to the model", async () => {
    const askServer: McpServer = { name: 'ask', command: process.execPath, args: [ASK_SERVER], env: [] };
    mock.enqueue(
      { toolCalls: [{ id: 'call_confirm', name: 'mcp__ask__confirm', arguments: {} }] },
      { toolCalls: [{ id: 'call_agree', name: 'mcp__ask__agree', arguments: {} }] },
      { toolCalls: [{ id: 'call_form', name: 'mcp__ask__form', arguments: {} }] },
      { text: 'asked' },
    );
    const before = mock.requests.length;
    const { result, recorder } = await withAgent(
      async (agent, recorder) => {
        recorder.answer = 'accept';
        await agent.request('initialize', { protocolVersion: 1 });
        const created = await agent.request('session/new', { cwd: repo, mcpServers: [askServer] });
        return agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'ask me' }] });
      },
      ['harness="native"', 'approval_policy="never"', 'sandbox_mode="workspace-write"'],
    );
    expect(result.stopReason).toBe('end_turn');
    // Two questions reached the person; the form did not.
    expect(recorder.permissions.map((p) => p.toolCall.title)).toEqual(['ask asks: Deploy to staging?', 'ask asks: Accept the licence?']);
    expect(recorder.permissions[0]!.options.map((o) => o.optionId)).toEqual(['accept', 'decline']);
    const afterConfirm = JSON.stringify(mock.requests[before + 1]!.body);
    expect(afterConfirm).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content: {} })).slice(1, -1));
    const afterAgree = JSON.stringify(mock.requests[before + 2]!.body);
    expect(afterAgree).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content: { accepted: true } })).slice(1, -1));
    const afterForm = JSON.stringify(mock.requests[before + 3]!.body);
    expect(afterForm).toContain(JSON.stringify(JSON.stringify({ action: 'decline' })).slice(1, -1));
    expect(afterForm).toMatch(/declined it without asking.*form \(name\)/);
  });

  it('asks a single-choice request_user_input as session/request_permission with its choices as options; several questions are refused with the reason', async () => {
    const one = { questions: [{ id: 'db', header: 'Storage', question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: 'a server' }] }] };
    const two = { questions: [...one.questions, { id: 'name', header: 'Name', question: 'Its name?', options: [{ label: 'shop', description: '' }, { label: 'store', description: '' }] }] };
    mock.enqueue(
      { toolCalls: [{ id: 'call_one', name: 'request_user_input', arguments: one }] },
      { toolCalls: [{ id: 'call_two', name: 'request_user_input', arguments: two }] },
      { text: 'asked' },
    );
    const before = mock.requests.length;
    const { result, recorder } = await withAgent(
      async (agent, recorder) => {
        recorder.answer = 'choice_1';
        await agent.request('initialize', { protocolVersion: 1 });
        const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
        return agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'ask me' }] });
      },
      ['harness="native"', 'approval_policy="never"', 'sandbox_mode="workspace-write"'],
    );
    expect(result.stopReason).toBe('end_turn');
    expect(recorder.permissions).toHaveLength(1);
    const asked = recorder.permissions[0]!;
    expect(asked.toolCall.title).toBe('Storage: Which database?');
    expect(asked.options.map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ['choice_0', 'SQLite', 'allow_once'],
      ['choice_1', 'Postgres', 'allow_once'],
      ['decline', 'Decline to answer', 'reject_once'],
    ]);
    expect(toolResult('responses', mock.requests[before + 1]!.body).text).toBe(JSON.stringify({ answers: { db: { answers: ['Postgres'] } } }));
    const refused = JSON.stringify(mock.requests[before + 2]!.body);
    expect(refused).toMatch(/not shown to the user: rig did not show it: this editor can only be asked one single-choice question at a time, and this was 2 questions at once/);
  });

  it('a rejected permission leaves the command unrun', async () => {
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch acp-never.txt' } }] }, { text: 'not allowed' });
    const { result, recorder } = await withAgent(async (agent, recorder) => {
      recorder.answer = 'deny';
      await agent.request('initialize', { protocolVersion: 1 });
      const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
      return agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'make another' }] });
    });
    expect(result.stopReason).toBe('end_turn');
    expect(recorder.permissions).toHaveLength(1);
    expect(existsSync(join(repo, 'acp-never.txt'))).toBe(false);
    const update = recorder.updates.map((n) => n.update).find((u) => u.sessionUpdate === 'tool_call_update');
    expect(update).toMatchObject({ status: 'failed' });
  });

  it('session/cancel ends the prompt with stopReason "cancelled" and kills its command; set_mode applies a preset', async () => {
    const marker = `rig-acp-cancel-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo ready; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] });
    const { result } = await withAgent(async (agent, recorder) => {
      await agent.request('initialize', { protocolVersion: 1 });
      const created = await agent.request('session/new', { cwd: repo, mcpServers: [] });
      // "auto": on-request in the workspace sandbox, so the sleep runs without a question.
      expect(await agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'auto' })).toEqual({});
      const prompt = agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'sleep' }] });
      await waitUntil(() => membersOf(processGroupsWith(marker)).length > 0, 10_000, 'the command to start');
      // The running command's output streams into its tool call.
      await waitUntil(
        () => recorder.updates.some((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'in_progress' && JSON.stringify(n.update.content).includes('ready')),
        10_000,
        "the command's output",
      );
      const groups = processGroupsWith(marker);
      await agent.notify('session/cancel', { sessionId: created.sessionId });
      const answer = await prompt;
      await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the cancelled command to be killed');
      const bad = await agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'turbo' }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      return { answer, modeUpdate: recorder.updates.find((n) => n.update.sessionUpdate === 'current_mode_update'), permissions: recorder.permissions.length, bad };
    });
    expect(result.answer.stopReason).toBe('cancelled');
    expect(result.modeUpdate?.update).toMatchObject({ currentModeId: 'auto' });
    expect(result.permissions).toBe(0);
    expect(result.bad).toMatch(/turbo/);
  });

  it('a client gone mid-prompt leaves the command killed and the session saved and loadable', async () => {
    const marker = `rig-acp-gone-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo ready; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] });
    const child = spawn(process.execPath, [RIG_BIN, 'acp', '-c', 'harness="native"', '-c', 'sandbox_mode="workspace-write"'], {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock-secret-0123456789' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const app = client({ name: 'rig-acp-gone' }).onNotification('session/update', () => {});
    const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
    const connection = app.connect(stream);
    await connection.agent.request('initialize', { protocolVersion: 1 });
    const created = await connection.agent.request('session/new', { cwd: repo, mcpServers: [] });
    void connection.agent.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'sleep then vanish' }] }).catch(() => {});
    await waitUntil(() => membersOf(processGroupsWith(marker)).length > 0, 10_000, 'the command to start');
    const groups = processGroupsWith(marker);
    child.stdin!.end();
    expect(await exited).toBe(0);
    expect(membersOf(groups)).toEqual([]);
    connection.close();

    const { result, recorder } = await withAgent(async (agent) => {
      await agent.request('initialize', { protocolVersion: 1 });
      return agent.request('session/load', { sessionId: created.sessionId, cwd: repo, mcpServers: [] });
    });
    expect(result.modes?.currentModeId).toBe('custom');
    expect(textOf(recorder.updates, 'user_message_chunk')).toBe('sleep then vanish');
  });

  it('session/load in a new process replays the history as session/update before answering', async () => {
    expect(sessionId).not.toBe('');
    const { result, recorder } = await withAgent(async (agent, recorder) => {
      await agent.request('initialize', { protocolVersion: 1 });
      const loaded = await agent.request('session/load', { sessionId, cwd: repo, mcpServers: [] });
      // Everything replayed had arrived when the response did.
      return { loaded, seen: recorder.updates.length };
    });
    expect(result.seen).toBe(recorder.updates.length);
    expect(result.loaded.modes?.currentModeId).toBe('custom');
    const updates = recorder.updates;
    expect(updates.every((notification) => notification.sessionId === sessionId)).toBe(true);
    expect(textOf(updates, 'user_message_chunk')).toBe('make a file and edit the note');
    expect(textOf(updates, 'agent_message_chunk')).toBe('Made the file and edited the note.');
    const calls = updates.map((n) => n.update).filter((update) => update.sessionUpdate === 'tool_call');
    expect(calls.map((call) => call.kind)).toEqual(expect.arrayContaining(['execute', 'edit']));
    expect(calls.find((call) => call.kind === 'execute')).toMatchObject({ status: 'completed' });
    expect(kinds(updates).indexOf('user_message_chunk')).toBe(0);
  });
});
