// The reviewer's answer as findings: a bare object, a fenced block, prose around the JSON; paths
// made absolute from the workspace; priorities and severities; malformed answers named precisely.
import { expect, test } from 'vitest';
import { findingLocation, formatReview, parseReviewAnswer } from '../../../src/core/review/index.js';

const CWD = '/work/project';
const answer = {
  findings: [
    { title: 'Off by one', body: 'The loop skips the last item.', priority: 2, confidence_score: 0.7, code_location: { absolute_file_path: 'src/loop.ts', line_range: { start: 4, end: 6 } } },
  ],
  overall_correctness: 'patch is incorrect',
  overall_explanation: 'One bug.',
  overall_confidence_score: 0.6,
};

test('a bare object, a fenced block and prose around the JSON all parse to the same findings', () => {
  const bare = JSON.stringify(answer);
  const forms = [bare, '```json\n' + bare + '\n```', 'My review:\n```\n' + JSON.stringify(answer, null, 2) + '\n```\nThanks.', `Here it is: ${bare} -- end`];
  for (const text of forms) {
    const parsed = parseReviewAnswer(text, CWD);
    expect(parsed).toEqual({
      ok: true,
      output: {
        findings: [
          { title: 'Off by one', body: 'The loop skips the last item.', priority: 2, severity: 'medium', confidence_score: 0.7, code_location: { absolute_file_path: '/work/project/src/loop.ts', line_range: { start: 4, end: 6 } } },
        ],
        overall_correctness: 'patch is incorrect',
        overall_explanation: 'One bug.',
        overall_confidence_score: 0.6,
      },
    });
  }
});

test('a severity word stands in for a missing priority; a missing end line is the start line', () => {
  const parsed = parseReviewAnswer(JSON.stringify({ findings: [{ title: 't', body: '', severity: 'Critical', code_location: { absolute_file_path: '/x.ts', line_range: { start: 9 } } }] }), CWD);
  expect(parsed.ok && parsed.output.findings[0]).toMatchObject({ priority: 0, severity: 'critical', code_location: { line_range: { start: 9, end: 9 } } });
});

test('malformed answers say what is wrong and keep the text', () => {
  expect(parseReviewAnswer('', CWD)).toEqual({ ok: false, error: 'the reviewer gave no final answer', raw: '' });
  expect(parseReviewAnswer('all good', CWD)).toEqual({ ok: false, error: "the reviewer's answer holds no JSON object", raw: 'all good' });
  expect(parseReviewAnswer('{"verdict": "ok"}', CWD)).toMatchObject({ ok: false, error: 'the reviewer\'s answer is not a review: the answer has no "findings" list' });
  const noLines = '{"findings": [{"title": "t", "code_location": {"absolute_file_path": "/a"}}]}';
  expect(parseReviewAnswer(noLines, CWD)).toEqual({ ok: false, error: "the reviewer's answer is not a review: findings[0].code_location.line_range.start is not a line number", raw: noLines });
});

test('the list: a heading, tagged titles with severity and location, bodies indented, the verdict', () => {
  const parsed = parseReviewAnswer(JSON.stringify(answer), CWD);
  if (!parsed.ok) throw new Error(parsed.error);
  expect(formatReview(parsed.output, CWD, 'uncommitted changes')).toEqual([
    'Review of uncommitted changes: 1 finding',
    '',
    '- [P2] Off by one (medium) — src/loop.ts:4-6',
    '  The loop skips the last item.',
    '',
    'Overall: patch is incorrect — One bug.',
  ]);
  expect(formatReview({ findings: [], overall_correctness: '', overall_explanation: '' }, CWD, 'commit abc1234')).toEqual(['Review of commit abc1234: no findings']);
  // Outside the workspace the path stays absolute.
  expect(findingLocation({ ...parsed.output.findings[0]!, code_location: { absolute_file_path: '/elsewhere/f.ts', line_range: { start: 3, end: 3 } } }, CWD)).toBe('/elsewhere/f.ts:3');
});
