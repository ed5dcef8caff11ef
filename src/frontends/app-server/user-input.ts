// The model's questions to the person as Codex's app-server asks them: `item/tool/requestUserInput`
// with the questions (every one allows a typed answer, as Codex's do), answered with the chosen
// labels or typed text per question id. An empty answer map skips every question; a client error
// (or a disconnect) declines.
import { answerFromStrings, type UserInputAnswers, type UserInputApprovalRequest } from '../../protocol/index.js';
import type { AskedRequest } from './mcp-approvals.js';

export function userInputRequest(request: UserInputApprovalRequest, threadId: string, turnId: string): AskedRequest {
  return {
    method: 'item/tool/requestUserInput',
    params: {
      threadId,
      turnId,
      itemId: request.item_id,
      questions: request.questions.map((question) => ({
        id: question.id,
        header: question.header,
        question: question.question,
        isOther: question.allow_other,
        isSecret: false,
        options: question.options.map((option) => ({ label: option.label, description: option.description })),
      })),
      isBlocking: true,
      autoResolutionMs: null,
    },
    answer: (result) => {
      const given = (result as { answers?: unknown } | null)?.answers;
      if (!given || typeof given !== 'object') return { decision: 'deny', feedback: 'the client answered without an answers map' };
      const answers: UserInputAnswers = {};
      for (const question of request.questions) {
        const values = (given as Record<string, { answers?: unknown } | undefined>)[question.id]?.answers;
        if (!Array.isArray(values)) continue;
        const answer = answerFromStrings(question, values.filter((value): value is string => typeof value === 'string'));
        if (answer.selected.length > 0 || answer.other !== undefined) answers[question.id] = answer;
      }
      return { decision: 'approve', content: answers as Record<string, unknown> };
    },
  };
}
