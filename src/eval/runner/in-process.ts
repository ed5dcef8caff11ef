// The in-process runner (the default): each trial is an engine thread in this process, started in
// the trial's workspace with the matrix cell's harness, model and provider, the workspace-write
// sandbox and nobody to ask for approvals. Every trial gets an Engine of its own, built on the
// trial's environment (its TMPDIR, which the sandbox makes writable), so trials running side by
// side share no thread, process scope, approval cache or model client. The budgets act through
// the engine: an abort (wall clock, tokens, Ctrl-C) interrupts the turn, which kills the commands
// it waits on; closing the engine then kills whatever the thread left running and closes its
// rollout. A trial whose turn does not end after the interrupt is abandoned after a grace period,
// so one stuck agent holds up nothing but its own slot.
import { Engine, type EngineOptions, type ThreadStartRequest } from '../../core/engine.js';
import type { ThreadHandle, TurnResult } from '../../core/thread-handle.js';
import type { AgentObserver, AgentOutcome, AgentRequest, TrialRunner } from './types.js';

/** How long an interrupted turn, and then closing its engine, may take before the trial is given up. */
export const STOP_GRACE_MS = 5000;

export interface InProcessRunnerOptions {
  stopGraceMs?: number;
  /** Tests: the model client of every trial's engine (see EngineOptions.modelClient). */
  modelClient?: EngineOptions['modelClient'];
}

/** The thread a trial's agent runs in: what `rig exec --json` gets from the isolate runner's flags. */
export function trialThreadRequest(request: AgentRequest): ThreadStartRequest {
  return {
    cwd: request.workspace,
    ...(request.profile ? { profile: request.profile } : {}),
    // Only the workspace and the trial's own TMPDIR are writable: not /tmp, where the other
    // trials' workspaces are. A -c from the user comes later and wins.
    config: ['sandbox_workspace_write.exclude_slash_tmp=true', ...request.config, ...(request.maxSteps !== undefined ? [`max_turn_steps=${request.maxSteps}`] : [])],
    overrides: {
      harness: request.harness,
      model: request.model,
      ...(request.replayFile ? { replayFile: request.replayFile } : { provider: request.provider }),
      sandbox: 'workspace-write',
      approvalPolicy: 'never',
    },
    canAskApproval: false,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether `work` settled within `ms` (it keeps running either way). */
function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void work.then(
      () => resolve(true),
      () => resolve(true),
    ).finally(() => clearTimeout(timer));
  });
}

/** The turn's result; undefined when `signal` aborted and the turn had not ended `graceMs` later. */
function turnEnd(done: Promise<TurnResult>, signal: AbortSignal, graceMs: number): Promise<TurnResult | undefined> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => resolve(undefined), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void done.then((result) => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    });
  });
}

export class InProcessRunner implements TrialRunner {
  readonly name = 'in-process' as const;
  private readonly graceMs: number;

  constructor(private readonly options: InProcessRunnerOptions = {}) {
    this.graceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  }

  async run(request: AgentRequest, observer: AgentObserver, signal: AbortSignal): Promise<AgentOutcome> {
    const startedAt = performance.now();
    const engine = new Engine({ env: request.env, source: 'eval', ...(this.options.modelClient ? { modelClient: this.options.modelClient } : {}) });
    let threadId: string | undefined;
    let streamError: string | undefined;
    const unsubscribe = engine.subscribe(({ event }) => {
      if (event.type === 'thread.started') threadId = event.thread_id;
      if (event.type === 'error') streamError ??= event.message;
      if (event.type === 'usage.updated') observer.usage(event.total);
      observer.event(event);
    });
    const finish = async (outcome: Omit<AgentOutcome, 'durationMs' | 'threadId' | 'rolloutPath'>, thread?: ThreadHandle): Promise<AgentOutcome> => {
      const closed = await settlesWithin(engine.close(), this.graceMs);
      unsubscribe();
      const error = closed ? outcome.error : [outcome.error, `closing the agent's thread took over ${this.graceMs / 1000} s; it was left behind (its rollout may be incomplete)`].filter(Boolean).join('; ');
      return {
        ...outcome,
        ...(error ? { error } : {}),
        ...(threadId ? { threadId } : {}),
        ...(thread?.info.rolloutPath ? { rolloutPath: thread.info.rolloutPath } : {}),
        durationMs: performance.now() - startedAt,
      };
    };

    let thread: ThreadHandle;
    try {
      thread = await engine.startThread(trialThreadRequest(request));
    } catch (error) {
      return finish({ status: 'crashed', error: `the agent could not start: ${message(error)}` });
    }
    if (signal.aborted) return finish({ status: 'interrupted' }, thread);

    const onAbort = () => void thread.interrupt();
    signal.addEventListener('abort', onAbort, { once: true });
    let result: TurnResult | undefined;
    try {
      result = await turnEnd(thread.startTurn({ text: request.prompt }).done, signal, this.graceMs);
    } catch (error) {
      // startTurn refused the input (over the length limit): nothing was sent.
      return finish({ status: 'failed', error: message(error) }, thread);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (!result) return finish({ status: 'interrupted', error: `the agent did not stop within ${this.graceMs / 1000} s of the interrupt and was abandoned` }, thread);
    if (signal.aborted || result.status === 'interrupted') return finish({ status: 'interrupted', usage: result.usage, ...(streamError ? { error: streamError } : {}) }, thread);
    if (result.status === 'failed') return finish({ status: 'failed', error: result.error ?? streamError ?? 'turn failed' }, thread);
    return finish({ status: 'completed', usage: result.usage }, thread);
  }
}
