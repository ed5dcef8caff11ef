// The checkpoint tracker (a scan of every workspace file the first time a thread runs a command)
// starts opening as soon as a command-running call starts streaming, while the model is still
// writing its arguments, instead of after the call is complete. In-process through the engine with
// its real model client; the loopback mock spaces its events as a model producing tokens would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ThreadEvent } from '../../src/protocol/index.js';
import { startTestThread, writeTestHome } from '../support/engine.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';

let base: string;
let mock: MockProvider;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-call-started-')));
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  fs.rmSync(base, { recursive: true, force: true });
});

/** The tracker folders under `dir` (`<rollout>.checkpoints/tracker`). */
function trackerDirs(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'tracker' && dir.endsWith('.checkpoints')) found.push(full);
    else found.push(...trackerDirs(full));
  }
  return found;
}

type Wire = 'responses' | 'chat' | 'messages';

async function workspaceThread(name: string, wire: Wire = 'responses') {
  const home = path.join(base, name, 'home');
  const ws = path.join(base, name, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'a file the tracker reads\n');
  writeTestHome(home, '', mock.url);
  // Every wire announces a call before its arguments: Responses output_item.added, a Chat chunk
  // with the call's name, a Messages content_block_start.
  const config = path.join(home, 'config.toml');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('wire_api = "responses"', `wire_api = "${wire}"`));
  const started = await startTestThread({
    home,
    cwd: ws,
    request: { ephemeral: false, overrides: { harness: 'native', sandbox: 'danger-full-access', approvalPolicy: 'never' } },
  });
  return { home, started };
}

/** Polls until the thread's tracker folder exists; returns the thread's events at that moment. */
async function eventsWhenTrackerOpens(home: string, events: () => ThreadEvent[], turnDone: Promise<unknown>): Promise<ThreadEvent[] | undefined> {
  let finished = false;
  void turnDone.then(() => (finished = true));
  for (;;) {
    if (trackerDirs(home).length > 0) return [...events()];
    if (finished) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const commandStarted = (events: ThreadEvent[]): boolean =>
  events.some((event) => event.type === 'item.started' && event.item.type === 'command_execution');

it.each(['responses', 'chat', 'messages'] as const)('%s: opens the tracker while a shell call is still streaming, before its command starts', async (wire) => {
  const { home, started } = await workspaceThread(`shell-${wire}`, wire);
  try {
    // ~20 argument deltas 40 ms apart: the call takes most of a second to arrive.
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo from the command' } }], deltaSize: 2, eventDelayMs: 40 }, { text: 'done' });
    const turn = started.thread.startTurn({ text: 'run it' });
    const atOpen = await eventsWhenTrackerOpens(home, started.events, turn.done);
    const result = await turn.done;
    expect(result.status).toBe('completed');
    expect(atOpen).toBeDefined();
    expect(commandStarted(atOpen!)).toBe(false);
    const outputs = started.events().flatMap((event) => (event.type === 'item.completed' && event.item.type === 'command_execution' ? [event.item.aggregated_output] : []));
    expect(outputs).toEqual(['from the command\n']);
    expect(mock.requests.at(-1)?.wire).toBe(wire);
  } finally {
    await started.close();
  }
});

it('a call of a tool that runs no command leaves the tracker closed', async () => {
  const { home, started } = await workspaceThread('plan');
  try {
    mock.enqueue(
      { toolCalls: [{ name: 'update_plan', arguments: { plan: [{ step: 'look around', status: 'in_progress' }] } }], deltaSize: 4, eventDelayMs: 10 },
      { text: 'done' },
    );
    const result = await started.thread.startTurn({ text: 'plan it' }).done;
    expect(result.status).toBe('completed');
    expect(trackerDirs(home)).toEqual([]);
  } finally {
    await started.close();
  }
});
