// A task, whatever format it came from: what the agent is asked, which repository it works in, and
// how the result is checked afterwards. Paths are absolute; everything is plain JSON, so a task can
// travel to a queue worker inside a job.

export type TaskFormat = 'rig' | 'swebench' | 'harbor';

/** Where a task was read from, for messages. */
export interface TaskSource {
  file: string;
  /** 1-based line of a JSONL row. */
  line?: number;
}

/** How a finished trial is scored. Every check runs in a fresh sandbox after the agent has stopped. */
export type CheckSpec =
  | {
      /** rig's own format: a shell command; exit 0 means reward 1. */
      kind: 'command';
      command: string;
      /** Copied over the workspace after the agent stops, so the agent cannot change the tests. */
      testsDir?: string;
      env?: Record<string, string>;
    }
  | {
      /** Harbor / Terminal-Bench: tests/test.sh writes the reward to /logs/verifier/reward.{txt,json}. */
      kind: 'harbor';
      testsDir: string;
      /** Where the workspace appears inside the check's sandbox (the Dockerfile's WORKDIR). */
      workdir: string;
      env?: Record<string, string>;
    }
  | {
      /** SWE-bench: apply test_patch, then FAIL_TO_PASS and PASS_TO_PASS must all pass. */
      kind: 'swebench';
      testCommand: string;
      testPatch?: string;
      failToPass: string[];
      passToPass: string[];
    };

/** A known-good solution, used to prove a task's check fails before and passes after. */
export type SolutionSpec =
  | { kind: 'overlay'; dir: string }
  | { kind: 'script'; file: string }
  | { kind: 'patch'; patch: string };

export interface EvalTask {
  id: string;
  format: TaskFormat;
  source: TaskSource;
  prompt: string;
  /** The folder the trial's copy is made from. */
  repo: string;
  /** With a git repository: the commit to check out (default HEAD). */
  commit?: string;
  /** Names (relative to `repo`) left out of the copy, e.g. a Harbor environment's Dockerfile. */
  exclude?: string[];
  /** Shell command run in the fresh copy (sandboxed, offline) before the agent starts. */
  setup?: string;
  check: CheckSpec;
  /** Wall-clock budget of the agent, from the task file. */
  agentTimeoutMs?: number;
  checkTimeoutMs?: number;
  /** Token budget (input + output) of the agent, from the task file. */
  maxTokens?: number;
  solution?: SolutionSpec;
  tags?: string[];
}

/** Thrown for a bad task file; the message names the file, line and field, and how to fix it. */
export class TaskFileError extends Error {
  override readonly name = 'TaskFileError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly field: string | undefined,
    problem: string,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${field !== undefined ? `field \`${field}\`: ` : ''}${problem}`);
  }
}

/** Task ids become folder names and job ids: keep them to a safe alphabet. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
