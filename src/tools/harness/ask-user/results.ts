// What the model reads back, in each original's shape: Codex's answers map, DeepSeek-TUI's answer
// list, Kimi's question -> answer JSON, Claude Code's one sentence. The wording is rig's own.
import type { UserInputAnswer, UserInputAnswers, UserInputQuestion } from '../../../protocol/index.js';
import type { ToolResult } from '../../spec.js';
import type { UserInputOutcome } from '../../orchestrator/index.js';
import type { AskStyle } from './questions.js';

/** The message for a session with nobody to answer (the issue's wording: decide, or stop and say what is needed). */
export const NOBODY_TO_ASK =
  'Nobody can answer questions in this session: it is a non-interactive run, so the question was not shown to anyone. ' +
  'Proceed on your own best judgement (say which choice you made and why), or stop and say what you need to know.';

function picked(answer: UserInputAnswer): string[] {
  return [...answer.selected, ...(answer.other !== undefined ? [answer.other] : [])];
}

function codexAnswers(questions: readonly UserInputQuestion[], answers: UserInputAnswers): string {
  const map: Record<string, { answers: string[] }> = {};
  for (const question of questions) {
    const answer = answers[question.id];
    if (!answer) continue;
    map[question.id] = { answers: [...answer.selected, ...(answer.other !== undefined ? [`user_note: ${answer.other}`] : [])] };
  }
  return JSON.stringify({ answers: map });
}

function deepseekAnswers(questions: readonly UserInputQuestion[], answers: UserInputAnswers): string {
  const list = questions.flatMap((question) => {
    const answer = answers[question.id];
    if (!answer) return [];
    const chosen = answer.selected.map((label) => ({ id: question.id, label, value: label }));
    return answer.other !== undefined ? [...chosen, { id: question.id, label: 'Other', value: answer.other }] : chosen;
  });
  return JSON.stringify({ answers: list });
}

/** Python's json.dumps spacing (", " and ": "), which the original's output has. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

function kimiAnswers(questions: readonly UserInputQuestion[], answers: UserInputAnswers): string {
  const map: Record<string, string> = {};
  for (const question of questions) {
    const answer = answers[question.id];
    if (answer) map[question.question] = picked(answer).join(', ');
  }
  return pythonJson({ answers: map });
}

function claudeAnswers(questions: readonly UserInputQuestion[], answers: UserInputAnswers): string {
  const pairs = questions.flatMap((question) => {
    const answer = answers[question.id];
    return answer ? [`"${question.question}"="${picked(answer).join(', ')}"`] : [];
  });
  if (pairs.length === 0) return 'The user skipped every question without choosing an answer. Continue on your own best judgement.';
  return `User has answered your questions: ${pairs.join(', ')}. You can now continue with the user's answers in mind.`;
}

export function answeredResult(style: AskStyle, questions: readonly UserInputQuestion[], answers: UserInputAnswers): ToolResult {
  const output =
    style === 'codex'
      ? codexAnswers(questions, answers)
      : style === 'deepseek'
        ? deepseekAnswers(questions, answers)
        : style === 'kimi'
          ? kimiAnswers(questions, answers)
          : claudeAnswers(questions, answers);
  return { output, success: true };
}

/** Any outcome but an answer: declined, nobody to ask, cancelled. */
export function unansweredResult(style: AskStyle, tool: string, outcome: Exclude<UserInputOutcome, { kind: 'answered' }>): ToolResult {
  if (outcome.kind === 'nobody') {
    return style === 'kimi' ? { output: pythonJson({ answers: {}, note: NOBODY_TO_ASK }), success: false } : { output: NOBODY_TO_ASK, success: false };
  }
  if (outcome.kind === 'cancelled') return { output: `${tool} was cancelled before the user answered (the turn was interrupted).`, success: false };
  // A note means the front end could not show the questions (and says why); without one the person declined.
  if (outcome.note) {
    const why = `The questions were not shown to the user: ${outcome.note}`;
    return style === 'kimi' ? { output: pythonJson({ answers: {}, note: why }), success: false } : { output: why, success: false };
  }
  if (style === 'kimi') return { output: pythonJson({ answers: {}, note: 'The user dismissed the questions without answering.' }), success: true };
  if (style === 'deepseek') return { output: 'User input cancelled: the user closed the questions without answering.', success: false };
  return { output: 'The user declined to answer these questions. Do not ask them again; continue on your own best judgement or ask in plain text.', success: false };
}
