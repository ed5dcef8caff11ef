// Codex's `notify`: after each agent turn the configured program runs with one more argument, a
// JSON payload describing the turn. Fire-and-forget, like Codex: stdio is closed, the turn does not
// wait, and a program that fails to start is reported, never fatal.
import { spawn } from 'node:child_process';

export interface TurnCompleteNotification {
  threadId: string;
  turnId: string;
  cwd: string;
  /** The front end (`rig-tui`, `rig-exec`, an app-server client's name). */
  client?: string;
  /** The user messages that started the turn. */
  inputMessages: string[];
  lastAssistantMessage: string | null;
}

/** The payload Codex appends (kebab-case keys, `type: "agent-turn-complete"`). */
export function notifyPayload(n: TurnCompleteNotification): string {
  return JSON.stringify({
    type: 'agent-turn-complete',
    'thread-id': n.threadId,
    'turn-id': n.turnId,
    cwd: n.cwd,
    ...(n.client !== undefined ? { client: n.client } : {}),
    'input-messages': n.inputMessages,
    'last-assistant-message': n.lastAssistantMessage,
  });
}

export interface NotifyResult {
  /** The program started (its exit is not awaited). */
  started: boolean;
  pid?: number;
  error?: string;
}

/**
 * Starts `argv` (the `notify` setting) with the payload as its last argument. Resolves once the
 * program has started or failed to; an empty argv does nothing.
 */
export function runNotify(
  argv: readonly string[],
  notification: TurnCompleteNotification,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<NotifyResult> {
  const [program, ...args] = argv;
  if (program === undefined || program === '') return Promise.resolve({ started: false });
  return new Promise((resolve) => {
    const child = spawn(program, [...args, notifyPayload(notification)], {
      cwd: options.cwd ?? notification.cwd,
      env: options.env ?? process.env,
      stdio: 'ignore',
      detached: true,
    });
    child.once('spawn', () => {
      child.unref();
      resolve({ started: true, ...(child.pid !== undefined ? { pid: child.pid } : {}) });
    });
    child.once('error', (error) => resolve({ started: false, error: `notify program ${program} could not start: ${error.message}` }));
  });
}
