// AskUserQuestion in the real `rig` TUI (tmux, loopback mock, temp RIG_HOME; Kimi Code's harness,
// whose questions may allow several choices): a number key picks a choice, Space and numbers tick
// several, typing gives the person's own answer, Enter answers; Esc declines. The model reads the
// answers in Kimi's shape.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../support/mock-provider/index.js';
import { hasTmux, type TmuxRig } from '../frontends/tui/support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from '../frontends/tui/support/live-session.js';

let mock: MockProvider;
let rig: TmuxRig;
let live: LiveSession | undefined;

/** What the model got back for the call with `id`, from the newest request. */
function toolOutput(id: string): string {
  const input = (mock.requests[mock.requests.length - 1]!.body as { input: { type: string; call_id?: string; output?: unknown }[] }).input;
  const output = input.find((item) => item.type === 'function_call_output' && item.call_id === id)?.output;
  return typeof output === 'string' ? output : JSON.stringify(output);
}

const questions = {
  questions: [
    { question: 'Which database?', header: 'Storage', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: 'a server' }] },
    { question: 'Which checks?', multi_select: true, options: [{ label: 'lint' }, { label: 'types' }, { label: 'tests' }] },
  ],
};

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-ask', '--harness kimi-code -s workspace-write -a never');
  ({ mock, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('questions are answered in the modal: a number picks, numbers tick several, typed words are the own answer', async () => {
  mock.enqueue({ toolCalls: [{ id: 'call_ask', name: 'AskUserQuestion', arguments: questions }] }, { text: 'set up as you asked' });
  rig.type('set up the project');
  rig.keys('Enter');
  const first = await rig.waitFor('The agent asks (1/2)');
  expect(first).toMatch(/Storage +Which database\?/);
  expect(first).toMatch(/› 1\. SQLite +one file/);
  expect(first).toMatch(/2\. Postgres +a server/);
  expect(first).toContain('Other:');
  rig.type('2');
  const second = await rig.waitFor('The agent asks (2/2)');
  expect(second).toMatch(/1\. \[ \] lint/);
  rig.type('1');
  rig.keys('Down', 'Down');
  rig.type(' ');
  await rig.waitFor(/1\. \[x\] lint[\s\S]*3\. \[x\] tests/);
  rig.keys('Down');
  rig.type('and a smoke run');
  await rig.waitFor('Other: and a smoke run');
  rig.keys('Enter');
  await rig.waitFor('set up as you asked');
  expect(JSON.parse(toolOutput('call_ask'))).toEqual({ answers: { 'Which database?': 'Postgres', 'Which checks?': 'lint, tests, and a smoke run' } });
  // Kimi's spacing (Python's json.dumps) is kept.
  expect(toolOutput('call_ask')).toBe('{"answers": {"Which database?": "Postgres", "Which checks?": "lint, tests, and a smoke run"}}');
  expect(rig.screen()).toMatch(/\? Which database\? -> Postgres/);
}, 60_000);

test.skipIf(!hasTmux)('Esc declines: the model is told the questions were dismissed', async () => {
  mock.enqueue({ toolCalls: [{ id: 'call_ask2', name: 'AskUserQuestion', arguments: questions }] }, { text: 'deciding myself' });
  rig.type('again');
  rig.keys('Enter');
  await rig.waitFor('The agent asks (1/2)');
  rig.keys('Escape');
  await rig.waitFor('deciding myself');
  expect(JSON.parse(toolOutput('call_ask2'))).toEqual({ answers: {}, note: 'The user dismissed the questions without answering.' });
}, 60_000);
