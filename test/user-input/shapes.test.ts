// The answers each harness's model reads (Codex's map by id, DeepSeek-TUI's list with "Other",
// Claude Code's sentence), and the REPL asking line by line: numbers, several where allowed, own
// words, a skipped question, !decline, end of input.
import { expect, test } from 'vitest';
import type { UserInputApprovalRequest, UserInputQuestion } from '../../src/protocol/index.js';
import { answeredResult, unansweredResult } from '../../src/tools/harness/ask-user/results.js';
import { readQuestions } from '../../src/tools/harness/ask-user/questions.js';
import { askUserInput } from '../../src/frontends/repl/user-input.js';

const db: UserInputQuestion = { id: 'db', header: 'Storage', question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: 'a server' }], multi_select: false, allow_other: true };
const checks: UserInputQuestion = { id: 'checks', header: '', question: 'Which checks?', options: [{ label: 'lint', description: '' }, { label: 'types', description: '' }, { label: 'tests', description: '' }], multi_select: true, allow_other: true };

test('each harness reads the answers in its original shape', () => {
  const answers = { db: { selected: [], other: 'DuckDB' }, checks: { selected: ['lint', 'tests'] } };
  expect(answeredResult('codex', [db, checks], answers).output).toBe('{"answers":{"db":{"answers":["user_note: DuckDB"]},"checks":{"answers":["lint","tests"]}}}');
  expect(answeredResult('deepseek', [db], { db: { selected: ['SQLite'] } }).output).toBe('{"answers":[{"id":"db","label":"SQLite","value":"SQLite"}]}');
  expect(answeredResult('deepseek', [db], { db: { selected: [], other: 'DuckDB' } }).output).toBe('{"answers":[{"id":"db","label":"Other","value":"DuckDB"}]}');
  expect(answeredResult('claude', [db, checks], answers).output).toBe(
    'User has answered your questions: "Which database?"="DuckDB", "Which checks?"="lint, tests". You can now continue with the user\'s answers in mind.',
  );
  // A skipped question is left out, as the originals leave unanswered ones out.
  expect(answeredResult('kimi', [db, checks], { checks: { selected: ['types'] } }).output).toBe('{"answers": {"Which checks?": "types"}}');
  expect(unansweredResult('deepseek', 'request_user_input', { kind: 'declined' })).toEqual({ output: 'User input cancelled: the user closed the questions without answering.', success: false });
  expect(unansweredResult('codex', 'request_user_input', { kind: 'cancelled' }).output).toMatch(/cancelled before the user answered/);
});

test('Claude Code arguments keep multiSelect; Kimi numbers its questions; Codex ids must be unique', () => {
  const claude = readQuestions({ questions: [{ question: 'Q?', header: 'H', multiSelect: true, options: [{ label: 'a', description: 'x' }, { label: 'b', description: 'y' }] }] }, 'claude');
  expect(claude[0]).toMatchObject({ id: 'q1', multi_select: true, allow_other: true });
  expect(readQuestions({ questions: [{ question: 'Q?', options: [{ label: 'a' }, { label: 'b' }] }] }, 'kimi')[0]).toMatchObject({ id: 'q1', header: '', options: [{ label: 'a', description: '' }, { label: 'b', description: '' }] });
  const twice = { questions: [{ id: 'x', header: 'H', question: 'Q?', options: [{ label: 'a', description: '' }] }, { id: 'x', header: 'H', question: 'R?', options: [{ label: 'a', description: '' }] }] };
  expect(() => readQuestions(twice, 'codex')).toThrow('questions[1].id "x" is used by an earlier question');
  expect(() => readQuestions({ questions: [] }, 'claude')).toThrow('questions must hold 1 to 4 questions, found 0');
});

function scripted(lines: (string | undefined)[]) {
  const written: string[] = [];
  return { written, io: { write: (text: string) => void written.push(text), readLine: async () => lines.shift(), cwd: '/srv', color: false } };
}

const request: UserInputApprovalRequest = { kind: 'user_input', id: 'approval_0', item_id: 'item_1', tool: 'request_user_input', questions: [db, checks] };

test('the REPL asks each question: a number, numbers where several are allowed, own words, a skip', async () => {
  const first = scripted(['2', '1,3']);
  expect(await askUserInput(request, first.io)).toEqual({ decision: 'approve', content: { db: { selected: ['Postgres'] }, checks: { selected: ['lint', 'tests'] } } });
  expect(first.written.join('')).toContain('[Storage] Which database?\n  1. SQLite - one file\n  2. Postgres - a server\n');
  const retried = scripted(['7', '1,2', 'DuckDB', '']);
  expect(await askUserInput(request, retried.io)).toEqual({ decision: 'approve', content: { db: { selected: [], other: 'DuckDB' } } });
  expect(retried.written.join('')).toContain('choose 1 to 2');
  expect(retried.written.join('')).toContain('choose one number (this question takes one answer)');
  expect(await askUserInput(request, scripted(['!decline']).io)).toEqual({ decision: 'deny' });
  expect(await askUserInput(request, scripted([undefined]).io)).toEqual({ decision: 'abort' });
});
