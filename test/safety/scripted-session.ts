// A real engine thread (config, harness, safety, orchestrator, turn loop) whose model is a script
// the test feeds one call at a time. Each `call` runs one turn: the model makes the tool call, the
// engine runs it through the real tool path, and the test gets the output the model saw.
import fs from 'node:fs';
import path from 'node:path';
import { threadRequestFromFlags, type SessionFlags } from '../../src/cli/session-flags.js';
import type { ThreadHandle } from '../../src/core/thread-handle.js';
import type { ApprovalDecision, ApprovalRequest, ConversationItem, ModelEvent, ThreadEvent } from '../../src/protocol/index.js';
import { ScriptedClient, say, usage, type ScriptedStep } from '../support/scripted-client.js';
import { startTestThread, TEST_KEY_VALUE, TEST_KEY_VAR, writeTestHome } from '../support/engine.js';

export const API_KEY_VAR = TEST_KEY_VAR;
export const API_KEY_VALUE = TEST_KEY_VALUE;

/** Writes a RIG_HOME whose provider is `mock` (never contacted: the client is injected). */
export function writeRigHome(home: string, extra = ''): void {
  writeTestHome(home, extra);
}

/** A user harness binding the classic argv `shell` tool, which no built-in profile offers. */
export function writeClassicHarness(home: string): void {
  const dir = path.join(home, 'harnesses');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'classic.md'), 'Run commands with shell.\n');
  fs.writeFileSync(
    path.join(dir, 'classic.json'),
    JSON.stringify({
      format: 1,
      id: 'classic',
      description: 'argv shell and apply_patch (test harness)',
      wires: ['responses'],
      prompt_file: 'classic.md',
      tools: [
        { name: 'shell', capability: 'native.shell' },
        { name: 'apply_patch', capability: 'native.apply_patch' },
      ],
    }),
  );
}

export type Answer = ApprovalDecision | ((request: ApprovalRequest) => ApprovalDecision | undefined);

export interface ScriptedSession {
  /** The thread, as front ends drive it. */
  session: { thread: ThreadHandle };
  events: ThreadEvent[];
  /** Every approval request seen since the session opened. */
  asked: ApprovalRequest[];
  /** How approval requests are answered (default: deny, like `rig exec`). */
  answer: Answer;
  /** Runs one turn in which the model makes `item` (a function or custom tool call) then stops. */
  call(item: ConversationItem, extraSteps?: ScriptedStep[]): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallResult {
  /** The tool output the model received (text). */
  output: string;
  status: string;
  events: ThreadEvent[];
  asked: ApprovalRequest[];
}

export interface OpenOptions {
  home: string;
  cwd: string;
  flags?: SessionFlags;
  env?: NodeJS.ProcessEnv;
  /**
   * 'exec' (default) forces approval policy never unless a flag says otherwise; 'interactive' keeps
   * config's. Either way the test answers approvals (see `answer`).
   */
  mode?: 'exec' | 'interactive';
}

export async function openScriptedSession(options: OpenOptions): Promise<ScriptedSession> {
  const steps: ScriptedStep[] = [];
  const client = new ScriptedClient(steps);
  const { cwd: _cwd, ...request } = threadRequestFromFlags({ ephemeral: true, ...options.flags }, options.mode ?? 'exec', options.cwd);
  const started = await startTestThread({
    home: options.home,
    cwd: options.cwd,
    client,
    ...(options.env ? { env: options.env } : {}),
    // The test is the person asked; a rig exec front end would have nobody (canAskApproval false).
    request: { ...request, canAskApproval: true },
  });
  const thread = started.thread;
  const events: ThreadEvent[] = [];
  const asked: ApprovalRequest[] = [];
  const scripted: ScriptedSession = {
    session: { thread },
    events,
    asked,
    answer: 'deny',
    async call(item, extraSteps = []) {
      const eventStart = events.length;
      const askedStart = asked.length;
      steps.push(toolCallStep(item), ...extraSteps, say('done'));
      const result = await thread.startTurn({ text: 'go' }).done;
      // An interrupted turn leaves its unused steps behind: drop them so the next call starts clean.
      steps.length = 0;
      const callId = 'call_id' in item ? item.call_id : '';
      return {
        output: toolOutputText(thread, callId),
        status: result.status,
        events: events.slice(eventStart),
        asked: asked.slice(askedStart),
      };
    },
    close: () => started.close(),
  };
  thread.subscribe(({ event }) => {
    events.push(event);
    if (event.type !== 'approval.requested') return;
    asked.push(event.request);
    const decision = typeof scripted.answer === 'function' ? scripted.answer(event.request) : scripted.answer;
    if (decision !== undefined) queueMicrotask(() => thread.answerApproval(event.request.id, decision));
  });
  return scripted;
}

function toolCallStep(item: ConversationItem): ModelEvent[] {
  return [{ type: 'created' }, { type: 'item_done', item }, { type: 'completed', stop_reason: 'tool_use', usage: usage(20, 3) }];
}

/** The output of `callId` as the thread recorded it for the model. */
function toolOutputText(thread: ThreadHandle, callId: string): string {
  const history = thread.history;
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i]!;
    if ((item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && item.call_id === callId) {
      return typeof item.output === 'string' ? item.output : item.output.map((part) => ('text' in part ? part.text : '')).join('');
    }
  }
  return '';
}

export function fnCall(name: string, args: unknown, callId: string): ConversationItem {
  return { type: 'function_call', call_id: callId, name, arguments: JSON.stringify(args) };
}

export function customCall(name: string, input: string, callId: string): ConversationItem {
  return { type: 'custom_tool_call', call_id: callId, name, input };
}
