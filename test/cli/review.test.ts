// `rig review` through the real CLI against the loopback mock: rig gathers the diff (uncommitted,
// --base, --commit), the review turn is read-only (no edit tool offered, an edit refused, the
// sandbox read-only), and the reviewer's final JSON becomes a findings list, a --json line, or a
// clear error that keeps the raw answer.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { inputTexts } from '../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const ORIGINAL = 'export function add(a, b) {\n  return a + b;\n}\n';
const BUGGY = 'export function add(a, b) {\n  return a - b;\n}\n';

/** A repository whose working tree has a seeded bug in a tracked file and a new untracked file. */
function seededRepo(): { repo: string; home: string } {
  const repo = tempGitRepo({ 'src/calc.js': ORIGINAL });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  writeFileSync(join(repo, 'src/calc.js'), BUGGY);
  writeFileSync(join(repo, 'NOTES.md'), 'remember the sign\n');
  return { repo, home };
}

function findingsJson(repo: string): string {
  return JSON.stringify({
    findings: [
      {
        title: '[P1] Subtract instead of add',
        body: 'add() returns a - b, so add(2, 3) is -1.\nEvery caller gets the wrong sum.',
        confidence_score: 0.9,
        priority: 1,
        code_location: { absolute_file_path: join(repo, 'src/calc.js'), line_range: { start: 2, end: 2 } },
      },
      {
        title: 'Note file is not referenced',
        body: 'NOTES.md is new and nothing links to it.',
        priority: 3,
        code_location: { absolute_file_path: 'NOTES.md', line_range: { start: 1, end: 1 } },
      },
    ],
    overall_correctness: 'patch is incorrect',
    overall_explanation: 'add() is broken.',
    overall_confidence_score: 0.85,
  });
}

const PATCH = '*** Begin Patch\n*** Update File: src/calc.js\n@@\n-  return a - b;\n+  return a + b;\n*** End Patch\n';

/** (a) read the file, (b) try to fix it (refused), (c) answer with findings in a fenced block. */
function reviewerScript(repo: string): MockTurn[] {
  return [
    { toolCalls: [{ id: 'call_read', name: 'exec_command', arguments: { cmd: 'cat src/calc.js' } }] },
    { toolCalls: [{ id: 'call_fix', name: 'apply_patch', kind: 'custom', input: PATCH }] },
    { text: `Here is my review.\n\n\`\`\`json\n${findingsJson(repo)}\n\`\`\`\n` },
  ];
}

const toolNames = (request: MockRequest): string[] => (request.body.tools ?? []).map((t: { name?: string; type?: string }) => t.name ?? t.type);

test('rig review --uncommitted prints the findings for a seeded diff; the turn is read-only', async () => {
  const { repo, home } = seededRepo();
  const before = mock.requests.length;
  mock.enqueue(...reviewerScript(repo));
  const run = await runRig(['review', '--uncommitted', '--harness', 'native'], { cwd: repo, home });
  expect(run.stderr).not.toContain('rig review:');
  expect(run.code).toBe(0);

  expect(run.stdout).toBe(
    [
      'Review of uncommitted changes: 2 findings',
      '',
      '- [P1] Subtract instead of add (high) — src/calc.js:2',
      '  add() returns a - b, so add(2, 3) is -1.',
      '  Every caller gets the wrong sum.',
      '',
      '- [P3] Note file is not referenced (low) — NOTES.md:1',
      '  NOTES.md is new and nothing links to it.',
      '',
      'Overall: patch is incorrect — add() is broken.',
      '',
    ].join('\n'),
  );
  // Nothing was changed: the edit was refused and the shell is read-only.
  expect(readFileSync(join(repo, 'src/calc.js'), 'utf8')).toBe(BUGGY);

  const requests = mock.requests.slice(before);
  expect(requests).toHaveLength(3);
  const first = inputTexts(requests[0]!).join('\n');
  // rig gathered the diff itself: the tracked change and the untracked file.
  expect(first).toContain('-  return a + b;\n+  return a - b;');
  expect(first).toContain('+++ b/NOTES.md');
  expect(first).toContain('"overall_correctness"');
  expect(first).toContain('<sandbox_mode>read-only</sandbox_mode>');
  // The diff and instructions come as context before the one-line request.
  expect(inputTexts(requests[0]!).at(-1)).toBe('Review the uncommitted changes.');
  expect(inputTexts(requests[0]!).at(-2)).toMatch(/^<review_instructions>/);
  for (const request of requests) {
    const names = toolNames(request);
    expect(names).toContain('exec_command');
    expect(names).not.toContain('apply_patch');
  }
  expect(inputTexts(requests[1]!).at(-1)).toContain('Output:\nexport function add(a, b) {\n  return a - b;');
  expect(inputTexts(requests[2]!).at(-1)).toContain('apply_patch is not available in plan mode or a review');
});

