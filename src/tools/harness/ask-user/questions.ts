// Reading each harness's question arguments into the engine's UserInputQuestion, with the
// original's limits and an error naming the field the model got wrong.
import type { UserInputQuestion } from '../../../protocol/index.js';
import type { Args } from '../common.js';

/**
 * codex: request_user_input (id, header, question, options{label, description}; a typed answer is
 * always allowed); deepseek: the same shape with DeepSeek-TUI's limits (1-3 questions, 2-3
 * options, nothing empty); kimi: AskUserQuestion with multi_select and optional header/description;
 * claude: AskUserQuestion with multiSelect (Claude Code's shape, which zcode sends too).
 */
export type AskStyle = 'codex' | 'deepseek' | 'kimi' | 'claude';
export const ASK_STYLES: readonly AskStyle[] = ['codex', 'deepseek', 'kimi', 'claude'];

interface Limits {
  maxQuestions: number;
  minOptions: number;
  maxOptions: number;
  /** header, id and option descriptions must be non-empty strings. */
  strictText: boolean;
}

const LIMITS: Record<AskStyle, Limits> = {
  codex: { maxQuestions: 4, minOptions: 1, maxOptions: 8, strictText: false },
  deepseek: { maxQuestions: 3, minOptions: 2, maxOptions: 3, strictText: true },
  kimi: { maxQuestions: 4, minOptions: 2, maxOptions: 4, strictText: false },
  claude: { maxQuestions: 4, minOptions: 2, maxOptions: 4, strictText: false },
};

export class QuestionArgsError extends Error {}

function text(record: Record<string, unknown>, field: string, at: string, required: boolean, nonEmpty: boolean): string {
  const value = record[field];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string') throw new QuestionArgsError(`${at}.${field} must be a string${required ? ' (it is required)' : ''}`);
  if (nonEmpty && value.trim() === '') throw new QuestionArgsError(`${at}.${field} must not be empty`);
  return value;
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new QuestionArgsError(`${at} must be an object`);
  return value as Record<string, unknown>;
}

/** The questions of a call, or QuestionArgsError saying what to fix. */
export function readQuestions(args: Args, style: AskStyle): UserInputQuestion[] {
  const limits = LIMITS[style];
  const list = args['questions'];
  if (!Array.isArray(list)) throw new QuestionArgsError('questions must be an array of question objects');
  if (list.length === 0 || list.length > limits.maxQuestions) {
    throw new QuestionArgsError(`questions must hold 1 to ${limits.maxQuestions} questions, found ${list.length}`);
  }
  const keyed = style === 'codex' || style === 'deepseek';
  const seen = new Set<string>();
  return list.map((raw, index) => {
    const at = `questions[${index}]`;
    const record = object(raw, at);
    const question = text(record, 'question', at, true, true);
    const header = text(record, 'header', at, keyed || style === 'claude', limits.strictText);
    const id = keyed ? text(record, 'id', at, true, true) : `q${index + 1}`;
    if (seen.has(id)) throw new QuestionArgsError(`${at}.id "${id}" is used by an earlier question; give each question its own id`);
    seen.add(id);
    const options = record['options'];
    if (!Array.isArray(options) || options.length < limits.minOptions || options.length > limits.maxOptions) {
      const found = Array.isArray(options) ? `found ${options.length}` : 'it is missing';
      throw new QuestionArgsError(`${at}.options must hold ${limits.minOptions} to ${limits.maxOptions} choices, ${found}`);
    }
    const labels = new Set<string>();
    const read = options.map((option, n) => {
      const where = `${at}.options[${n}]`;
      const item = object(option, where);
      const label = text(item, 'label', where, true, true);
      if (labels.has(label)) throw new QuestionArgsError(`${where}.label "${label}" repeats an earlier choice of this question`);
      labels.add(label);
      const description = text(item, 'description', where, keyed || style === 'claude', limits.strictText);
      return { label, description };
    });
    const multi = style === 'kimi' ? record['multi_select'] : style === 'claude' ? record['multiSelect'] : false;
    return { id, header, question, options: read, multi_select: multi === true, allow_other: true };
  });
}
