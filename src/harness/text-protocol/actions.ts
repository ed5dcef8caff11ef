// What a model reply means under a harness's text protocol: run a hidden tool, answer with a
// format error, or end the task. Pure: the driver (driver.ts) turns the answer into a tool call.
import type { HarnessProfile } from '../profile.js';
import { parseEditorCommandLine, parseSweAgentAction, SWE_AGENT_FORMAT_ERROR } from '../text-actions/swe-agent.js';
import { parseTerminusReply, terminusParseErrorMessage } from '../text-actions/terminus-2.js';
import { sentinelFormatError, submissionFromObservation } from '../text-actions/mini-swe-agent.js';

/** The hidden tool a parse error is "called" on; its output is the harness's format-error message. */
export const FORMAT_ERROR_TOOL = 'format_error';

export type ReplyAction =
  /** Run this hidden tool; `thenFinish` ends the turn once its result is in (Terminus task_complete). */
  | { kind: 'call'; name: string; arguments: Record<string, unknown>; thenFinish?: boolean }
  | { kind: 'format_error'; message: string }
  /** The task is done: the reply is the final message and no tool runs. */
  | { kind: 'finish' };

export interface TextProtocol {
  /** What a reply that made no tool call means. */
  interpret(text: string): ReplyAction;
  /** When the latest tool result ends the task: the final answer text ('' for none). */
  finishedBy?(observation: string): string | undefined;
  /** Whether the wire request keeps the (empty) tool list; text protocols send none. */
  sendsTools: boolean;
}

function toolNamed(profile: HarnessProfile, capability: string, fallback: string): string {
  return profile.tools.find((tool) => tool.capability === capability)?.name ?? fallback;
}

function sweAgent(profile: HarnessProfile): TextProtocol {
  const bash = toolNamed(profile, 'shell.bash', 'bash');
  const editor = toolNamed(profile, 'fs.str_replace_editor', 'str_replace_editor');
  return {
    sendsTools: false,
    interpret(text) {
      const action = parseSweAgentAction(text);
      switch (action.kind) {
        case 'none':
          return { kind: 'format_error', message: SWE_AGENT_FORMAT_ERROR };
        case 'submit':
          return { kind: 'finish' };
        case 'bash':
          return { kind: 'call', name: bash, arguments: { command: action.command } };
        case 'editor': {
          const args = parseEditorCommandLine(action.command);
          return typeof args === 'string' ? { kind: 'format_error', message: args } : { kind: 'call', name: editor, arguments: args };
        }
      }
    },
  };
}

function terminus(profile: HarnessProfile): TextProtocol {
  const keystrokes = toolNamed(profile, 'terminal.tmux', 'keystrokes');
  return {
    sendsTools: false,
    interpret(text) {
      const parsed = parseTerminusReply(text);
      if (!parsed.ok) return { kind: 'format_error', message: terminusParseErrorMessage(parsed.error, parsed.warnings) };
      const { commands, taskComplete } = parsed.reply;
      if (taskComplete && commands.length === 0) return { kind: 'finish' };
      return { kind: 'call', name: keystrokes, arguments: { commands }, ...(taskComplete ? { thenFinish: true } : {}) };
    },
  };
}

function submitSentinel(sentinel: string): TextProtocol {
  return {
    sendsTools: true,
    interpret: () => ({ kind: 'format_error', message: sentinelFormatError(sentinel) }),
    finishedBy: (observation) => submissionFromObservation(observation, sentinel),
  };
}

/** The text protocol a profile speaks, or undefined for plain tool calling. */
export function textProtocolFor(profile: HarnessProfile): TextProtocol | undefined {
  switch (profile.protocol) {
    case 'swe-agent-text':
      return sweAgent(profile);
    case 'terminus-json':
      return terminus(profile);
    case 'tools':
      return profile.submitSentinel !== undefined ? submitSentinel(profile.submitSentinel) : undefined;
  }
}
