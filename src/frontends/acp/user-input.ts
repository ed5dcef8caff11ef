// The model's questions to the person in ACP terms. session/request_permission lets a person pick
// one of a few options, so one single-choice question maps onto it (each choice an option, plus
// a decline); several questions, or one that allows several choices, are declined with a reason
// the model reads.
import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, UserInputApprovalRequest, UserInputQuestion } from '../../protocol/index.js';

const DECLINE_OPTION = 'decline';

export type UserInputPlan =
  | { ask: true; toolCall: ToolCallUpdate; options: PermissionOption[]; answer(optionId: string | undefined): ApprovalAnswer }
  | { ask: false; answer: ApprovalAnswer };

export function planUserInput(request: UserInputApprovalRequest): UserInputPlan {
  const question: UserInputQuestion | undefined = request.questions.length === 1 ? request.questions[0] : undefined;
  if (!question || question.multi_select) {
    const why = question ? 'a question that allows several choices' : `${request.questions.length} questions at once`;
    return {
      ask: false,
      answer: {
        decision: 'deny',
        feedback:
          `rig did not show it: this editor can only be asked one single-choice question at a time, and this was ${why}. ` +
          'Ask one question with one answer per call, or ask in plain text.',
      },
    };
  }
  const options: PermissionOption[] = [
    ...question.options.map((option, index) => ({ optionId: `choice_${index}`, name: option.label, kind: 'allow_once' as const })),
    { optionId: DECLINE_OPTION, name: 'Decline to answer', kind: 'reject_once' },
  ];
  const details = question.options.map((option) => `- ${option.label}${option.description ? `: ${option.description}` : ''}`).join('\n');
  return {
    ask: true,
    options,
    toolCall: {
      toolCallId: request.item_id,
      title: question.header ? `${question.header}: ${question.question}` : question.question,
      kind: 'other',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text: `${question.question}\n${details}` } }],
    },
    answer: (optionId) => {
      if (optionId === undefined) return { decision: 'abort' };
      const match = /^choice_(\d+)$/.exec(optionId);
      const chosen = match ? question.options[Number(match[1])] : undefined;
      if (!chosen) return { decision: 'deny' };
      return { decision: 'approve', content: { [question.id]: { selected: [chosen.label] } } };
    },
  };
}
