// A scheduled prompt in the real interactive `rig` (tmux, loopback mock, temp RIG_HOME): the model's
// ScheduleWakeup fires about a second later and a new turn starts on its own with the prompt,
// shown in the transcript as the next message.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { inputTexts } from '../../support/agents-home.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

let mock: MockProvider;
let rig: TmuxRig;
let live: LiveSession | undefined;

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-timers', '--harness claude-code -s workspace-write -a never', { extra: '[timers]\nmin_wakeup_seconds = 1' });
  ({ mock, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('a ScheduleWakeup of 1 s starts a new turn with its prompt while the TUI is idle', async () => {
  mock.enqueue(
    { toolCalls: [{ name: 'ScheduleWakeup', arguments: { delaySeconds: 1, reason: 'the build takes a moment', prompt: 'check the build again' } }] },
    { text: 'I will look again in a second.' },
    { text: 'Second look: all green.' },
  );
  rig.type('watch the build');
  rig.keys('Enter');
  await rig.waitFor('I will look again in a second.');
  await rig.waitFor('Second look: all green.');
  const shown = rig.history();
  expect(shown.indexOf('› check the build again')).toBeGreaterThan(shown.indexOf('I will look again in a second.'));
  expect(mock.requests).toHaveLength(3);
  expect(inputTexts(mock.requests[2]!).at(-1)).toContain('check the build again');
});
