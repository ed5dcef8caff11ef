// The engine API as front ends use it, in-process: threads started, resumed and forked through the
// engine, one event stream with envelopes, turn ids that continue across resumes, settings that
// apply from the next turn, compaction as a turn, and per-thread ownership of processes: two threads
// run commands at once, and interrupting one leaves the other's command running.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/protocol/index.js';
import { shlexSplit } from '../../src/policy/index.js';
import type { ModelRequest } from '../../src/model/types.js';
import { ScriptedClient, call, callTools, say, type ScriptedStep } from '../support/scripted-client.js';
import { startTestThread, testEngine, writeTestHome, type TestThread } from '../support/engine.js';
import { membersOf, processGroupsWith, waitUntil } from '../frontends/exec/helpers.js';

let base = '';
let home = '';
let ws = '';
const open: TestThread[] = [];

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-engine-')));
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

async function start(client: ScriptedClient, request: Parameters<typeof startTestThread>[0]['request'] = {}): Promise<TestThread> {
  const thread = await startTestThread({ home, cwd: ws, client, request: { overrides: { harness: 'native', sandbox: 'workspace-write' }, ...request } });
  open.push(thread);
  return thread;
}

/** A model step that runs `cmd` with exec_command and waits up to 30 s for it. */
function runs(cmd: string, callId: string): ModelEvent[] {
  return callTools(call('exec_command', { cmd, yield_time_ms: 30_000 }, callId));
}

