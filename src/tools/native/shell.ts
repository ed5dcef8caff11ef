// The classic shell tools: `shell` (an argv, as older Codex models were trained on) and
// `shell_command` (a script string). Both run to completion with a timeout.
import type { ToolSpec } from '../spec.js';
import { nativeParameters } from './shipped-parameters.js';
import { escalationOf, type EscalationArgs } from './escalation.js';
import { resolveWorkdir } from './exec-command.js';
import { applyPatchThroughShell } from './apply-patch.js';
import { renderShellResult } from './render.js';
import { failure } from '../router.js';

export const SHELL_DEFAULT_TIMEOUT_MS = 10_000;

interface ShellArgs extends EscalationArgs {
  command: string[];
  workdir?: string;
  timeout_ms?: number;
}

interface ShellCommandArgs extends EscalationArgs {
  command: string;
  workdir?: string;
  timeout_ms?: number;
  timeout?: number;
}

/** Quotes an argv for display the way a shell user would type it. */
export function shellJoin(argv: string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function shellTool(): ToolSpec {
  return {
    name: 'shell',
    description: 'Run a command given as an argv array (passed to execvp); usually prefix it with ["bash", "-lc"]. Returns exit code and output.',
    kind: 'function',
    parameters: nativeParameters('shell'),
    parallelSafe: false,
    runsCommands: true,
    async handle(raw, ctx) {
      const args = raw as ShellArgs;
      if (args.command.length === 0) return failure('invalid arguments for shell: field "command" must not be empty');
      const cwd = resolveWorkdir(ctx.cwd, args.workdir);
      const patched = await applyPatchThroughShell(args.command, cwd, ctx);
      if (patched) return patched;
      const outcome = await ctx.caps.exec({
        command: shellJoin(args.command),
        argv: args.command,
        cwd,
        timeoutMs: args.timeout_ms ?? SHELL_DEFAULT_TIMEOUT_MS,
        escalation: escalationOf(args),
      });
      if (outcome.declined !== undefined) return failure(outcome.declined);
      return { output: renderShellResult(outcome, args.timeout_ms ?? SHELL_DEFAULT_TIMEOUT_MS), success: outcome.exitCode === 0 };
    },
  };
}

export function shellCommandTool(): ToolSpec {
  return {
    name: 'shell_command',
    description: 'Run a shell script in the user\'s shell and return its exit code and output. Set workdir instead of using cd.',
    kind: 'function',
    parameters: nativeParameters('shell_command'),
    parallelSafe: false,
    runsCommands: true,
    async handle(raw, ctx) {
      const args = raw as ShellCommandArgs;
      const cwd = resolveWorkdir(ctx.cwd, args.workdir);
      const patched = await applyPatchThroughShell(args.command, cwd, ctx);
      if (patched) return patched;
      const timeoutMs = args.timeout_ms ?? args.timeout ?? SHELL_DEFAULT_TIMEOUT_MS;
      const outcome = await ctx.caps.exec({ command: args.command, cwd, timeoutMs, escalation: escalationOf(args) });
      if (outcome.declined !== undefined) return failure(outcome.declined);
      return { output: renderShellResult(outcome, timeoutMs), success: outcome.exitCode === 0 };
    },
  };
}
