// The user-role message that opens a thread's context (reference/context-and-state.md §2):
// one message with the AGENTS.md block and the environment block as separate content parts.
import type { ContentPart, MessageItem } from '../protocol/index.js';
import { buildUserInstructionsText } from './project-docs.js';

export function buildInitialContextMessage(options: {
  cwd: string;
  /** Combined instructions text from discoverProjectDocs; empty or undefined = none. */
  instructions?: string;
  /** A rendered <environment_context> block; undefined when disabled. */
  environmentContext?: string;
}): MessageItem | undefined {
  const content: ContentPart[] = [];
  if (options.instructions?.trim()) {
    content.push({ type: 'input_text', text: buildUserInstructionsText(options.cwd, options.instructions) });
  }
  if (options.environmentContext) content.push({ type: 'input_text', text: options.environmentContext });
  return content.length > 0 ? { type: 'message', role: 'user', content } : undefined;
}