test('rig review --json prints the exec event stream, then the findings', async () => {
  const { repo, home } = seededRepo();
  mock.enqueue(...reviewerScript(repo));
  const run = await runRig(['review', '--json', '--harness', 'native'], { cwd: repo, home });
  expect(run.code).toBe(0);
  const lines = jsonLines(run.stdout);
  expect(lines[0]).toMatchObject({ type: 'thread.started' });
  const types = lines.map((line) => line['type']);
  expect(types).toContain('turn.started');
  expect(types.at(-2)).toBe('turn.completed');
  expect(lines.some((line) => line['type'] === 'item.completed' && (line['item'] as { type: string }).type === 'command_execution')).toBe(true);
  const review = lines.at(-1)!;
  expect(review).toMatchObject({
    type: 'review.completed',
    review: {
      target: { type: 'uncommittedChanges' },
      overall_correctness: 'patch is incorrect',
      overall_confidence_score: 0.85,
      findings: [
        { title: '[P1] Subtract instead of add', priority: 1, severity: 'high', confidence_score: 0.9, code_location: { absolute_file_path: join(repo, 'src/calc.js'), line_range: { start: 2, end: 2 } } },
        { title: 'Note file is not referenced', priority: 3, severity: 'low', code_location: { absolute_file_path: join(repo, 'NOTES.md') } },
      ],
    },
  });
});

test('a malformed answer is reported with the raw text kept, and exits 1', async () => {
  const { repo, home } = seededRepo();
  mock.enqueue({ text: 'Looks fine to me, ship it.' });
  const run = await runRig(['review', '--harness', 'native'], { cwd: repo, home });
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain("the reviewer's answer, as it came:\nLooks fine to me, ship it.");
  expect(run.stderr).toContain("rig review: the reviewer's answer holds no JSON object");

  mock.enqueue({ text: '{"findings": [{"title": "x"}]}' });
  const json = await runRig(['review', '--json', '--harness', 'native'], { cwd: repo, home });
  expect(json.code).toBe(1);
  expect(jsonLines(json.stdout).at(-1)).toMatchObject({ type: 'review.failed', raw: '{"findings": [{"title": "x"}]}' });
  expect(json.stderr).toContain('findings[0].code_location is missing');
});

test('--base diffs against the merge base, --commit reviews one commit, custom instructions send no diff', async () => {
  const repo = tempGitRepo({ 'a.txt': 'one\n' });
  const home = tempRigHome({ url: mock.url });
  dirs.push(repo, home);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
  git('checkout', '-q', '-b', 'feature');
  writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');
  git('commit', '-qam', 'add two');
  // main moves on after the branch point: its change must not be in the --base diff.
  git('checkout', '-q', 'main');
  writeFileSync(join(repo, 'main-only.txt'), 'main\n');
  git('add', '-A');
  git('commit', '-qm', 'main only');
  git('checkout', '-q', 'feature');
  const sha = git('rev-parse', 'HEAD').trim();
  const answer = { text: JSON.stringify({ findings: [], overall_correctness: 'patch is correct', overall_explanation: 'fine' }) };

  let before = mock.requests.length;
  mock.enqueue(answer);
  const base = await runRig(['review', '--base', 'main', '--harness', 'native'], { cwd: repo, home });
  expect(base.code).toBe(0);
  expect(base.stdout).toContain('Review of changes against main: no findings');
  let text = inputTexts(mock.requests[before]!).join('\n');
  expect(text).toContain('+two');
  expect(text).not.toContain('main-only.txt');

  before = mock.requests.length;
  mock.enqueue(answer);
  const commit = await runRig(['review', '--commit', sha, '--harness', 'native'], { cwd: repo, home });
  expect(commit.code).toBe(0);
  expect(commit.stdout).toContain(`Review of commit ${sha.slice(0, 7)}: add two: no findings`);
  text = inputTexts(mock.requests[before]!).join('\n');
  expect(text).toContain(`commit ${sha}`);
  expect(text).toContain('+two');

  before = mock.requests.length;
  mock.enqueue(answer);
  const custom = await runRig(['review', 'check the error handling in a.txt', '--harness', 'native'], { cwd: repo, home });
  expect(custom.code).toBe(0);
  text = inputTexts(mock.requests[before]!).join('\n');
  expect(text).toContain('Review as asked: check the error handling in a.txt');
  expect(text).not.toContain('```diff');
});

test('targets that cannot be reviewed say why, and nothing is sent', async () => {
  const plain = tempDir('plain');
  const home = tempRigHome({ url: mock.url });
  const clean = tempGitRepo({ 'a.txt': 'one\n' });
  dirs.push(plain, home, clean);
  const before = mock.requests.length;

  const notRepo = await runRig(['review', '--uncommitted'], { cwd: plain, home });
  expect(notRepo.code).toBe(1);
  expect(notRepo.stderr).toContain(`rig review: ${plain} is not inside a git repository`);

  const two = await runRig(['review', '--uncommitted', '--base', 'main'], { cwd: clean, home });
  expect(two.code).not.toBe(0);
  expect(two.stderr).toContain('rig review takes one target; got --uncommitted and --base');

  const unknown = await runRig(['review', '--base', 'nope'], { cwd: clean, home });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('branch nope is not in this repository');

  const nothing = await runRig(['review'], { cwd: clean, home });
  expect(nothing.code).toBe(0);
  expect(nothing.stdout).toBe('nothing to review: the working tree has no uncommitted changes\n');
  expect(mock.requests.length).toBe(before);
});
