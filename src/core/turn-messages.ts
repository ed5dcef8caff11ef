// The messages the turn loop itself puts into a thread's history: the person's input (with its
// images loaded), rig's developer notes, and the note an interrupted turn leaves for the model.
import type { ContentPart, ConversationItem, UserInput } from '../protocol/index.js';
import { loadImagePart } from '../tools/native/image-file.js';

const INTERRUPTED_NOTE =
  '<turn_aborted>The user interrupted the previous turn. Some tools may have been stopped part-way; check the state before continuing.</turn_aborted>';

// With multi_agent_v2 an agent's turn may be stopped by the agent that started it, not by a person.
const INTERRUPTED_DEVELOPER_NOTE =
  '<turn_aborted>The previous turn was interrupted before it finished (by the user or by the agent that assigned it). Tools may have stopped part-way: check the state of the workspace before you continue, and follow the newest instructions.</turn_aborted>';

export function developerMessage(text: string): ConversationItem {
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] };
}

export function userMessage(input: UserInput): ConversationItem {
  const content: ContentPart[] = [{ type: 'input_text', text: input.text }];
  for (const path of input.images ?? []) content.push(loadImagePart(path));
  return { type: 'message', role: 'user', content };
}

/** The model-visible note an interrupted turn leaves ([agents] interrupt_message, Codex's default on), if any. */
export function interruptionMessage(marker: 'user' | 'developer' | 'none'): ConversationItem | undefined {
  if (marker === 'user') return userMessage({ text: INTERRUPTED_NOTE });
  if (marker === 'developer') return developerMessage(INTERRUPTED_DEVELOPER_NOTE);
  return undefined;
}
