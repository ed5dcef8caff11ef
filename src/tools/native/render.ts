// Renders an ExecOutcome in the layouts Codex models were trained on (see exec/format.ts).
import { formatShellOutput, formatUnifiedExecResponse, newChunkId } from '../../exec/format.js';
import { approxTokensFromBytes } from '../../exec/truncate.js';
import type { ExecOutcome } from '../spec.js';

export function renderUnifiedExecResult(outcome: ExecOutcome, maxOutputTokens: number): string {
  const running = outcome.sessionId !== undefined;
  return formatUnifiedExecResponse(
    {
      chunkId: newChunkId(),
      wallTimeMs: outcome.wallTimeMs,
      ...(running ? { sessionId: outcome.sessionId } : { exitCode: outcome.exitCode }),
      originalTokenCount: approxTokensFromBytes(outcome.totalBytes),
      output: outcome.output,
      ...(outcome.prunedSessionIds?.length ? { prunedSessionIds: outcome.prunedSessionIds } : {}),
    },
    { maxOutputTokens },
  );
}

export function renderShellResult(outcome: ExecOutcome, timeoutMs: number): string {
  return formatShellOutput({
    exitCode: outcome.exitCode ?? -1,
    wallTimeMs: outcome.timedOut ? timeoutMs : outcome.wallTimeMs,
    timedOut: outcome.timedOut,
    output: outcome.output,
  });
}
