// The live parts above the composer: the turn's spinner, commands while they run (with the tail
// of their output), a file change or tool call in progress, the plan, queued messages, notices.
import type { Line } from '../text/styled.js';
import { sanitize } from '../text/styled.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
export const SPINNER_INTERVAL_MS = 80;

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function spinnerFrame(now: number): string {
  return SPINNER[Math.floor(now / SPINNER_INTERVAL_MS) % SPINNER.length]!;
}

export function renderWorking(label: string, startedAt: number, now: number, width: number, hint = 'esc to interrupt'): Line {
  return truncateLine(
    [
      { text: `${spinnerFrame(now)} `, style: theme.spinner },
      { text: label, style: theme.bold },
      { text: ` (${formatElapsed(now - startedAt)} · ${hint})`, style: theme.dim },
    ],
    width,
  );
}

/** The last `rows` lines of a running command's output, each cut to the width. */
export function outputTail(output: string, width: number, rows: number): Line[] {
  if (rows <= 0) return [];
  const text = sanitize(output.length > 16_384 ? output.slice(-16_384) : output).replace(/\n+$/, '');
  if (text === '') return [];
  return text
    .split('\n')
    .slice(-rows)
    .map((line) => truncateLine([{ text: '    ' }, { text: line, style: theme.dim }], width));
}

export function renderRunningCommand(command: string, startedAt: number, now: number, output: string, width: number, tailRows: number): Line[] {
  const head = truncateLine(
    [
      { text: `${spinnerFrame(now)} `, style: theme.spinner },
      { text: 'Running ', style: theme.bold },
      { text: sanitize(command).replace(/\n/g, ' ⏎ ') },
      { text: ` (${formatElapsed(now - startedAt)})`, style: theme.dim },
    ],
    width,
  );
  return [head, ...outputTail(output, width, tailRows)];
}

export interface QueuedMessage {
  kind: 'steer' | 'follow-up';
  text: string;
}

export function renderQueue(queue: readonly QueuedMessage[], width: number): Line[] {
  if (queue.length === 0) return [];
  const lines = queue.map((message) =>
    truncateLine(
      [
        { text: '↳ ', style: theme.accent },
        { text: message.kind === 'steer' ? 'at next tool boundary: ' : 'after this turn: ', style: theme.dim },
        { text: message.text.replace(/\n/g, ' ⏎ ') },
      ],
      width,
    ),
  );
  lines.push(truncateLine([{ text: '  alt+↑ edits the last queued message', style: theme.dim }], width));
  return lines;
}
