// A real session (openSession: config, harness, safety, orchestrator, Thread) whose model is a
// script the test feeds one call at a time. Each `call` runs one turn: the model makes the tool
// call, the engine runs it through the real tool path, and the test gets the output the model saw.
import fs from 'node:fs';
import path from 'node:path';
import { openSession, type Session } from '../../src/core/session.js';
import type { SessionFlags } from '../../src/core/settings.js';
import type { ApprovalDecision, ApprovalRequest, ConversationItem, ModelEvent, ThreadEvent } from '../../src/protocol/index.js';
import { ScriptedClient, say, usage, type ScriptedStep } from '../support/scripted-client.js';

export const API_KEY_VAR = 'MOCK_API_KEY';
export const API_KEY_VALUE = 'sk-mock-secret-do-not-leak-5f1e2d3c';

/** Writes a RIG_HOME whose provider is `mock` (never contacted: the client is injected). */
export function writeRigHome(home: string, extra = ''): void {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model_provider = "mock"',
      'model = "mock-model"',
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      'base_url = "http://127.0.0.1:9/v1"',
      'wire_api = "responses"',
      `env_key = "${API_KEY_VAR}"`,
      extra,
    ].join('\n'),
  );
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
  session: Session;
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
  /** 'exec' (default) forces approval policy never unless a flag says otherwise; 'interactive' keeps config's. */
  mode?: 'exec' | 'interactive';
}

export async function openScriptedSession(options: OpenOptions): Promise<ScriptedSession> {
  const steps: ScriptedStep[] = [];
  const client = new ScriptedClient(steps);
  const session = await openSession({
    flags: { ephemeral: true, ...options.flags },
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: options.home,
      RIG_HOME: options.home,
      [API_KEY_VAR]: API_KEY_VALUE,
      ...options.env,
    },
    processCwd: options.cwd,
    mode: options.mode ?? 'exec',
    client,
  });
  const events: ThreadEvent[] = [];
  const asked: ApprovalRequest[] = [];
  const scripted: ScriptedSession = {
    session,
    events,
    asked,
    answer: 'deny',
    async call(item, extraSteps = []) {
      const eventStart = events.length;
      const askedStart = asked.length;
      steps.push(toolCallStep(item), ...extraSteps, say('done'));
      const result = await session.thread.runTurn({ text: 'go' });
      // An interrupted turn leaves its unused steps behind: drop them so the next call starts clean.
      steps.length = 0;
      const callId = 'call_id' in item ? item.call_id : '';
      return {
        output: toolOutputText(session, callId),
        status: result.status,
        events: events.slice(eventStart),
        asked: asked.slice(askedStart),
      };
    },
    close: () => session.close(),
  };
  session.thread.subscribe((event) => {
    events.push(event);
    if (event.type !== 'approval.requested') return;
    asked.push(event.request);
    const decision = typeof scripted.answer === 'function' ? scripted.answer(event.request) : scripted.answer;
    if (decision !== undefined) queueMicrotask(() => session.thread.answerApproval(event.request.id, decision));
  });
  return scripted;
}

function toolCallStep(item: ConversationItem): ModelEvent[] {
  return [{ type: 'created' }, { type: 'item_done', item }, { type: 'completed', stop_reason: 'tool_use', usage: usage(20, 3) }];
}

/** The output of `callId` as the thread recorded it for the model. */
function toolOutputText(session: Session, callId: string): string {
  const history = session.thread.history as readonly ConversationItem[];
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
