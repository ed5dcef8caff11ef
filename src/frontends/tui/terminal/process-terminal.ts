// The real terminal: raw-mode stdin, stdout, SIGWINCH through the 'resize' event; and the guard
// that puts the terminal back (raw mode off, cursor shown, paste/focus/keyboard modes and
// synchronized output off) whatever way the process ends: a normal exit, a crash, a signal.
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { ALT_SCREEN_OFF, RESTORE_TERMINAL } from './ansi.js';
import type { TuiTerminal } from './terminal.js';

type Input = NodeJS.ReadStream & { setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };
type Output = NodeJS.WriteStream & { fd?: number };

export class ProcessTerminal implements TuiTerminal {
  constructor(
    private readonly input: Input,
    private readonly output: Output,
    /** A file that gets a JSON line per write and per input chunk (RIG_TUI_TRACE, for debugging). */
    private readonly trace?: string,
  ) {}

  private log(kind: string, data: string): void {
    if (this.trace) appendFileSync(this.trace, `${JSON.stringify({ t: Math.round(performance.now()), kind, data, columns: this.columns, rows: this.rows })}\n`);
  }

  get columns(): number {
    return this.output.columns || 80;
  }

  get rows(): number {
    return this.output.rows || 24;
  }

  /** Set once the terminal is gone: nothing more is written to it. */
  gone = false;

  write(data: string): void {
    this.log('write', data);
    if (!this.gone) this.output.write(data);
  }

  onInput(listener: (data: string) => void): () => void {
    this.input.setRawMode?.(true);
    this.input.setEncoding('utf8');
    const traced = (data: string) => {
      this.log('input', data);
      listener(data);
    };
    this.input.on('data', traced);
    this.input.resume();
    return () => {
      this.input.off('data', traced);
      this.input.pause();
    };
  }

  onResize(listener: () => void): () => void {
    const traced = () => {
      this.log('resize', '');
      listener();
    };
    this.output.on('resize', traced);
    return () => this.output.off('resize', traced);
  }
}

/**
 * Restores the terminal on every way out. Writes synchronously (a crashing or exiting process
 * does not flush asynchronous writes). `inAlternateScreen` says whether the pager is open.
 */
export function guardTerminal(input: Input, output: Output, inAlternateScreen: () => boolean): { restore(): void; dispose(): void } {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    const sequence = (inAlternateScreen() ? ALT_SCREEN_OFF : '') + RESTORE_TERMINAL;
    try {
      if (typeof output.fd === 'number') writeSync(output.fd, sequence);
      else output.write(sequence);
    } catch {
      // The terminal is gone (SIGHUP): nothing left to restore.
    }
    try {
      input.setRawMode?.(false);
    } catch {
      // Same.
    }
  };
  const crash = (error: unknown) => {
    restore();
    process.stderr.write(`rig: the TUI crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  };
  process.on('exit', restore);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  return {
    restore,
    dispose: () => {
      process.off('exit', restore);
      process.off('uncaughtException', crash);
      process.off('unhandledRejection', crash);
    },
  };
}

/**
 * Notices the terminal going away: SIGHUP, or EIO/EPIPE reading or writing it. `onGone` runs once.
 * `release` then points the standard descriptors at /dev/null if it went: Node puts the terminal's
 * settings back at exit and aborts when the terminal answers EIO; a descriptor that no longer is
 * the terminal is skipped there.
 */
export function watchTerminalLoss(input: Input, output: Output, onGone: (how: 'hangup' | 'error') => void): { readonly gone: boolean; release(): void } {
  let gone = false;
  const lost = (how: 'hangup' | 'error') => {
    if (gone) return;
    gone = true;
    onGone(how);
  };
  const hangUp = () => lost('hangup');
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EIO' || error.code === 'EPIPE' || error.code === 'ENXIO') lost('error');
  };
  process.on('SIGHUP', hangUp);
  input.on('error', onError);
  output.on('error', onError);
  process.stderr.on('error', onError);
  return {
    get gone() {
      return gone;
    },
    release() {
      process.off('SIGHUP', hangUp);
      if (!gone) return;
      for (const fd of [0, 1, 2]) {
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
      }
      for (let i = 0; i < 3; i++) {
        try {
          openSync('/dev/null', 'r+');
        } catch {
          break;
        }
      }
    },
  };
}
