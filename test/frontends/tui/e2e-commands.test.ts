// Slash commands and thread switching in the real `rig` (tmux, loopback mock, temp RIG_HOME):
// completion and /help, /approvals and /harness presets, /plan on and off, Esc Esc editing an earlier message (the
// thread forks before it), /new, /fork, /resume through the in-session picker, /init, /quit.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

let mock: MockProvider;
let rig: TmuxRig;

/** Everything the model was sent in request `n` (1-based). */
const requestText = (n: number) => JSON.stringify(mock.requests[n - 1]!.body);

async function ask(prompt: string, answer: string): Promise<number> {
  mock.enqueue({ text: answer });
  const n = mock.requests.length + 1;
  rig.type(prompt);
  rig.keys('Enter');
  await rig.waitFor(answer);
  return n;
}

async function command(line: string, shows: string | RegExp): Promise<string> {
  rig.type(line);
  rig.keys('Enter');
  return rig.waitFor(shows);
}

let live: LiveSession | undefined;

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-cmd', '--harness native -s workspace-write -a on-request');
  ({ mock, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('"/" completes commands; /help lists them; an unknown /word is refused, never sent', async () => {
  rig.type('/sta');
  await rig.waitFor(/\/status\s+the session/);
  rig.keys('Tab');
  await rig.waitFor('› /status');
  rig.keys('C-u');
  await command('/help', 'Ctrl+D on an empty input quits');
  const help = rig.history();
  for (const name of ['/model', '/harness', '/approvals', '/plan', '/compact', '/new', '/resume', '/fork', '/diff', '/undo', '/rewind', '/mcp', '/rename', '/copy', '/init', '/quit']) expect(help).toContain(name);
  expect(help).not.toMatch(/\/frobnicate/);
  await command('/frobnicate', 'unknown command /frobnicate');
  expect(mock.requests.length).toBe(0);
}, 30_000);

test.skipIf(!hasTmux)('/approvals presets and /harness change the settings from the next turn', async () => {
  await command('/approvals', 'full-access');
  await command('/approvals read-only', 'from the next turn: sandbox read-only · approvals on-request');
  await rig.waitFor(/read-only · on-request/);
  await command('/approvals nonsense', 'unknown approval preset "nonsense"');
  await command('/harness', /available: [\s\S]*opencode/);
  await command('/harness opencode', 'the opencode harness');
  await rig.waitFor(/ · opencode *$/m);
  await command('/harness native', 'the native harness');
  await command('/approvals auto', 'from the next turn: sandbox workspace-write · approvals on-request');
}, 30_000);

test.skipIf(!hasTmux)('Esc Esc edits the previous message: the thread forks before it and the edit is sent there', async () => {
  await ask('alpha question', 'alpha answer');
  await ask('beta question', 'beta answer');
  rig.keys('Escape');
  await rig.waitFor('Esc again edits your previous message');
  rig.keys('Escape');
  await rig.waitFor('editing an earlier message');
  await rig.waitFor('› beta question');
  mock.enqueue({ text: 'edited answer' });
  const n = mock.requests.length + 1;
  rig.type(' (edited)');
  rig.keys('Enter');
  await rig.waitFor('edited answer');
  const sent = requestText(n);
  expect(sent).toContain('alpha question');
  expect(sent).toContain('alpha answer');
  expect(sent).toContain('beta question (edited)');
  expect(sent).not.toContain('beta answer');
}, 30_000);

test.skipIf(!hasTmux)('/new starts an empty thread; /fork this copies it; /resume picks a stored one', async () => {
  await command('/new', /new thread [0-9a-f-]{36}/);
  const fresh = await ask('gamma question', 'gamma answer');
  expect(requestText(fresh)).not.toContain('alpha question');

  await command('/fork this', /forked into thread [0-9a-f-]{36}/);
  const forked = await ask('delta question', 'delta answer');
  expect(requestText(forked)).toContain('gamma question');

  rig.type('/resume');
  rig.keys('Enter');
  await rig.waitFor('Resume a thread');
  rig.keys('Escape');
  await rig.waitFor('Ask rig anything');
  rig.type('/resume');
  rig.keys('Enter');
  await rig.waitFor('Resume a thread');
  await rig.waitFor('alpha question');
  rig.type('alpha');
  await rig.waitFor('search: alpha');
  rig.keys('Enter');
  await rig.waitFor(/resumed thread [0-9a-f-]{36}/);
  const resumed = await ask('epsilon question', 'epsilon answer');
  expect(requestText(resumed)).toContain('alpha question');
  expect(requestText(resumed)).not.toContain('gamma question');
}, 30_000);

test.skipIf(!hasTmux)('/plan switches plan mode: read-only and no edit tool in the next request, until /plan off', async () => {
  await command('/plan', 'plan mode from the next turn');
  await command('/status', 'on (read-only, no edit tools)');
  const planned = await ask('plan the change', 'here is the plan');
  const tools = (n: number) => (mock.requests[n - 1]!.body.tools as { name: string }[]).map((tool) => tool.name);
  expect(tools(planned)).not.toContain('apply_patch');
  await command('/plan maybe', '/plan takes on or off');
  await command('/plan off', 'plan mode off from the next turn: sandbox workspace-write');
  const carried = await ask('carry it out', 'done as planned');
  expect(tools(carried)).toContain('apply_patch');
}, 30_000);

test.skipIf(!hasTmux)('/init asks the model for an AGENTS.md; /quit leaves', async () => {
  mock.enqueue({ text: 'I would write AGENTS.md now' });
  const n = mock.requests.length + 1;
  await command('/init', 'I would write AGENTS.md now');
  expect(requestText(n)).toContain('Write an AGENTS.md file');
  await command('/quit', 'EXIT=0');
}, 30_000);
