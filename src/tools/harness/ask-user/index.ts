// user.ask: questions to the person (Codex's and DeepSeek-TUI's request_user_input, Kimi Code's,
// zcode's and Claude Code's AskUserQuestion). The call becomes a user_input item and a request on
// the approval channel; the turn waits for the answer. `options.style` picks the original's
// argument names, limits and result shape.
import type { ResolvedTool } from '../../../harness/profile.js';
import type { UserInputItem } from '../../../protocol/index.js';
import type { ToolSpec } from '../../spec.js';
import { fail, functionSpec, styleOption } from '../common.js';
import { ASK_STYLES, QuestionArgsError, readQuestions } from './questions.js';
import { answeredResult, unansweredResult } from './results.js';

export { NOBODY_TO_ASK } from './results.js';

export function createAskUserTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, ASK_STYLES, 'codex');
  return functionSpec(
    tool,
    {
      description: 'Ask the user one to four short multiple-choice questions and wait for the answers.',
      parameters: { type: 'object', properties: { questions: { type: 'array', items: { type: 'object' } } }, required: ['questions'] },
      // One question at a time: a person answers them in order.
      parallelSafe: false,
    },
    async (args, ctx) => {
      let questions;
      try {
        questions = readQuestions(args, style);
      } catch (error) {
        if (error instanceof QuestionArgsError) return fail(`${tool.name}: ${error.message}. Fix the arguments and call ${tool.name} again.`);
        throw error;
      }
      const item: UserInputItem = { id: ctx.newItemId(), type: 'user_input', tool: tool.name, questions, answers: null, status: 'in_progress', error: null };
      ctx.emitItem('started', item);
      const outcome = ctx.caps.askUser ? await ctx.caps.askUser({ itemId: item.id, tool: tool.name, questions }) : ({ kind: 'nobody' } as const);
      if (outcome.kind === 'answered') {
        ctx.emitItem('completed', { ...item, answers: outcome.answers, status: 'completed' });
        return answeredResult(style, questions, outcome.answers);
      }
      const result = unansweredResult(style, tool.name, outcome);
      ctx.emitItem('completed', { ...item, status: outcome.kind === 'declined' ? 'declined' : 'failed', error: { message: String(result.output) } });
      return result;
    },
  );
}
