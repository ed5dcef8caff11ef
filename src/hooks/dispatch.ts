// runHooks: picks the handlers an event selects, runs them as Codex does (every synchronous handler
// at once, results reported in configured order), and folds their answers into one HookOutcome:
// any block wins and the first block's reason is given; contexts are kept in configured order; a
// rewritten tool input comes from the handler that finished last; for a permission answer any deny
// wins, else an allow; `continue: false` from any handler stops, and then no Stop block applies.
import { eventKeyLabel, eventScope, eventUsesMatcher, eventWireName, MAX_ASYNC_HOOKS, type HookEventName } from './events.js';
import { matcherMatches } from './matcher.js';
import { parseHandlerRun, type HandlerResult } from './parse-output.js';
import { runHookCommand } from './run-command.js';
import type {
  HookContext,
  HookDefinition,
  HookInputs,
  HookOutcome,
  HookRunSummary,
  HookStreamItem,
  ToolHookInput,
} from './types.js';

/** What the event's matchers are compared with. */
function matcherInputs(event: HookEventName, input: Record<string, unknown>): string[] {
  switch (event) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse': {
      const tool = input as unknown as ToolHookInput;
      return [tool.tool_name, ...(tool.matcher_aliases ?? [])];
    }
    case 'SessionStart':
      return [String(input['source'])];
    case 'SessionEnd':
      return [String(input['reason'])];
    case 'SubagentStart':
    case 'SubagentStop':
      return [String(input['agent_type'])];
    case 'PreCompact':
    case 'PostCompact':
      return [String(input['trigger'])];
    default:
      return [];
  }
}

export function selectHandlers(
  handlers: readonly HookDefinition[],
  event: HookEventName,
  input: Record<string, unknown>,
): HookDefinition[] {
  const inputs = eventUsesMatcher(event) ? matcherInputs(event, input) : undefined;
  return handlers
    .filter((h) => h.event === event && (inputs === undefined || matcherMatches(h.matcher, inputs)))
    .sort((a, b) => a.displayOrder - b.displayOrder);
}

function stdinJson(event: HookEventName, input: Record<string, unknown>, context: HookContext): string {
  const { matcher_aliases: _aliases, ...fields } = input;
  const common: Record<string, unknown> = {
    session_id: context.sessionId,
    transcript_path: context.transcriptPath ?? null,
    cwd: context.cwd,
    hook_event_name: event,
    model: context.model,
    permission_mode: context.permissionMode,
  };
  if (event !== 'SessionStart' && context.turnId !== undefined) common['turn_id'] = context.turnId;
  if (context.agentId !== undefined) common['agent_id'] = context.agentId;
  if (context.agentType !== undefined) common['agent_type'] = context.agentType;
  return JSON.stringify({ ...common, ...fields });
}

function summary(handler: HookDefinition, runId: string, mode: 'sync' | 'async'): HookRunSummary {
  return {
    id: runId,
    eventName: eventWireName(handler.event),
    handlerType: 'command',
    executionMode: mode,
    scope: eventScope(handler.event),
    sourcePath: handler.sourcePath,
    source: handler.scope,
    displayOrder: handler.displayOrder,
    status: 'running',
    ...(handler.statusMessage !== undefined ? { statusMessage: handler.statusMessage } : {}),
    startedAt: Math.floor(Date.now() / 1000),
    entries: [],
  };
}

interface Finished {
  handler: HookDefinition;
  result: HandlerResult;
  run: HookRunSummary;
  completionOrder: number;
}

let asyncRunning = 0;
const asyncQueue: (() => void)[] = [];

function startAsync(job: () => Promise<void>): void {
  const go = () => {
    asyncRunning++;
    void job().finally(() => {
      asyncRunning--;
      asyncQueue.shift()?.();
    });
  };
  if (asyncRunning < MAX_ASYNC_HOOKS) go();
  else asyncQueue.push(go);
}

