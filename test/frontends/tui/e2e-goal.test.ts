// /goal in the real `rig` TUI (tmux, loopback mock, temp RIG_HOME): no goal at first; `/goal TEXT`
// sets it and sends TEXT, and the model is told of the goal; the model completes it with
// update_goal; /goal pause on a complete goal, /goal clear.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

let mock: MockProvider;
let rig: TmuxRig;
let live: LiveSession | undefined;

async function command(line: string, shows: string | RegExp): Promise<string> {
  rig.type(line);
  rig.keys('Enter');
  return rig.waitFor(shows);
}

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-goal', '--harness native -s workspace-write -a on-request');
  ({ mock, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('/goal shows, sets (and starts work on), pauses and clears the thread goal', async () => {
  await command('/goal', 'no goal: set one with /goal TEXT');
  mock.enqueue({ toolCalls: [{ name: 'update_goal', id: 'u1', arguments: { status: 'complete' } }] }, { text: 'the tidy-up is finished' });
  await command('/goal tidy up the readme', 'the tidy-up is finished');
  const first = JSON.stringify(mock.requests.at(-2)!.body);
  expect(first).toContain('The user changed the thread goal; its status is now active');
  expect(first).toContain('tidy up the readme');
  await command('/goal', /goal \*?\*?complete/);
  await command('/goal resume', /goal \*?\*?active/);
  await command('/goal clear', 'goal removed');
  await command('/goal', 'no goal: set one with /goal TEXT');
}, 60_000);
