// results.jsonl: one line per finished trial, appended once and never rewritten. A run killed
// mid-write leaves at most a torn last line, which readers skip and the next append closes off, so
// the file is always the list of finished trials (first line per key wins).
import { appendFileSync, closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import type { TaskFormat } from './tasks/types.js';
import type { CheckOutcome } from './check/run-check.js';
import type { RunnerKind } from './runner/types.js';

export type TrialStatus = 'passed' | 'failed' | 'error';
export type AgentEnd = 'completed' | 'failed' | 'timeout' | 'budget' | 'interrupted' | 'crashed' | 'not_started';

export interface TokenCounts {
  input: number;
  cached_input: number;
  output: number;
  reasoning: number;
}

export interface TrialTiming {
  /** Workspace creation to cleanup: the trial's wall time. */
  total_ms: number;
  setup_ms: number;
  agent_ms: number;
  /** Time waiting for model responses (from the rollout). */
  model_ms: number;
  /** Time running tools after a step's stream ended (from the rollout). */
  tool_ms: number;
  /** The agent's own time beyond model and tools: process start, config, prompt building, recording. */
  harness_overhead_ms: number;
  check_ms: number;
  cleanup_ms: number;
}

export interface TrialResult {
  v: 1;
  key: string;
  run_id: string;
  task: string;
  format: TaskFormat;
  harness: string;
  model: string;
  provider: string;
  trial: number;
  /** passed / failed by the check; error when the trial could not be run or scored. */
  status: TrialStatus;
  reward: number;
  pass: boolean;
  agent: { end: AgentEnd; error?: string };
  steps: number;
  tool_calls: number;
  tool_errors: number;
  failed_commands: number;
  tokens: TokenCounts;
  cost_usd: number | null;
  timing: TrialTiming;
  check: Pick<CheckOutcome, 'timedOut' | 'error' | 'details'> & { exit_code: number | null; output: string };
  /** The rollout copied into the run folder (relative to it), or where the agent wrote it. */
  rollout: string | null;
  thread_id: string | null;
  /** Where the workspace was (replays recreate it at the same path). */
  workspace: string;
  runner: RunnerKind;
  worker: string;
  started_at: string;
  finished_at: string;
  /** Why the trial could not be run or scored (setup failed, workspace could not be made, ...). */
  error?: string;
  /** In replay runs: how this trial departed from its recording. */
  divergences?: Divergence[];
}

export interface Divergence {
  kind: 'request' | 'tool_calls' | 'history' | 'outcome';
  message: string;
}

export class ResultsFile {
  constructor(readonly path: string) {}

  /** Finished trials, first per key; a torn or corrupt line is skipped. */
  read(): TrialResult[] {
    if (!existsSync(this.path)) return [];
    const seen = new Set<string>();
    const results: TrialResult[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let value: TrialResult;
      try {
        value = JSON.parse(line) as TrialResult;
      } catch {
        continue;
      }
      if (typeof value?.key !== 'string' || seen.has(value.key)) continue;
      seen.add(value.key);
      results.push(value);
    }
    return results;
  }

  /** Closes off a torn last line, so the next append starts a line of its own. */
  repairTail(): void {
    if (!existsSync(this.path)) return;
    const fd = openSync(this.path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size === 0) return;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last.toString() !== '\n') appendFileSync(this.path, '\n');
    } finally {
      closeSync(fd);
    }
  }

  /** One write of one whole line (O_APPEND), so concurrent appends never interleave within a line. */
  append(result: TrialResult): void {
    appendFileSync(this.path, `${JSON.stringify(result)}\n`);
  }
}
