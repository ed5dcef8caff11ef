// The seam between the eval runner and whatever runs the agent: an engine thread in this process
// (in-process.ts, the default) or a `rig exec --json` child per trial (isolate.ts, `--isolate`).
// Both have one contract: a runner gets the request, reports the thread's events (the one
// ThreadEvent union) and its running token usage, and stops when the signal aborts. Workspaces,
// budgets, checks and results stay with the trial (../trial.ts), identical for every runner.
import type { ThreadEvent, TokenUsage } from '../../protocol/index.js';

export interface AgentRequest {
  /** The trial's fresh copy of the repository: the agent's working root and its only writable root. */
  workspace: string;
  prompt: string;
  harness: string;
  model: string;
  provider: string;
  /** `-c key=value` overrides for the agent's config. */
  config: string[];
  /** A config profile (`--profile`). */
  profile?: string;
  /** Serve the model responses recorded in this rollout instead of calling the provider. */
  replayFile?: string;
  /** Most sampling steps in the turn (max_turn_steps). */
  maxSteps?: number;
  /** Environment of the agent process (RIG_HOME, API keys). */
  env: NodeJS.ProcessEnv;
}

export interface AgentObserver {
  event(event: ThreadEvent): void;
  /** The thread's cumulative usage so far (for the token budget). */
  usage(total: TokenUsage): void;
}

export type AgentStatus = 'completed' | 'failed' | 'interrupted' | 'crashed';

export interface AgentOutcome {
  status: AgentStatus;
  error?: string;
  threadId?: string;
  /** The thread's rollout, where the agent's engine wrote it. */
  rolloutPath?: string;
  /** Final cumulative usage, when the turn reported it. */
  usage?: TokenUsage;
  durationMs: number;
}

export type RunnerKind = 'isolate' | 'in-process';

export interface TrialRunner {
  readonly name: RunnerKind;
  /** Runs one turn of the agent on the request; never throws for an agent failure (that is an outcome). */
  run(request: AgentRequest, observer: AgentObserver, signal: AbortSignal): Promise<AgentOutcome>;
}
