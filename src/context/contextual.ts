// Context fragments the engine injects as user-role messages. They are not things the user said:
// compaction does not keep them as "user messages", and titles skip them.
import type { ConversationItem, MessageItem } from '../protocol/index.js';

export const AGENTS_MD_START = '# AGENTS.md instructions';
export const INSTRUCTIONS_OPEN = '<INSTRUCTIONS>';
export const INSTRUCTIONS_CLOSE = '</INSTRUCTIONS>';
export const ENVIRONMENT_CONTEXT_OPEN = '<environment_context>';
export const ENVIRONMENT_CONTEXT_CLOSE = '</environment_context>';

/** Opening tags of every fragment Codex (and so rig) wraps context in. */
export const CONTEXT_FRAGMENT_TAGS: readonly string[] = [
  ENVIRONMENT_CONTEXT_OPEN,
  '<permissions instructions>',
  '<skills_instructions>',
  '<apps_instructions>',
  '<plugins_instructions>',
  '<collaboration_mode>',
  '<multi_agent_mode>',
  '<environments_instructions>',
  '<personality_spec>',
  '<model_switch>',
  '<turn_aborted>',
  '<user_shell_command>',
  '<subagent_notification>',
  '<user_instructions>',
  '<context_window>',
  '<realtime_conversation>',
  // A skill's body loaded for a `$name` mention, and text hooks added (core/hook-points.ts).
  '<skill>',
  '<hook_context',
  // What an undo put back (core/undo-notes.ts).
  '<undo_notice>',
];

export function isContextFragmentText(text: string): boolean {
  const t = text.trimStart();
  if (t.startsWith(AGENTS_MD_START)) return true;
  return CONTEXT_FRAGMENT_TAGS.some((tag) => t.startsWith(tag));
}

function textOf(item: MessageItem): string {
  return item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

/** A user-role message whose every text part is an injected context fragment. */
export function isContextualUserMessage(item: ConversationItem): boolean {
  if (item.type !== 'message' || item.role !== 'user') return false;
  const texts = item.content.flatMap((p) => (p.type === 'input_image' ? [] : [p.text]));
  return texts.length > 0 && texts.every(isContextFragmentText);
}

export function userMessageText(item: MessageItem): string {
  return textOf(item);
}
