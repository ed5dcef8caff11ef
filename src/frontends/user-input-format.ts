// How front ends show a question to the person and its answer in a transcript.
import { describeUserInputAnswer, type UserInputItem } from '../protocol/index.js';

/** "? Question -> answer" per question, then why nothing was answered when that is so. */
export function describeUserInputItem(item: UserInputItem): string {
  const lines = item.questions.map((question) => {
    const answer = item.status === 'completed' ? describeUserInputAnswer(item.answers?.[question.id]) : '(not answered)';
    return `? ${question.question} -> ${answer}`;
  });
  if (item.status !== 'completed' && item.error) lines.push(`  ${item.error.message}`);
  return lines.join('\n');
}
