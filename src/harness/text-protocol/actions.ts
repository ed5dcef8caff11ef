// What a model reply means under a harness's text protocol: run a hidden tool, answer with a
// format error, or end the task. Pure: the driver (driver.ts) turns the answer into a tool call.
import type { HarnessProfile } from '../profile.js';
import {
  parseEditorCommandLine,
  parseSweAgentAction,
  SWE_AGENT_FORMAT_ERROR,
  SWE_AGENT_TOOLS_FORMAT_ERROR,
  sweAgentSubmission,
} from '../text-actions/swe-agent.js';
import { parseTerminusReply, terminusParseErrorMessage } from '../text-actions/terminus-2.js';
import { sentinelFormatError, submissionFromObservation } from '../text-actions/mini-swe-agent.js';

/** The hidden tool a parse error is "called" on; its output is the harness's format-error message. */
export const FORMAT_ERROR_TOOL = 'format_error';

/**
 * Call id of the driver's look at the terminal before the first reply (Terminus 2); request
 * shaping moves its output into the instance template's `{{terminal_state}}`.
 */
export const INITIAL_SCREEN_CALL_ID = 'text_initial_screen';

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
  /**
   * A hidden tool run before the model is first asked (Terminus 2 looks at the terminal); its call
   * id is INITIAL_SCREEN_CALL_ID and request shaping puts its output in the instance template.
   */
  initialCall?: { name: string; arguments: Record<string, unknown> };
  /** Observations reach the model as user messages (so finishedBy reads those). */
  observationsAsMessages?: boolean;
}

function toolNamed(profile: HarnessProfile, capability: string, fallback: string): string {
  return profile.tools.find((tool) => tool.capability === capability)?.name ?? fallback;
}

function toolWith(profile: HarnessProfile, capability: string): string | undefined {
  return profile.tools.find((tool) => tool.capability === capability)?.name;
}

function sweAgent(profile: HarnessProfile): TextProtocol {
  const bash = toolNamed(profile, 'shell.bash', 'bash');
  const editor = toolNamed(profile, 'fs.str_replace_editor', 'str_replace_editor');
  // With a submit tool (review on submit, SWE-agent's default) `submit` runs it; without, it ends the task.
  const submit = toolWith(profile, 'swe.submit');
  return {
    sendsTools: false,
    observationsAsMessages: profile.request.tool_results.as_user_message,
    interpret(text) {
      const action = parseSweAgentAction(text);
      switch (action.kind) {
        case 'none':
          return { kind: 'format_error', message: SWE_AGENT_FORMAT_ERROR };
        case 'submit':
          return submit ? { kind: 'call', name: submit, arguments: {} } : { kind: 'finish' };
        case 'bash':
          return { kind: 'call', name: bash, arguments: { command: action.command } };
        case 'editor': {
          const args = parseEditorCommandLine(action.command);
          return typeof args === 'string' ? { kind: 'format_error', message: args } : { kind: 'call', name: editor, arguments: args };
        }
      }
    },
    finishedBy: sweAgentSubmission,
  };
}

/** SWE-agent's function-calling configuration: real tools; a reply without a call is a format error. */
function sweAgentTools(): TextProtocol {
  return {
    sendsTools: true,
    interpret: () => ({ kind: 'format_error', message: SWE_AGENT_TOOLS_FORMAT_ERROR }),
    finishedBy: sweAgentSubmission,
  };
}

/**
 * Terminus 2 (terminal_bench/agents/terminus_2/terminus_2.py, _run_agent_loop): the first look at
 * the terminal goes into the first message; the first task_complete runs its commands and asks
 * for confirmation (the keystrokes tool shows the question with the screen), and only a second
 * task_complete in a row ends the task. A parse error leaves a pending confirmation pending.
 */
function terminus(profile: HarnessProfile): TextProtocol {
  const keystrokes = toolNamed(profile, 'terminal.tmux', 'keystrokes');
  let confirming = false;
  return {
    sendsTools: false,
    initialCall: { name: keystrokes, arguments: { commands: [] } },
    interpret(text) {
      const parsed = parseTerminusReply(text);
      if (!parsed.ok) return { kind: 'format_error', message: terminusParseErrorMessage(parsed.error, parsed.warnings) };
      const { commands, taskComplete } = parsed.reply;
      if (taskComplete && confirming) {
        if (commands.length === 0) return { kind: 'finish' };
        return { kind: 'call', name: keystrokes, arguments: { commands }, thenFinish: true };
      }
      if (taskComplete) {
        confirming = true;
        return { kind: 'call', name: keystrokes, arguments: { commands, confirm_completion: true } };
      }
      confirming = false;
      return { kind: 'call', name: keystrokes, arguments: { commands, ...(parsed.warnings.length > 0 ? { warnings: parsed.warnings } : {}) } };
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
    case 'swe-agent-tools':
      return sweAgentTools();
    case 'terminus-json':
      return terminus(profile);
    case 'tools':
      return profile.submitSentinel !== undefined ? submitSentinel(profile.submitSentinel) : undefined;
  }
}
