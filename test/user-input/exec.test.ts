// rig exec has nobody to answer a question: request_user_input / AskUserQuestion comes back to the
// model as an error result telling it to decide on its own or to stop and say what it needs, in
// each harness's shape; bad arguments are refused naming the field; `--json` shows the question.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const home of homes) removeDir(home);
});

function home(wire: MockWire): string {
  const made = tempRigHome({ url: mock.url, wire });
  homes.push(made);
  return made;
}

const codexQuestion = { questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: 'a server' }] }] };
const claudeQuestion = { questions: [{ question: 'Which database?', header: 'Database', multiSelect: false, options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: 'a server' }] }] };
const kimiQuestion = { questions: [{ question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }] };

test.each([
  { harness: 'native', wire: 'responses' as const, tool: 'request_user_input', args: codexQuestion },
  { harness: 'deepseek-tui', wire: 'chat' as const, tool: 'request_user_input', args: codexQuestion },
  { harness: 'kimi-code', wire: 'chat' as const, tool: 'AskUserQuestion', args: kimiQuestion },
  { harness: 'zcode', wire: 'messages' as const, tool: 'AskUserQuestion', args: claudeQuestion },
])('$harness: $tool in rig exec tells the model nobody can answer', async ({ harness, wire, tool, args }) => {
  mock.enqueue({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'I will pick SQLite.' });
  const run = await runRig(['exec', '--json', '--harness', harness, 'set up storage'], { cwd: repo, home: home(wire) });
  expect(run.code, run.stderr).toBe(0);
  const first = mock.requests.at(-2)!.body as { tools: { name?: string; function?: { name: string } }[] };
  expect(first.tools.map((t) => t.name ?? t.function?.name)).toContain(tool);
  const result = toolResult(wire, mock.requests.at(-1)!.body).text;
  expect(result).toContain('Nobody can answer questions in this session');
  expect(result).toMatch(/Proceed on your own best judgement .*or stop and say what you need to know/);
  // --json shows the question as an mcp_tool_call of server "rig", failed with the same words.
  const item = jsonLines(run.stdout).find((e) => e.type === 'item.completed' && (e.item as { tool?: string }).tool === tool)!.item as Record<string, unknown>;
  expect(item).toMatchObject({ type: 'mcp_tool_call', server: 'rig', status: 'failed', arguments: { questions: [expect.objectContaining({ question: 'Which database?' })] } });
  expect((item['error'] as { message: string }).message).toContain('Nobody can answer');
});

test.each([
  { harness: 'native', wire: 'responses' as const, tool: 'request_user_input', args: { questions: [{ id: 'x', header: 'H', question: 'Q?', options: [] }] }, problem: 'questions[0].options must hold 1 to 8 choices, found 0' },
  { harness: 'deepseek-tui', wire: 'chat' as const, tool: 'request_user_input', args: { questions: [{ id: 'x', header: '', question: 'Q?', options: [{ label: 'a', description: 'b' }, { label: 'c', description: 'd' }] }] }, problem: 'questions[0].header must not be empty' },
  { harness: 'kimi-code', wire: 'chat' as const, tool: 'AskUserQuestion', args: { questions: [{ question: 'Q?', options: [{ label: 'only' }] }] }, problem: 'questions[0].options must hold 2 to 4 choices, found 1' },
  { harness: 'zcode', wire: 'messages' as const, tool: 'AskUserQuestion', args: { questions: [{ question: 'Q?', header: 'H', multiSelect: false, options: [{ label: 'a', description: '' }, { label: 'a', description: '' }] }] }, problem: 'questions[0].options[1].label "a" repeats an earlier choice' },
])('$harness: arguments outside the original\'s limits are refused naming the field', async ({ harness, wire, tool, args, problem }) => {
  mock.enqueue({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'ok' });
  const run = await runRig(['exec', '--json', '--harness', harness, 'ask me'], { cwd: repo, home: home(wire) });
  expect(run.code, run.stderr).toBe(0);
  const result = toolResult(wire, mock.requests.at(-1)!.body).text;
  expect(result).toContain(`${tool}: ${problem}`);
  expect(result).toContain(`call ${tool} again`);
});