export async function runHooks<E extends HookEventName>(
  event: E,
  input: HookInputs[E],
  context: HookContext,
): Promise<HookOutcome> {
  const fields = input as unknown as Record<string, unknown>;
  const selected = selectHandlers(context.handlers, event, fields);
  const outcome: HookOutcome = {
    event,
    runs: [],
    blocked: false,
    stop: false,
    additionalContexts: [],
    continuation: [],
    systemMessages: [],
  };
  if (selected.length === 0) return outcome;

  const stdin = stdinJson(event, fields, context);
  const projectDir = context.projectDir ?? context.cwd;
  const env: NodeJS.ProcessEnv = {
    ...(context.env ?? process.env),
    CLAUDE_PROJECT_DIR: projectDir,
    RIG_PROJECT_DIR: projectDir,
  };
  const threadId = context.sessionId;
  const turnId = event === 'SessionStart' ? null : (context.turnId ?? null);
  const emit = (item: HookStreamItem) => context.onItem?.(item);
  const suffix = typeof fields['tool_use_id'] === 'string' ? `:${fields['tool_use_id']}` : '';
  const runIdOf = (h: HookDefinition) => `${eventKeyLabel(h.event)}:${h.displayOrder}${suffix}`;

  const execute = async (handler: HookDefinition, mode: 'sync' | 'async') => {
    const run = summary(handler, runIdOf(handler), mode);
    emit({ type: 'hook/started', threadId, turnId, run: { ...run, entries: [] } });
    const raw = await runHookCommand({
      command: handler.command,
      stdin,
      cwd: context.cwd,
      env,
      timeoutSec: handler.timeoutSec,
      ...(context.shell !== undefined ? { shell: context.shell } : {}),
      ...(context.signal !== undefined ? { signal: context.signal } : {}),
      ...(context.scope !== undefined ? { scope: context.scope } : {}),
    });
    const result = parseHandlerRun(event, raw);
    const done: HookRunSummary = {
      ...run,
      status: result.status,
      startedAt: raw.startedAt,
      completedAt: raw.completedAt,
      durationMs: raw.durationMs,
      entries: result.entries,
    };
    emit({ type: 'hook/completed', threadId, turnId, run: done });
    return { result, run: done };
  };

  for (const handler of selected.filter((h) => h.async)) {
    startAsync(async () => {
      const { result } = await execute(handler, 'async');
      for (const text of result.contexts) context.onAsyncContext?.(event, text);
    });
  }

  let completion = 0;
  const finished = await Promise.all(
    selected
      .filter((h) => !h.async)
      .map(async (handler): Promise<Finished> => {
        const { result, run } = await execute(handler, 'sync');
        return { handler, result, run, completionOrder: completion++ };
      }),
  );
  return combine(outcome, finished);
}

function combine(outcome: HookOutcome, finished: Finished[]): HookOutcome {
  const results = finished.map((f) => f.result);
  outcome.runs = finished.map((f) => f.run);
  outcome.systemMessages = results.flatMap((r) => (r.systemMessage !== undefined ? [r.systemMessage] : []));
  outcome.additionalContexts = results.flatMap((r) => r.contexts);
  const stopper = results.find((r) => r.stop);
  if (stopper) {
    outcome.stop = true;
    const stopReason = results.find((r) => r.stop && r.stopReason !== undefined)?.stopReason;
    if (stopReason !== undefined) outcome.stopReason = stopReason;
  }
  const blocker = results.find((r) => r.block !== undefined);
  if (blocker) {
    outcome.blocked = true;
    outcome.reason = blocker.block!;
  }
  const decisions = results.map((r) => r.permissionDecision);
  if (decisions.includes('deny')) outcome.permissionDecision = 'deny';
  else if (decisions.includes('ask')) outcome.permissionDecision = 'ask';
  else if (decisions.includes('allow')) outcome.permissionDecision = 'allow';

  const deny = results.find((r) => r.permission?.behavior === 'deny');
  if (deny) outcome.permission = deny.permission!;
  else if (results.some((r) => r.permission?.behavior === 'allow')) outcome.permission = { behavior: 'allow' };
  if (deny?.permission?.behavior === 'deny') {
    outcome.blocked = true;
    outcome.reason ??= deny.permission.message;
  }

  if (!outcome.blocked) {
    const rewrites = finished.filter((f) => f.result.updatedInput !== undefined);
    const latest = rewrites.sort((a, b) => b.completionOrder - a.completionOrder)[0];
    if (latest) outcome.updatedInput = latest.result.updatedInput;
  }
  const feedback = results.flatMap((r) => r.feedback);
  if (feedback.length > 0) outcome.feedback = feedback.join('\n\n');
  if (!outcome.stop) {
    outcome.continuation = results.flatMap((r) => (r.continuation !== undefined ? [r.continuation] : []));
    if (outcome.continuation.length > 0 && (outcome.event === 'Stop' || outcome.event === 'SubagentStop')) {
      outcome.blocked = true;
      outcome.reason = outcome.continuation.join('\n\n');
    }
  }
  return outcome;
}
