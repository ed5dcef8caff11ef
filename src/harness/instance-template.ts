// The instance template: harnesses whose originals hand the model its task inside the first user
// message (mini-swe-agent's and SWE-agent's instance_template, Terminus 2's prompt template) get
// that message written through the profile's template. Pure, like the rest of request shaping.
import { machine, release, type as osType, version } from 'node:os';
import type { ContentPart, ConversationItem, MessageItem } from '../protocol/index.js';

export interface InstanceSlots {
  /** `uname -srvm` (mini-swe-agent's `<system_information>`); the running machine's when unset. */
  systemInformation?: string;
  /** The screen the terminal showed before the first reply (Terminus 2). */
  terminalState?: string;
}

/** What `uname -srvm` prints: kernel name, release, version and machine. */
export function systemInformation(): string {
  return `${osType()} ${release()} ${version()} ${machine()}`;
}

function text(item: MessageItem): string {
  return item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
}

/**
 * The index of the task message: the last user message of the messages that open the
 * conversation. Context the engine injects (AGENTS.md, environment) comes as user messages before
 * the user's own first prompt, and nothing but messages comes before that prompt.
 */
export function taskMessageIndex(input: readonly ConversationItem[]): number {
  let task = -1;
  for (const [index, item] of input.entries()) {
    if (item.type !== 'message' || item.role === 'assistant') break;
    if (item.role === 'user') task = index;
  }
  return task;
}

/**
 * Rewrites the task message through `template`: `{{task}}` is the message's text,
 * `{{system_information}}` and `{{terminal_state}}` come from `slots`; `fill` renders the other
 * slots (cwd, os, dates). Images of the message stay after the text.
 */
export function applyInstanceTemplate(
  template: string,
  input: ConversationItem[],
  slots: InstanceSlots,
  fill: (text: string) => string,
): ConversationItem[] {
  const index = taskMessageIndex(input);
  const task = input[index];
  if (task?.type !== 'message') return input;
  const values: Record<string, string> = {
    task: text(task),
    system_information: slots.systemInformation ?? systemInformation(),
    terminal_state: slots.terminalState ?? '',
  };
  // One pass after the other slots: braces in the task or on the screen are never read as slots.
  const rendered = fill(template)
    .trimEnd()
    .replace(/\{\{(task|system_information|terminal_state)\}\}/g, (_whole, name: string) => values[name] ?? '');
  const images: ContentPart[] = task.content.filter((part) => part.type === 'input_image');
  const out = [...input];
  out[index] = { ...task, content: [{ type: 'input_text', text: rendered }, ...images] };
  return out;
}
