// `rig exec`'s human output as `codex exec` users expect it, through the built CLI against the
// loopback mock: the header block, each command with the tail of its output, diffs of file
// changes, the reason of a refused edit, harness file reads and searches (also in --json), and the
// tokens used at the end.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

function setup(wire: MockWire = 'responses'): { repo: string; home: string } {
  const repo = tempGitRepo({ 'README.md': 'hello\n', 'src/app.js': "console.log('hi');\n" });
  const home = tempRigHome({ url: mock.url, wire });
  dirs.push(repo, home);
  return { repo, home };
}

const PATCH = ['*** Begin Patch', '*** Update File: README.md', '@@', '-hello', '+hello world', '*** End Patch', ''].join('\n');

test('header, command tails, a diff and the token count, in the order they happened', async () => {
  const { repo, home } = setup();
  mock.enqueue(
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'seq 1 15; exit 1' } }], usage: { input_tokens: 100, cached_input_tokens: 60, output_tokens: 10 } },
    { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: PATCH }], usage: { input_tokens: 120, output_tokens: 20 } },
    { text: 'Done.', usage: { input_tokens: 150, output_tokens: 5 } },
  );
  const run = await runRig(['exec', '--harness', 'native', '--full-auto', '--color', 'never', 'fix the readme'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('Done.\n');
  expect(run.stderr).toMatch(/session id: [0-9a-f-]{36}\n/);
  expect(run.stderr.replace(/session id: [0-9a-f-]{36}/, 'session id: ID')).toBe(
    [
      'rig 0.1.0',
      '--------',
      `workdir: ${repo}`,
      'model: mock-model',
      'provider: mock (Mock)',
      'harness: native',
      'sandbox: workspace-write',
      'approvals: on-request',
      'session id: ID',
      '--------',
      '$ seq 1 15; exit 1',
      '  … 5 earlier lines',
      ...['6', '7', '8', '9', '10', '11', '12', '13', '14', '15'].map((n) => `  ${n}`),
      '  exit 1',
      'M README.md',
      '  @@ -1,1 +1,1 @@',
      '  -hello',
      '  +hello world',
      'Done.',
      'tokens used: 405 (input 370 of which 60 cached, output 35)',
      '',
    ].join('\n'),
  );
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello world\n');
});

test('a refused edit shows the reason the model was given', async () => {
  const { repo, home } = setup();
  const before = mock.requests.length;
  mock.enqueue({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: PATCH }] }, { text: 'I could not edit.' });
  // The default sandbox is read-only, and exec asks nobody.
  const run = await runRig(['exec', '--harness', 'native', '--color', 'never', 'fix the readme'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  const told = (mock.requests[before + 1]!.body.input as { type: string; output?: string }[]).find((item) => item.type === 'custom_tool_call_output')!.output!;
  const reason = /^(?:[\s\S]*?\n)?(.*read-only.*)$/m.exec(told)?.[1];
  expect(reason, told).toBeDefined();
  expect(run.stderr).toContain(`M README.md\n  not changed: `);
  expect(run.stderr).toContain(reason!);
  expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('hello\n');
});

describe('harness file reads and searches', () => {
  test('Claude Code Read appears in human output, and as an mcp_tool_call item in --json', async () => {
    const { repo, home } = setup('messages');
    const script = () => [
      { toolCalls: [{ name: 'Read', arguments: { file_path: join(repo, 'README.md') } }] },
      { toolCalls: [{ name: 'Read', arguments: { file_path: join(repo, 'missing.txt') } }] },
      { text: 'Looked around.' },
    ];
    mock.enqueue(...script());
    const human = await runRig(['exec', '--harness', 'claude-code', '--color', 'never', 'look'], { cwd: repo, home });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain(`read ${join(repo, 'README.md')} (1 line)\n`);
    expect(human.stderr).toContain(`read ${join(repo, 'missing.txt')} failed: File does not exist.`);

    mock.enqueue(...script());
    const json = await runRig(['exec', '--json', '--harness', 'claude-code', 'look'], { cwd: repo, home });
    expect(json.code, json.stderr).toBe(0);
    const events = jsonLines(json.stdout);
    const items = events.filter((e) => e.type === 'item.completed').map((e) => e.item as Record<string, unknown>);
    expect(items).toEqual([
      {
        id: 'item_0',
        type: 'mcp_tool_call',
        server: 'rig',
        tool: 'Read',
        arguments: { file_path: join(repo, 'README.md') },
        result: { content: [{ type: 'text', text: '1 line' }], structured_content: null },
        error: null,
        status: 'completed',
      },
      {
        id: 'item_1',
        type: 'mcp_tool_call',
        server: 'rig',
        tool: 'Read',
        arguments: { file_path: join(repo, 'missing.txt') },
        result: null,
        // As the model was told (Claude Code's wording).
        error: { message: `File does not exist. Note: your current working directory is ${repo}.` },
        status: 'failed',
      },
      { id: 'item_2', type: 'agent_message', text: 'Looked around.' },
    ]);
    // Started first, as Codex's MCP calls are.
    expect(events[2]).toMatchObject({ type: 'item.started', item: { id: 'item_0', type: 'mcp_tool_call', status: 'in_progress', result: null } });
  });

  test("opencode's grep and glob appear as searches", async () => {
    const { repo, home } = setup('chat');
    mock.enqueue(
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'console', path: join(repo, 'src') } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*.md' } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'no-such-text-anywhere' } }] },
      { text: 'Searched.' },
    );
    const run = await runRig(['exec', '--harness', 'opencode', '--color', 'never', 'search'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const searches = run.stderr.split('\n').filter((line) => line.startsWith('search '));
    expect(searches).toEqual([
      expect.stringMatching(new RegExp(`^search "console" in ${join(repo, 'src')} \\(\\d+ result lines?\\)$`)),
      expect.stringMatching(/^search "\*\*\/\*\.md" \(\d+ result lines?\)$/),
      'search "no-such-text-anywhere" (nothing found)',
    ]);
  });
});
