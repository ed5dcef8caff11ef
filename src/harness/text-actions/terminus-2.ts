// Terminus 2's text protocol: the model answers with one JSON object of analysis, plan and
// keystroke commands. Pure parsing, timing and observation helpers; the terminal tool drives tmux.

export interface TerminusCommand {
  keystrokes: string;
  /** Seconds to wait after sending, clamped to [0, 60]. */
  duration: number;
}

export interface TerminusReply {
  analysis: string;
  plan: string;
  commands: TerminusCommand[];
  taskComplete: boolean;
}

export type TerminusParse =
  | { ok: true; reply: TerminusReply; warnings: string[] }
  | { ok: false; error: string; warnings: string[] };

/** The first brace-balanced object in the text, ignoring braces inside JSON strings. */
export function firstJsonObject(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf('{');
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return { start, end: i + 1 };
    }
  }
  return undefined;
}

function isComplete(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === 'string' && ['true', '1', 'yes'].includes(value.trim().toLowerCase());
}

export function parseTerminusReply(text: string): TerminusParse {
  const warnings: string[] = [];
  const span = firstJsonObject(text);
  if (!span) return { ok: false, error: 'No valid JSON found in response', warnings };
  if (text.slice(0, span.start).trim() !== '') warnings.push('Extra text detected before JSON object');
  if (text.slice(span.end).trim() !== '') warnings.push('Extra text detected after JSON object');
  let data: unknown;
  try {
    data = JSON.parse(text.slice(span.start, span.end));
  } catch (error) {
    return { ok: false, error: `Invalid JSON: ${(error as Error).message}`, warnings };
  }
  const object = data as Record<string, unknown>;
  const missing = ['analysis', 'plan', 'commands'].filter((field) => !(field in object));
  if (missing.length > 0) return { ok: false, error: `Missing required fields: ${missing.join(', ')}`, warnings };
  if (!Array.isArray(object['commands'])) return { ok: false, error: "Field 'commands' must be an array", warnings };
  const commands: TerminusCommand[] = [];
  for (const [index, entry] of (object['commands'] as unknown[]).entries()) {
    const command = entry as Record<string, unknown> | null;
    if (command === null || typeof command !== 'object' || typeof command['keystrokes'] !== 'string') {
      return { ok: false, error: `Command ${index + 1} missing required 'keystrokes' field`, warnings };
    }
    const duration = typeof command['duration'] === 'number' && Number.isFinite(command['duration']) ? command['duration'] : 1;
    commands.push({ keystrokes: command['keystrokes'], duration: Math.min(Math.max(duration, 0), 60) });
  }
  return {
    ok: true,
    warnings,
    reply: {
      analysis: String(object['analysis'] ?? ''),
      plan: String(object['plan'] ?? ''),
      commands,
      taskComplete: isComplete(object['task_complete']),
    },
  };
}

/** Warnings as the original lists them after `WARNINGS: `: each on its own `- ` line. */
function warningList(warnings: string[]): string {
  return `- ${warnings.join('\n- ')}`;
}

/** The user message sent back after a reply that did not parse. */
export function terminusParseErrorMessage(error: string, warnings: string[]): string {
  const lines = ['Previous response had parsing errors:', `ERROR: ${error}`];
  if (warnings.length > 0) lines.push(`WARNINGS: ${warningList(warnings)}`);
  lines.push('', 'Please fix these issues and provide a proper JSON response.');
  return lines.join('\n');
}

/** Put before the terminal output when a reply parsed with warnings (as the original does). */
export function terminusWarningsPrefix(warnings: string[]): string {
  return warnings.length === 0 ? '' : `Previous response had warnings:\nWARNINGS: ${warningList(warnings)}\n\n`;
}

/**
 * The confirmation round: after the first reply that sets task_complete, its commands run and the
 * model sees the terminal and is asked once more (terminus_2.py's completion confirmation; the
 * question is the original's, the rest our wording). A second task_complete ends the task.
 */
export function terminusCompletionCheck(terminalOutput: string): string {
  return (
    `Current terminal state:\n${terminalOutput}\n\n` +
    'Are you sure you want to mark the task as complete? Your solution will then be graded and you cannot change it any more. ' +
    'If so, set "task_complete": true in your JSON reply again.'
  );
}

/** How long one reply's keystrokes may run: the durations plus per-command slack, capped at 3 minutes. */
export function terminusTimeoutMs(commands: TerminusCommand[]): number {
  const total = commands.reduce((sum, command) => sum + command.duration * 1000, 0);
  return Math.max(Math.min(Math.ceil(total + 10_000 + 8_000 * commands.length), 180_000), 1_000);
}

/** Caps terminal output at `limit` bytes: the head and tail halves and a note in between. */
export function capTerminalOutput(text: string, limit = 10_000): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= limit) return text;
  const half = Math.floor(limit / 2);
  const omitted = bytes.length - 2 * half;
  return `${bytes.subarray(0, half).toString('utf8')}\n[... output limited to ${limit} bytes; ${omitted} interior bytes omitted ...]\n${bytes.subarray(bytes.length - half).toString('utf8')}`;
}
