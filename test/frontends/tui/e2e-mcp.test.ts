// MCP in the real `rig` TUI (tmux, loopback mock, temp RIG_HOME): /mcp lists the thread's servers
// with their status, tool count and tool names (a failed one with its error); a server's form
// (elicitation) is filled in a modal, checked, and the answers reach the server; declining is
// reported to it as a decline.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

const FORM_SERVER = join(fileURLToPath(new URL('.', import.meta.url)), 'support', 'form-server.mjs');

let mock: MockProvider;
let rig: TmuxRig;

/** What the model got back for the call with `id`, from the newest request. */
function toolOutput(id: string): string {
  const input = (mock.requests[mock.requests.length - 1]!.body as { input: { type: string; call_id?: string; output?: unknown }[] }).input;
  const output = input.find((item) => item.type === 'function_call_output' && item.call_id === id)?.output;
  return typeof output === 'string' ? output : JSON.stringify(output);
}

const servers = [
  '[mcp_servers.forms]',
  `command = ${JSON.stringify(process.execPath)}`,
  `args = ${JSON.stringify([FORM_SERVER])}`,
  'required = true',
  '[mcp_servers.broken]',
  `command = ${JSON.stringify(process.execPath)}`,
  `args = ["-e", "process.stderr.write('broken: no database configured\\\\n'); process.exit(3)"]`,
].join('\n');

let live: LiveSession | undefined;

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-mcp', '--harness native -s workspace-write -a never', { extra: servers });
  ({ mock, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('/mcp lists each server: ready with its tools, failed with its error', async () => {
  rig.type('/mcp');
  rig.keys('Enter');
  const shown = await rig.waitFor(/broken: failed[\s\S]*forms: ready, 2 tools/);
  expect(shown).toMatch(/no database configured/);
  expect(shown).toMatch(/tools: book, ping/);
  expect(mock.requests.length).toBe(0);
}, 30_000);

test.skipIf(!hasTmux)("a server's form is filled in the modal: required fields are checked, the answers reach the server", async () => {
  mock.enqueue({ toolCalls: [{ id: 'call_book', name: 'mcp__forms__book', arguments: {} }] }, { text: 'booked it' });
  rig.type('book me a room');
  rig.keys('Enter');
  const form = await rig.waitFor('forms asks you to fill in a form');
  expect(form).toContain('Booking details, please');
  expect(form).toMatch(/› Guest name\* +\[\] +as on the passport/);
  expect(form).toMatch(/Nights\*/);
  expect(form).toMatch(/Breakfast +\[ \] no/);
  expect(form).toMatch(/Room +‹ single ›/);
  // Accept with the required fields empty: refused, with the reason.
  rig.keys('Down', 'Down', 'Down', 'Down', 'Enter');
  await rig.waitFor('Guest name is required');
  rig.keys('Up', 'Up', 'Up', 'Up');
  rig.type('Ada Lovelace');
  rig.keys('Enter');
  rig.type('two');
  rig.keys('Down', 'Down', 'Down', 'Enter');
  await rig.waitFor('Nights must be a whole number; got "two"');
  rig.keys('Up', 'Up', 'Up');
  rig.keys('C-u');
  rig.type('2');
  rig.keys('Down');
  rig.type(' ');
  rig.keys('Down', 'Right', 'Right');
  await rig.waitFor(/Breakfast +\[x\] yes[\s\S]*Room +‹ suite ›/);
  rig.keys('Enter', 'Enter');
  await rig.waitFor('booked it');
  const told = toolOutput('call_book');
  expect(told).toContain('"action":"accept"');
  expect(told).toContain('"name":"Ada Lovelace"');
  expect(told).toContain('"nights":2');
  expect(told).toContain('"breakfast":true');
  expect(told).toContain('"room":"suite"');
  expect(rig.history()).toMatch(/You answered forms's form/);
}, 30_000);

test.skipIf(!hasTmux)('Decline on the form tells the server the user declined', async () => {
  mock.enqueue({ toolCalls: [{ id: 'call_decline', name: 'mcp__forms__book', arguments: {} }] }, { text: 'not booked' });
  rig.type('book another');
  rig.keys('Enter');
  await rig.waitFor('forms asks you to fill in a form');
  rig.keys('Down', 'Down', 'Down', 'Down', 'Down', 'Enter');
  await rig.waitFor('not booked');
  expect(toolOutput('call_decline')).toContain('"action":"decline"');
  expect(rig.history()).toMatch(/You declined forms's request/);
}, 30_000);