describe('engine event stream', () => {
  it('wraps every event in an envelope: thread, turn, gapless seq, time', async () => {
    const started = await start(new ScriptedClient([say('hello')]));
    const before = Date.now();
    const turn = started.thread.startTurn({ text: 'hi' });
    expect(turn.turnId).toBe('turn_0');
    expect((await turn.done).status).toBe('completed');
    const envelopes = started.envelopes;
    expect(envelopes[0]).toMatchObject({ thread_id: started.thread.id, turn_id: null, seq: 0, event: { type: 'thread.started', thread_id: started.thread.id } });
    expect(envelopes.map((e) => e.seq)).toEqual(envelopes.map((_, i) => i));
    const inTurn = envelopes.filter((e) => e.turn_id === 'turn_0').map((e) => e.event.type);
    expect(inTurn[0]).toBe('turn.started');
    expect(inTurn.at(-1)).toBe('turn.completed');
    // The engine emits the user's input as an item of the turn.
    expect(envelopes.find((e) => e.event.type === 'item.completed' && e.event.item.type === 'user_message')).toMatchObject({ turn_id: 'turn_0', event: { item: { text: 'hi' } } });
    for (const envelope of envelopes.slice(1)) expect(envelope.timestamp_ms).toBeGreaterThanOrEqual(before - 5);
    expect(envelopes.every((e) => e.thread_id === started.thread.id)).toBe(true);
  });

  it('turn ids continue across resumes and forks, and readThread shows the turns', async () => {
    const engine = testEngine({ home, client: () => new ScriptedClient([say('one'), say('two'), say('three')]) });
    const first = await startTestThread({ engine, home, cwd: ws, request: { ephemeral: false, overrides: { harness: 'native' } } });
    await first.thread.startTurn({ text: 'a' }).done;
    await first.thread.startTurn({ text: 'b' }).done;
    const id = first.thread.id;
    await first.close();

    const again = await startTestThread({ engine, home, cwd: ws, resume: id, request: { ephemeral: false } });
    expect(again.envelopes[0]!.event).toEqual({ type: 'thread.resumed', thread_id: id });
    const turn = again.thread.startTurn({ text: 'c' });
    expect(turn.turnId).toBe('turn_2');
    await turn.done;
    await again.close();

    const read = engine.readThread(id, { includeTurns: true });
    expect(read.turns!.map((t) => [t.id, t.status, t.items.map((item) => item.type)])).toEqual([
      ['turn_0', 'completed', ['user_message', 'agent_message']],
      ['turn_1', 'completed', ['user_message', 'agent_message']],
      ['turn_2', 'completed', ['user_message', 'agent_message']],
    ]);

    const fork = await engine.forkThread(id, { cwd: ws, atTurn: 'turn_0' });
    expect(fork.info.forkedFrom).toBe(id);
    expect(fork.history.filter((item) => item.type === 'message' && item.role === 'assistant')).toHaveLength(1);
    expect(fork.startTurn({ text: 'd' }).turnId).toBe('turn_1');
    await engine.close();
  });

  it('steer joins the running turn, and refuses a stale turn id', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const waiting: ScriptedStep = async function* () {
      await gate;
      yield* say('first');
    };
    const client = new ScriptedClient([waiting, say('after steering')]);
    const started = await start(client);
    expect(() => started.thread.steer({ text: 'too early' })).toThrow(/no turn is running/);
    const turn = started.thread.startTurn({ text: 'go' });
    expect(() => started.thread.steer({ text: 'x' }, 'turn_9')).toThrow(/turn turn_9 is not the running turn \(turn_0 is\)/);
    expect(started.thread.steer({ text: 'also this' }, turn.turnId)).toBe('turn_0');
    release();
    const result = await turn.done;
    expect(result.lastAgentMessage).toBe('after steering');
    expect(JSON.stringify(client.requests[1]!.input)).toContain('also this');
  });

  it('updateSettings applies from the next turn and is announced', async () => {
    const client = new ScriptedClient([say('a'), say('b')]);
    const started = await start(client);
    await started.thread.startTurn({ text: 'one' }).done;
    const view = await started.thread.updateSettings({ model: 'other-model', reasoning_effort: 'high', approval_policy: 'untrusted', sandbox_mode: 'read-only' });
    expect(view).toMatchObject({ model: 'other-model', reasoning_effort: 'high', approval_policy: 'untrusted', sandbox_mode: 'read-only', harness: 'native' });
    expect(started.events().at(-1)).toEqual({ type: 'thread.settings_updated', settings: view });
    await started.thread.startTurn({ text: 'two' }).done;
    const [firstRequest, secondRequest] = client.requests as ModelRequest[];
    expect(firstRequest!.model).toBe('mock-model');
    expect(secondRequest!.model).toBe('other-model');
    expect(secondRequest!.reasoningEffort).toBe('high');
  });

  it('plan mode switched on mid-thread (the TUI\'s /plan) holds from the next turn: no edit tools, a shell write refused; off again, they are back', async () => {
    const target = path.join(ws, 'planned.txt');
    const client = new ScriptedClient([
      callTools(call('exec_command', { cmd: `echo x > ${target}` })),
      say('planned'),
      say('carried out'),
    ]);
    const started = await start(client);
    const view = await started.thread.updateSettings({ plan_mode: true });
    expect(view).toMatchObject({ plan_mode: true, sandbox_mode: 'read-only' });
    await started.thread.startTurn({ text: 'plan it' }).done;
    const requests = client.requests as ModelRequest[];
    const names = (request: ModelRequest) => request.tools.map((tool) => tool.name);
    expect(names(requests[0]!)).not.toContain('apply_patch');
    expect(fs.existsSync(target)).toBe(false);
    const off = await started.thread.updateSettings({ plan_mode: false });
    expect(off.plan_mode).not.toBe(true);
    await started.thread.startTurn({ text: 'do it' }).done;
    expect(names(requests[2]!)).toContain('apply_patch');
  });

  it('compaction is a turn of its own', async () => {
    const client = new ScriptedClient([say('answer'), say('SUMMARY')]);
    const started = await start(client);
    await started.thread.startTurn({ text: 'work' }).done;
    const compaction = started.thread.compact();
    expect(compaction.turnId).toBe('turn_1');
    expect((await compaction.done).status).toBe('completed');
    const types = started.envelopes.filter((e) => e.turn_id === 'turn_1').map((e) => (e.event.type === 'item.completed' ? `item:${e.event.item.type}` : e.event.type));
    expect(types).toEqual(['turn.started', 'item:context_compaction', 'item:error', 'turn.completed']);
  });
});

