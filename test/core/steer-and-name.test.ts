// What the interactive session needs from the engine beyond Codex's stream: steering messages
// with ids (announced when handed to the model, retractable until then), a thread name recorded
// in the rollout (and shown as the title in listings), and the context window in the settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedClient, say, type ScriptedStep } from '../support/scripted-client.js';
import { startTestThread, testEngine, writeTestHome, type TestThread } from '../support/engine.js';

let base = '';
let home = '';
let ws = '';
const open: TestThread[] = [];

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-steer-name-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  writeTestHome(home);
});

afterEach(async () => {
  for (const thread of open.splice(0)) await thread.close();
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A step that waits for `gate` before answering `text`. */
function gated(gate: Promise<void>, text: string): ScriptedStep {
  return async function* () {
    await gate;
    yield* say(text);
  };
}

describe('steering with ids', () => {
  it('announces a named steer just before its user_message item, and only named ones', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const client = new ScriptedClient([gated(gate, 'first'), say('after steering')]);
    const t = await startTestThread({ home, cwd: ws, client, request: { overrides: { harness: 'native' } } });
    open.push(t);
    const turn = t.thread.startTurn({ text: 'go' });
    t.thread.steer({ text: 'named one' }, turn.turnId, { steerId: 'steer-1' });
    t.thread.steer({ text: 'anonymous one' }, turn.turnId);
    expect(() => t.thread.steer({ text: 'again' }, turn.turnId, { steerId: 'steer-1' })).toThrow(/already waiting/);
    release();
    await turn.done;
    const events = t.events();
    const delivered = events.findIndex((event) => event.type === 'steer.delivered');
    expect(events[delivered]).toMatchObject({ type: 'steer.delivered', steer_id: 'steer-1' });
    const itemId = (events[delivered] as { item_id: string }).item_id;
    expect(events[delivered + 1]).toEqual({ type: 'item.completed', item: { id: itemId, type: 'user_message', text: 'named one' } });
    expect(events.filter((event) => event.type === 'steer.delivered')).toHaveLength(1);
    expect(JSON.stringify(client.requests[1]!.input)).toContain('anonymous one');
  });

  it('retractSteer takes back a message not yet delivered; after delivery it answers false', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const client = new ScriptedClient([gated(gate, 'first'), say('second')]);
    const t = await startTestThread({ home, cwd: ws, client, request: { overrides: { harness: 'native' } } });
    open.push(t);
    const turn = t.thread.startTurn({ text: 'go' });
    t.thread.steer({ text: 'keep me' }, turn.turnId, { steerId: 'a' });
    t.thread.steer({ text: 'take me back' }, turn.turnId, { steerId: 'b' });
    expect(t.thread.retractSteer('b')).toBe(true);
    expect(t.thread.retractSteer('b')).toBe(false);
    release();
    await turn.done;
    expect(t.thread.retractSteer('a')).toBe(false);
    const sent = JSON.stringify(client.requests.map((request) => request.input));
    expect(sent).toContain('keep me');
    expect(sent).not.toContain('take me back');
  });

  it('a steer an interrupted turn did not take goes with the next turn unless retracted', async () => {
    const client = new ScriptedClient([
      async function* (_request, signal) {
        await new Promise<void>((resolve) => (signal?.aborted ? resolve() : signal?.addEventListener('abort', () => resolve(), { once: true })));
        yield* [];
      },
      say('next'),
    ]);
    const t = await startTestThread({ home, cwd: ws, client, request: { overrides: { harness: 'native' } } });
    open.push(t);
    const turn = t.thread.startTurn({ text: 'go' });
    t.thread.steer({ text: 'left over' }, turn.turnId, { steerId: 'x' });
    await t.thread.interrupt();
    expect((await turn.done).status).toBe('interrupted');
    expect(t.thread.retractSteer('x')).toBe(true);
    await t.thread.startTurn({ text: 'fresh' }).done;
    expect(JSON.stringify(client.requests.at(-1)!.input)).not.toContain('left over');
  });
});

describe('thread names', () => {
  it('setName is announced, recorded, kept on resume and becomes the listed title', async () => {
    const engine = testEngine({ home, client: () => new ScriptedClient([say('hello')]) });
    const t = await startTestThread({ engine, home, cwd: ws, request: { ephemeral: false, overrides: { harness: 'native' } } });
    await t.thread.startTurn({ text: 'the first prompt' }).done;
    expect(t.thread.name).toBeUndefined();
    expect(() => t.thread.setName('   ')).toThrow(/cannot be empty/);
    t.thread.setName('  parser\nfix  ');
    expect(t.events().at(-1)).toEqual({ type: 'thread.name_updated', thread_name: 'parser fix' });
    const id = t.thread.id;
    await t.close();

    const [row] = (await engine.listThreads({ cwd: ws })).filter((listed) => listed.id === id);
    expect(row!.title).toBe('parser fix');
    const again = await engine.resumeThread(id, { cwd: ws });
    expect(again.name).toBe('parser fix');
    const fork = await engine.forkThread(id, { cwd: ws });
    expect(fork.name).toBeUndefined();
    await engine.close();
  });

  it('the settings carry the context window (config first, else the model table)', async () => {
    const t = await startTestThread({ home, cwd: ws, client: new ScriptedClient([]), request: { config: ['model_context_window=64000'], overrides: { harness: 'native' } } });
    open.push(t);
    expect(t.thread.settings.context_window).toBe(64000);
    const u = await startTestThread({ home, cwd: ws, client: new ScriptedClient([]), request: { overrides: { harness: 'native', model: 'gpt-5.1' } } });
    open.push(u);
    expect(u.thread.settings.context_window).toBe(272_000);
  });
});
