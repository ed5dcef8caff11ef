// Progress of a run on stderr: on a terminal, one bar redrawn in place (trials done, passing, ETA);
// elsewhere (CI logs, pipes) one plain line per finished trial.
import type { TrialResult } from './results.js';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  private done: number;
  private passed: number;
  private errors = 0;
  private finishedHere = 0;
  private readonly startedAt = performance.now();
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    already: TrialResult[],
    private readonly stream: ProgressStream,
  ) {
    this.done = already.length;
    this.passed = already.filter((r) => r.pass).length;
    this.tty = Boolean(stream.isTTY);
    if (already.length > 0) this.line(`resuming: ${already.length} of ${total} trials already finished`);
  }

  private line(text: string): void {
    if (this.tty) this.stream.write('\r\x1b[2K');
    this.stream.write(`${text}\n`);
    if (this.tty) this.redraw();
  }

  private eta(): string {
    if (this.finishedHere === 0) return '?';
    const perTrial = (performance.now() - this.startedAt) / this.finishedHere;
    return duration(perTrial * (this.total - this.done));
  }

  redraw(): void {
    if (!this.tty) return;
    const width = Math.max(10, Math.min(30, (this.stream.columns ?? 80) - 60));
    const filled = this.total ? Math.round((this.done / this.total) * width) : width;
    const rate = this.done ? Math.round((this.passed / this.done) * 100) : 0;
    this.stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} trials  passing ${this.passed} (${rate}%)${this.errors ? `  errors ${this.errors}` : ''}  ETA ${this.eta()}`);
  }

  finish(result: TrialResult): void {
    this.done += 1;
    this.finishedHere += 1;
    if (result.pass) this.passed += 1;
    if (result.status === 'error') this.errors += 1;
    const width = String(this.total).length;
    const note = result.status === 'error' ? `  ${result.error?.split('\n')[0]?.slice(0, 120) ?? ''}` : result.agent.end !== 'completed' ? `  (agent ${result.agent.end})` : '';
    const text = `[${String(this.done).padStart(width)}/${this.total}] ${result.status.padEnd(6)} ${result.task}  ${result.harness}  ${result.model}  #${result.trial}  ${result.steps} steps  ${(result.timing.total_ms / 1000).toFixed(1)}s${note}`;
    if (this.tty) this.line(text);
    else this.stream.write(`${text}\n`);
  }

  note(text: string): void {
    this.line(text);
  }

  close(): void {
    if (this.tty) this.stream.write('\r\x1b[2K');
  }
}