describe('ownership of processes', () => {
  it('two threads run commands at once; interrupting one leaves the other running', async () => {
    const markerA = `rig-engine-a-${process.pid}-${Date.now()}`;
    const markerB = `rig-engine-b-${process.pid}-${Date.now()}`;
    const a = await start(new ScriptedClient([runs(`echo ready; sleep 30 # ${markerA}`, 'a1'), say('a done')]));
    const b = await start(new ScriptedClient([runs(`echo ready; sleep 30 # ${markerB}`, 'b1'), say('b done')]));
    const readyA = a.next('item.command_execution.output_delta', (event) => event.delta.includes('ready'));
    const readyB = b.next('item.command_execution.output_delta', (event) => event.delta.includes('ready'));
    const turnA = a.thread.startTurn({ text: 'sleep' });
    const turnB = b.thread.startTurn({ text: 'sleep' });
    await Promise.all([readyA, readyB]);
    const groupsA = processGroupsWith(markerA);
    const groupsB = processGroupsWith(markerB);
    expect(membersOf(groupsA).length).toBeGreaterThan(0);
    expect(membersOf(groupsB).length).toBeGreaterThan(0);

    await a.thread.interrupt();
    expect((await turnA.done).status).toBe('interrupted');
    await waitUntil(() => membersOf(groupsA).length === 0, 5_000, "thread A's command to be killed");
    // The command of thread B is untouched and its turn still running.
    expect(membersOf(groupsB).length).toBeGreaterThan(0);
    expect(b.thread.isRunning).toBe(true);
    // A's command item completed as killed, before the turn's terminal event.
    const completedA = a.events().find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(completedA).toMatchObject({ item: { status: 'failed' } });

    await b.thread.close();
    expect((await turnB.done).status).toBe('interrupted');
    await waitUntil(() => membersOf(groupsB).length === 0, 5_000, "thread B's command to be killed by close");
  });
});

describe('approvals', () => {
  it('a command question carries the quoted argv, cwd, and whether it runs sandboxed', async () => {
    const started = await start(new ScriptedClient([runs("touch 'a file'", 'c1'), say('ok')]), { overrides: { harness: 'native', sandbox: 'workspace-write', approvalPolicy: 'untrusted' } });
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'touch' });
    const request = (await asked).request;
    expect(request).toMatchObject({ kind: 'exec', cwd: ws, sandboxed: true, retry_without_sandbox: false });
    if (request.kind !== 'exec') throw new Error('expected a command');
    expect(request.command.at(-1)).toBe("touch 'a file'");
    // Quoted so that pasting it into a shell runs exactly this argv.
    expect(shlexSplit(request.command_text)).toEqual(request.command);
    started.thread.answerApproval(request.id, 'deny');
    await turn.done;
    expect(started.events().find((event) => event.type === 'approval.resolved')).toEqual({ type: 'approval.resolved', request_id: request.id, decision: 'deny' });
  });

  it('a file change question carries the diff', async () => {
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'one\ntwo\n');
    const patch = '*** Begin Patch\n*** Update File: notes.txt\n@@\n one\n-two\n+three\n*** End Patch';
    const started = await start(new ScriptedClient([callTools({ type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch }), say('ok')]), {
      overrides: { harness: 'native', sandbox: 'workspace-write', approvalPolicy: 'untrusted' },
    });
    const asked = started.next('approval.requested');
    const turn = started.thread.startTurn({ text: 'edit' });
    const request = (await asked).request;
    if (request.kind !== 'file_change') throw new Error('expected a file change');
    expect(request.changes).toHaveLength(1);
    expect(request.changes[0]).toMatchObject({ path: path.join(ws, 'notes.txt'), kind: 'update' });
    expect(request.changes[0]!.diff).toContain('-two\n+three');
    started.thread.answerApproval(request.id, 'approve');
    await turn.done;
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\nthree\n');
  });

  it('with nobody to ask, a command that needs approval is declined naming the policy and how to allow it', async () => {
    const client = new ScriptedClient([runs('rm -rf build', 'r1'), say('ok')]);
    const started = await start(client, { overrides: { harness: 'native', sandbox: 'workspace-write', approvalPolicy: 'never' }, canAskApproval: false });
    await started.thread.startTurn({ text: 'clean' }).done;
    expect(started.events().some((event) => event.type === 'approval.requested')).toBe(false);
    const declined = started.events().find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(declined).toMatchObject({ item: { status: 'declined' } });
    const text = declined!.type === 'item.completed' && declined!.item.type === 'command_execution' ? declined!.item.aggregated_output : '';
    expect(text).not.toMatch(/rejected by user/);
    expect(text).toMatch(/^declined without asking: approval policy never requires approval for the command `.*rm -rf build.*` \(.*destructive.*\), and this session has no one to ask\. To allow it: /);
    expect(text).toContain('prefix_rule');
  });
});

describe('turn length', () => {
  it('has no step limit by default: a turn of 250 tool steps finishes', async () => {
    const steps: ScriptedStep[] = Array.from({ length: 250 }, (_, i) => callTools(call('update_plan', { plan: [{ step: `s${i}`, status: 'in_progress' }] }, `u${i}`)));
    const started = await start(new ScriptedClient([...steps, say('finally')]));
    const result = await started.thread.startTurn({ text: 'long' }).done;
    expect(result).toMatchObject({ status: 'completed', lastAgentMessage: 'finally' });
  });
});
