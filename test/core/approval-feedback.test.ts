// "No, and tell the agent what to do instead": a person's answer to an approval can carry text, and
// the engine sends it to the model with the refusal (ThreadHandle.answerApproval(id, 'deny',
// {feedback})). Also the retry question after a sandbox denial, which says what the sandbox blocked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../src/protocol/index.js';
import { declinedWithFeedback } from '../../src/tools/orchestrator/pipeline.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';
import { startTestThread, writeTestHome, type TestThread } from '../support/engine.js';

let base = '';
let home = '';
let ws = '';
const open: TestThread[] = [];

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-feedback-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws]);
  writeTestHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
});

afterEach(async () => {
  for (const thread of open.splice(0)) await thread.close();
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

async function start(client: ScriptedClient, overrides: Record<string, string>): Promise<TestThread> {
  const thread = await startTestThread({ home, cwd: ws, client, request: { overrides: { harness: 'native', ...overrides } } });
  open.push(thread);
  return thread;
}

/** The output the model got for `callId` in its next request. */
function toolOutput(client: ScriptedClient, callId: string): string {
  const item = client.requests.at(-1)!.input.find(
    (entry: ConversationItem) => (entry.type === 'function_call_output' || entry.type === 'custom_tool_call_output') && entry.call_id === callId,
  ) as { output: string } | undefined;
  if (!item) throw new Error(`no output for ${callId} in the last request`);
  return item.output;
}

it("the person's words go back to the model as theirs", () => {
  expect(declinedWithFeedback('running `rm -rf build`', 'keep build/, delete only build/tmp')).toBe(
    'The user declined running `rm -rf build` and said what to do instead:\nkeep build/, delete only build/tmp',
  );
  expect(declinedWithFeedback('this change', '  ')).toBe('The user declined this change.');
});

describe('a deny with feedback', () => {
  it('declines the command and tells the model what the person said instead', async () => {
    const client = new ScriptedClient([callTools(call('exec_command', { cmd: 'touch made-by-command' }, 'c1')), say('ok, I will do that')]);
    const started = await start(client, { sandbox: 'workspace-write', approvalPolicy: 'untrusted' });
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'make a file' });
    const request = (await asked).request;
    started.thread.answerApproval(request.id, 'deny', { feedback: '  create it with mkdir -p instead  ' });
    expect((await turn.done).status).toBe('completed');

    expect(fs.existsSync(path.join(ws, 'made-by-command'))).toBe(false);
    const told = toolOutput(client, 'c1');
    expect(told).toContain('The user declined the command `');
    expect(told).toContain('touch made-by-command');
    expect(told).toContain('and said what to do instead:\ncreate it with mkdir -p instead');
    expect(started.events()).toContainEqual({ type: 'approval.resolved', request_id: request.id, decision: 'deny', feedback: 'create it with mkdir -p instead' });
    const item = started.events().find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(item).toMatchObject({ item: { status: 'declined', aggregated_output: expect.stringContaining('create it with mkdir -p instead') } });
  });

  it('declines a file change the same way; the file stays as it was', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'one\n');
    const patch = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+two\n*** End Patch';
    const client = new ScriptedClient([callTools({ type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch }), say('understood')]);
    const started = await start(client, { sandbox: 'workspace-write', approvalPolicy: 'untrusted' });
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'edit' });
    const request = (await asked).request;
    expect(request.kind).toBe('file_change');
    started.thread.answerApproval(request.id, 'deny', { feedback: 'write "three", not "two"' });
    await turn.done;

    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\n');
    expect(toolOutput(client, 'p1')).toContain('The user declined the change to notes.txt and said what to do instead:\nwrite "three", not "two"');
    const item = started.events().find((event) => event.type === 'item.completed' && event.item.type === 'file_change');
    expect(item).toMatchObject({ item: { status: 'failed', error: { message: expect.stringContaining('write "three"') } } });
  });

  it('a plain deny keeps Codex\'s message; feedback with any other decision is refused and the question stays open', async () => {
    const client = new ScriptedClient([callTools(call('exec_command', { cmd: 'touch plain-no' }, 'c2')), say('fine')]);
    const started = await start(client, { sandbox: 'workspace-write', approvalPolicy: 'untrusted' });
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'make a file' });
    const request = (await asked).request;
    expect(() => started.thread.answerApproval(request.id, 'approve', { feedback: 'and be quick' })).toThrow(/feedback goes with a deny/);
    started.thread.answerApproval(request.id, 'deny', { feedback: '   ' });
    await turn.done;
    expect(toolOutput(client, 'c2')).toContain('exec command rejected by user');
    expect(started.events()).toContainEqual({ type: 'approval.resolved', request_id: request.id, decision: 'deny' });
  });
});

describe('the retry question after a sandbox denial', () => {
  it('says what the sandbox blocked; a no with feedback leaves the model the sandbox output and the words', async () => {
    // Under this policy a write runs in the sandbox without asking; the read-only sandbox blocks
    // it, and sandbox_approval asks before running it again outside.
    const granular = 'approval_policy={granular = {sandbox_approval = true, rules = true, skill_approval = true, request_permissions = true, mcp_elicitations = true}}';
    const client = new ScriptedClient([callTools(call('exec_command', { cmd: 'touch blocked-file' }, 'c3')), say('will ask for a writable sandbox')]);
    const started = await startTestThread({ home, cwd: ws, client, request: { config: [granular], overrides: { harness: 'native', sandbox: 'read-only' } } });
    open.push(started);
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'make a file' });
    const request = (await asked).request;
    expect(request).toMatchObject({ kind: 'exec', retry_without_sandbox: true, sandboxed: false });
    if (request.kind !== 'exec') throw new Error('expected a command');
    expect(request.sandbox_denial).toMatch(/read-only file system/i);
    started.thread.answerApproval(request.id, 'deny', { feedback: 'do not leave the sandbox; tell me the command instead' });
    await turn.done;

    expect(fs.existsSync(path.join(ws, 'blocked-file'))).toBe(false);
    const told = toolOutput(client, 'c3');
    expect(told).toMatch(/read-only file system/i);
    expect(told).toContain('The user declined running the command `');
    expect(told).toContain('again without the sandbox and said what to do instead:\ndo not leave the sandbox; tell me the command instead');
  });
});
