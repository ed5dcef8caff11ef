// Which runner a run uses: in-process unless `--isolate` asks for a process per trial.
import { InProcessRunner } from './in-process.js';
import { IsolateRunner } from './isolate.js';
import type { RunnerKind, TrialRunner } from './types.js';

export type { RunnerKind, TrialRunner } from './types.js';

export function createRunner(kind: RunnerKind): TrialRunner {
  return kind === 'isolate' ? new IsolateRunner() : new InProcessRunner();
}

export function runnerKind(isolate: boolean | undefined): RunnerKind {
  return isolate ? 'isolate' : 'in-process';
}
