// The model's questions at the line REPL: each question with its numbered choices; the person
// types a number (several, comma-separated, where the question allows it) or their own words.
// An empty line skips the question, "!decline" declines them all, and the end of input stops the turn.
import type { ApprovalAnswer, UserInputAnswer, UserInputAnswers, UserInputApprovalRequest, UserInputQuestion } from '../../protocol/index.js';
import type { ApprovalIo } from './approval.js';

/** The answer a typed line gives, or a message saying what to type. */
export function parseUserInputLine(question: UserInputQuestion, line: string): { answer?: UserInputAnswer } | { problem: string } {
  const text = line.trim();
  if (text === '') return {};
  const parts = text.split(',').map((part) => part.trim());
  if (parts.every((part) => /^\d+$/.test(part))) {
    const picked = parts.map((part) => question.options[Number(part) - 1]);
    if (picked.some((option) => option === undefined)) return { problem: `choose 1 to ${question.options.length}` };
    if (picked.length > 1 && !question.multi_select) return { problem: 'choose one number (this question takes one answer)' };
    return { answer: { selected: [...new Set(picked.map((option) => option!.label))] } };
  }
  if (!question.allow_other) return { problem: `choose 1 to ${question.options.length}` };
  return { answer: { selected: [], other: text } };
}

export async function askUserInput(request: UserInputApprovalRequest, io: ApprovalIo): Promise<ApprovalAnswer> {
  const who = request.agent_path ? ` (${request.agent_path})` : '';
  io.write(`the agent asks${who} (an empty line skips a question; !decline declines them all):\n`);
  const answers: UserInputAnswers = {};
  for (const question of request.questions) {
    io.write(`\n${question.header ? `[${question.header}] ` : ''}${question.question}\n`);
    question.options.forEach((option, index) => io.write(`  ${index + 1}. ${option.label}${option.description ? ` - ${option.description}` : ''}\n`));
    const hint = `${question.multi_select ? 'numbers, comma-separated' : 'a number'}${question.allow_other ? ', or your own answer' : ''}`;
    for (;;) {
      const line = await io.readLine(`(${hint}) > `);
      if (line === undefined) return { decision: 'abort' };
      if (line.trim() === '!decline') return { decision: 'deny' };
      const parsed = parseUserInputLine(question, line);
      if ('problem' in parsed) {
        io.write(`${parsed.problem}\n`);
        continue;
      }
      if (parsed.answer) answers[question.id] = parsed.answer;
      break;
    }
  }
  return { decision: 'approve', content: answers as Record<string, unknown> };
}
