// Putting the model's questions to the person: through the turn's approval channel, so whichever
// front end answers approvals answers these too. A session with nobody to ask (rig exec, a
// headless client) never emits the request: the caller tells the model to decide on its own.
import { readUserInputAnswers, type UserInputAnswers, type UserInputQuestion } from '../../protocol/index.js';
import type { TurnServices } from '../spec.js';

export interface UserInputQuestionRequest {
  itemId: string;
  tool: string;
  questions: UserInputQuestion[];
}

export type UserInputOutcome =
  | { kind: 'answered'; answers: UserInputAnswers }
  /** The person closed the questions without answering; with `note`, the front end could not show them and says why. */
  | { kind: 'declined'; note?: string }
  /** Nobody can answer in this session (a non-interactive run). */
  | { kind: 'nobody' }
  /** The turn was interrupted while the question was open. */
  | { kind: 'cancelled' };

export async function askUserQuestions(request: UserInputQuestionRequest, services: TurnServices): Promise<UserInputOutcome> {
  if (!services.canAskApproval) return { kind: 'nobody' };
  if (services.signal.aborted) return { kind: 'cancelled' };
  const answer = await services.askApproval({ kind: 'user_input', item_id: request.itemId, tool: request.tool, questions: request.questions });
  switch (answer.decision) {
    case 'approve':
    case 'approve_for_session':
    case 'approve_always':
      return { kind: 'answered', answers: readUserInputAnswers(answer.content, request.questions) };
    case 'deny':
      return { kind: 'declined', ...(answer.feedback ? { note: answer.feedback } : {}) };
    case 'abort':
      return { kind: 'cancelled' };
  }
}
