// The trial matrix: every (task, harness, model, trial index), each with a key that hashes what
// makes the trial what it is (the task's content, harness, model, provider, index, and the agent
// settings), so a finished key never runs again and a queue job id is idempotent.
import { createHash } from 'node:crypto';
import type { EvalTask } from './tasks/types.js';

export interface AgentSettings {
  provider: string;
  /** `-c key=value` overrides passed to every agent. */
  config: string[];
  profile?: string;
  /** Wall-clock budget per trial (a task's own timeout wins when given). */
  timeoutMs: number;
  /** Token budget per trial (input + output); undefined = none. */
  maxTokens?: number;
  maxSteps?: number;
  checkTimeoutMs: number;
}

export interface TrialSpec {
  key: string;
  task: EvalTask;
  harness: string;
  model: string;
  trial: number;
  settings: AgentSettings;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function trialKey(task: EvalTask, harness: string, model: string, trial: number, settings: AgentSettings): string {
  const { source: _source, ...content } = task;
  const hash = createHash('sha256').update(stable({ task: content, harness, model, trial, settings })).digest('hex');
  return `t${hash.slice(0, 31)}`;
}

export function buildMatrix(tasks: EvalTask[], harnesses: string[], models: string[], trials: number, settings: AgentSettings): TrialSpec[] {
  const specs: TrialSpec[] = [];
  // Trial index outermost: with a partial run, every cell has made the same progress.
  for (let trial = 0; trial < trials; trial++) {
    for (const task of tasks) {
      for (const model of models) {
        for (const harness of harnesses) {
          specs.push({ key: trialKey(task, harness, model, trial, settings), task, harness, model, trial, settings });
        }
      }
    }
  }
  return specs;
}
