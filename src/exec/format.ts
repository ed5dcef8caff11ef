// The exact text a model reads back from the shell tools. Models were trained on these layouts,
// so every line and label matches Codex's.
import {
  DEFAULT_TRUNCATION_POLICY,
  countLines,
  formattedTruncateText,
  tokenBudget,
  truncateText,
  type TruncationPolicy,
} from './truncate.js';

/** Default `max_output_tokens` for exec_command / write_stdin. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;

/**
 * Six random hex characters identifying one chunk of session output. An opaque label, not a
 * secret: Math.random, because node:crypto's first load (OpenSSL's start-up, ~5 ms) would land on
 * a session's first command.
 */
export function newChunkId(): string {
  return Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0');
}

export interface UnifiedExecResponse {
  /** Omitted from the text when empty. */
  chunkId: string;
  wallTimeMs: number;
  /** Present when the process finished during this call. */
  exitCode?: number | null;
  /** Present while the process keeps running. */
  sessionId?: number;
  originalTokenCount?: number;
  output: string;
  /** Sessions closed to make room for this one (rig addition; a line only when non-empty). */
  prunedSessionIds?: number[];
}

/**
 * exec_command / write_stdin output:
 * `Chunk ID: ab12cd\nWall time: 1.2345 seconds\nProcess exited with code 0\nOriginal token count: N\nOutput:\n...`
 */
export function formatUnifiedExecResponse(
  response: UnifiedExecResponse,
  options: { maxOutputTokens?: number; policy?: TruncationPolicy } = {},
): string {
  const lines: string[] = [];
  if (response.chunkId) lines.push(`Chunk ID: ${response.chunkId}`);
  lines.push(`Wall time: ${(response.wallTimeMs / 1000).toFixed(4)} seconds`);
  if (response.exitCode !== undefined && response.exitCode !== null) {
    lines.push(`Process exited with code ${response.exitCode}`);
  }
  if (response.sessionId !== undefined) {
    lines.push(`Process running with session ID ${response.sessionId}`);
  }
  if (response.originalTokenCount !== undefined) {
    lines.push(`Original token count: ${response.originalTokenCount}`);
  }
  for (const id of response.prunedSessionIds ?? []) {
    lines.push(
      `Note: session ${id} was closed and its process killed to stay within the live session limit.`,
    );
  }
  const policy = options.policy ?? DEFAULT_TRUNCATION_POLICY;
  const maxTokens = Math.min(
    options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    tokenBudget(policy),
  );
  lines.push('Output:');
  lines.push(formattedTruncateText(response.output, { mode: 'tokens', limit: maxTokens }));
  return lines.join('\n');
}

export interface ShellExecResult {
  exitCode: number;
  wallTimeMs: number;
  timedOut: boolean;
  output: string;
}

/**
 * shell / shell_command output:
 * `Exit code: 0\nWall time: 0.4 seconds\n[Total output lines: N\n]Output:\n...`;
 * a timed-out body starts with `command timed out after <ms> milliseconds\n`.
 */
export function formatShellOutput(
  result: ShellExecResult,
  policy: TruncationPolicy = DEFAULT_TRUNCATION_POLICY,
): string {
  const content = result.timedOut
    ? `command timed out after ${Math.floor(result.wallTimeMs)} milliseconds\n${result.output}`
    : result.output;
  const totalLines = countLines(content);
  const body = truncateText(content, policy);
  const lines = [`Exit code: ${result.exitCode}`, `Wall time: ${formatSeconds1(result.wallTimeMs)} seconds`];
  if (totalLines !== countLines(body)) lines.push(`Total output lines: ${totalLines}`);
  lines.push('Output:');
  lines.push(body);
  return lines.join('\n');
}

/** Seconds rounded to one decimal, printed the shortest way (`0.4`, `2`, `12.3`). */
function formatSeconds1(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
