// /review in the real interactive `rig` (tmux, loopback mock, temp RIG_HOME): a read-only review
// turn over the seeded diff (no edit tool offered, an edit refused), the findings listed in the
// transcript, and the next turn has its edit tools back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { MockProvider, MockRequest } from '../../support/mock-provider/index.js';
import { inputTexts } from '../../support/agents-home.js';
import { hasTmux, type TmuxRig } from './support/tmux.js';
import { startLiveSession, stopLiveSession, type LiveSession } from './support/live-session.js';

let mock: MockProvider;
let repo: string;
let rig: TmuxRig;

const toolNames = (request: MockRequest): string[] => (request.body.tools ?? []).map((t: { name?: string; type?: string }) => t.name ?? t.type);
const PATCH = '*** Begin Patch\n*** Update File: calc.js\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch\n';

let live: LiveSession | undefined;

beforeAll(async () => {
  if (!hasTmux) return;
  live = await startLiveSession('rig-tui-review', '--harness native -s workspace-write -a never', {
    files: { 'calc.js': 'function add(a, b) {\n  return a + b;\n}\n' },
    prepare: (dir) => writeFileSync(join(dir, 'calc.js'), 'function add(a, b) {\n  return a - b;\n}\n'),
  });
  ({ mock, repo, rig } = live);
}, 30_000);

afterAll(() => stopLiveSession(live));

test.skipIf(!hasTmux)('/review lists the findings of a read-only review turn; the next turn can edit again', async () => {
  const findings = {
    findings: [{ title: '[P1] add() subtracts its operands', body: 'add(2, 3) returns -1.', priority: 1, code_location: { absolute_file_path: join(repo, 'calc.js'), line_range: { start: 2, end: 2 } } }],
    overall_correctness: 'patch is incorrect',
    overall_explanation: 'the sum is wrong',
  };
  mock.enqueue(
    { toolCalls: [{ id: 'call_read', name: 'exec_command', arguments: { cmd: 'cat calc.js' } }] },
    { toolCalls: [{ id: 'call_fix', name: 'apply_patch', kind: 'custom', input: PATCH }] },
    { text: '```json\n' + JSON.stringify(findings) + '\n```' },
  );
  const before = mock.requests.length;
  rig.type('/review');
  rig.keys('Enter');
  await rig.waitFor('Review of uncommitted changes: 1 finding');
  await rig.waitFor(/add\(\) subtracts its operands \(high\) — calc\.js:2/);
  await rig.waitFor('patch is incorrect');
  // The person's message is the one-line request; the instructions and diff are context, not shown.
  const shown = rig.history();
  expect(shown).toContain('› Review the uncommitted changes.');
  expect(shown).not.toContain('review_instructions');

  const requests = mock.requests.slice(before);
  expect(requests).toHaveLength(3);
  expect(inputTexts(requests[0]!).join('\n')).toContain('+  return a - b;');
  for (const request of requests) expect(toolNames(request)).not.toContain('apply_patch');
  expect(inputTexts(requests[2]!).at(-1)).toContain('apply_patch is not available in plan mode or a review');
  expect(readFileSync(join(repo, 'calc.js'), 'utf8')).toContain('a - b');

  mock.enqueue({ text: 'back to work' });
  rig.type('carry on');
  rig.keys('Enter');
  await rig.waitFor('back to work');
  expect(toolNames(mock.requests.at(-1)!)).toContain('apply_patch');

  rig.type('/review --base');
  rig.keys('Enter');
  await rig.waitFor('/review --base takes one branch');
}, 60_000);
