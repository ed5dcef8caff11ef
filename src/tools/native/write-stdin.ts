// write_stdin: send characters to (or just poll) a session exec_command left running.
import type { ToolSpec } from '../spec.js';
import { nativeParameters } from './shipped-parameters.js';
import { renderUnifiedExecResult } from './render.js';
import { clamp, DEFAULT_MAX_OUTPUT_TOKENS } from './exec-command.js';
import { failure } from '../router.js';

const WRITE_DEFAULT_YIELD_MS = 250;
const WRITE_MAX_YIELD_MS = 30_000;
const POLL_MIN_YIELD_MS = 5_000;

interface WriteStdinArgs {
  session_id: number;
  chars?: string;
  yield_time_ms?: number;
  max_output_tokens?: number;
}

export function writeStdinTool(options: { backgroundMaxMs?: number } = {}): ToolSpec {
  const pollMax = options.backgroundMaxMs ?? 300_000;
  return {
    name: 'write_stdin',
    description: 'Write to the stdin of a running exec_command session and return its new output; empty chars polls.',
    kind: 'function',
    parameters: nativeParameters('write_stdin'),
    parallelSafe: false,
    async handle(raw, ctx) {
      const args = raw as WriteStdinArgs;
      const chars = args.chars ?? '';
      const requested = args.yield_time_ms ?? WRITE_DEFAULT_YIELD_MS;
      const yieldMs = chars === ''
        ? clamp(requested, POLL_MIN_YIELD_MS, pollMax)
        : clamp(requested, WRITE_DEFAULT_YIELD_MS, WRITE_MAX_YIELD_MS);
      try {
        const outcome = await ctx.caps.writeStdin(args.session_id, chars, yieldMs);
        return { output: renderUnifiedExecResult(outcome, args.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS), success: true };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
