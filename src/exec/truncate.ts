// Token-budget truncation of tool output, byte-for-byte compatible with Codex's rules so models
// trained on Codex see the markers they know: keep the start and the end, cut on UTF-8 character
// boundaries, and say how much was removed.

export type TruncationPolicy = { mode: 'tokens'; limit: number } | { mode: 'bytes'; limit: number };

/** What current OpenAI models use. */
export const DEFAULT_TRUNCATION_POLICY: TruncationPolicy = { mode: 'tokens', limit: 10_000 };

const BYTES_PER_TOKEN = 4;

/** ceil(bytes / 4) of the UTF-8 encoding. */
export function approxTokenCount(text: string): number {
  return approxTokensFromBytes(Buffer.byteLength(text, 'utf8'));
}

export function approxTokensFromBytes(bytes: number): number {
  return bytes <= 0 ? 0 : Math.ceil(bytes / BYTES_PER_TOKEN);
}

export function approxBytesForTokens(tokens: number): number {
  return Math.max(0, tokens) * BYTES_PER_TOKEN;
}

export function byteBudget(policy: TruncationPolicy): number {
  return policy.mode === 'bytes' ? policy.limit : approxBytesForTokens(policy.limit);
}

export function tokenBudget(policy: TruncationPolicy): number {
  return policy.mode === 'tokens' ? policy.limit : approxTokensFromBytes(policy.limit);
}

/** Number of lines as Rust's `str::lines()` counts them: a final newline does not start a line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  let at = text.indexOf('\n');
  while (at !== -1) {
    lines++;
    at = text.indexOf('\n', at + 1);
  }
  return text.endsWith('\n') ? lines : lines + 1;
}

/** Middle-truncate to `maxBytes`, marking the cut with `…N chars truncated…`. */
export function truncateMiddleChars(text: string, maxBytes: number): string {
  return truncateWithByteEstimate(text, maxBytes, false);
}

/** Middle-truncate to `maxTokens`·4 bytes, marking the cut with `…N tokens truncated…`. */
export function truncateMiddleTokens(text: string, maxTokens: number): string {
  if (text.length === 0) return '';
  if (maxTokens > 0 && Buffer.byteLength(text, 'utf8') <= approxBytesForTokens(maxTokens)) return text;
  return truncateWithByteEstimate(text, approxBytesForTokens(maxTokens), true);
}

export function truncateText(text: string, policy: TruncationPolicy): string {
  return policy.mode === 'bytes'
    ? truncateMiddleChars(text, policy.limit)
    : truncateMiddleTokens(text, policy.limit);
}

/**
 * Truncate with a header when over budget:
 * `Warning: truncated output (original token count: T)\nTotal output lines: L\n\n<truncated>`.
 */
export function formattedTruncateText(text: string, policy: TruncationPolicy): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= byteBudget(policy)) return text;
  const header =
    `Warning: truncated output (original token count: ${approxTokensFromBytes(bytes)})\n` +
    `Total output lines: ${countLines(text)}\n\n`;
  return header + truncateText(text, policy);
}

function marker(useTokens: boolean, removed: number): string {
  return useTokens ? `…${removed} tokens truncated…` : `…${removed} chars truncated…`;
}

function truncateWithByteEstimate(text: string, maxBytes: number, useTokens: boolean): string {
  if (text.length === 0) return '';
  const bytes = Buffer.from(text, 'utf8');
  const total = bytes.length;
  if (maxBytes <= 0) {
    return marker(useTokens, useTokens ? approxTokensFromBytes(total) : countChars(bytes, 0, total));
  }
  if (total <= maxBytes) return text;

  const leftBudget = Math.floor(maxBytes / 2);
  const rightBudget = maxBytes - leftBudget;
  // Prefix: whole characters ending at or before leftBudget.
  let prefixEnd = Math.min(leftBudget, total);
  while (prefixEnd > 0 && isContinuation(bytes[prefixEnd])) prefixEnd--;
  // Suffix: whole characters starting at or after total - rightBudget.
  let suffixStart = Math.max(total - rightBudget, 0);
  while (suffixStart < total && isContinuation(bytes[suffixStart])) suffixStart++;
  if (suffixStart < prefixEnd) suffixStart = prefixEnd;

  const removed = useTokens
    ? approxTokensFromBytes(total - maxBytes)
    : countChars(bytes, prefixEnd, suffixStart);
  return (
    bytes.toString('utf8', 0, prefixEnd) +
    marker(useTokens, removed) +
    bytes.toString('utf8', suffixStart, total)
  );
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** Unicode scalar values in bytes[start, end): every byte that does not continue a character. */
function countChars(bytes: Buffer, start: number, end: number): number {
  let chars = 0;
  for (let i = start; i < end; i++) {
    if (((bytes[i] ?? 0) & 0xc0) !== 0x80) chars++;
  }
  return chars;
}
