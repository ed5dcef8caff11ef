// exec_command: Codex's unified exec. Runs a shell command, returns what it printed within
// yield_time_ms, and keeps a still-running process as a session for write_stdin.
import { isAbsolute, resolve } from 'node:path';
import type { ToolSpec } from '../spec.js';
import { nativeParameters } from './shipped-parameters.js';
import { escalationOf, type EscalationArgs } from './escalation.js';
import { applyPatchThroughShell } from './apply-patch.js';
import { renderUnifiedExecResult } from './render.js';
import { failure } from '../router.js';

export const EXEC_DEFAULT_YIELD_MS = 10_000;
export const EXEC_MIN_YIELD_MS = 250;
export const EXEC_MAX_YIELD_MS = 30_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;

interface ExecCommandArgs extends EscalationArgs {
  cmd: string;
  workdir?: string;
  shell?: string;
  tty?: boolean;
  /** Codex 0.169's `login`: run the command in a login shell. */
  login?: boolean;
  yield_time_ms?: number;
  max_output_tokens?: number;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function resolveWorkdir(cwd: string, workdir: string | undefined): string {
  if (!workdir) return cwd;
  return isAbsolute(workdir) ? workdir : resolve(cwd, workdir);
}

export function execCommandTool(): ToolSpec {
  return {
    name: 'exec_command',
    description:
      'Run a shell command and return its output. A command still running after yield_time_ms keeps running as a session: poll it or send input with write_stdin.',
    kind: 'function',
    parameters: nativeParameters('exec_command'),
    parallelSafe: false,
    runsCommands: true,
    async handle(raw, ctx) {
      const args = raw as ExecCommandArgs;
      const cwd = resolveWorkdir(ctx.cwd, args.workdir);
      const patched = await applyPatchThroughShell(args.cmd, cwd, ctx);
      if (patched) return patched;
      const outcome = await ctx.caps.exec({
        command: args.cmd,
        cwd,
        tty: args.tty ?? false,
        ...(args.login !== undefined ? { login: args.login } : {}),
        yieldTimeMs: clamp(args.yield_time_ms ?? EXEC_DEFAULT_YIELD_MS, EXEC_MIN_YIELD_MS, EXEC_MAX_YIELD_MS),
        escalation: escalationOf(args),
        ...(args.shell ? { shell: args.shell } : {}),
      });
      if (outcome.declined !== undefined) return failure(outcome.declined);
      return { output: renderUnifiedExecResult(outcome, args.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS), success: true };
    },
  };
}
