// One queue of input lines for the whole REPL: prompts and approval answers are read from the same
// source, so a piped script (one line per prompt or answer) drives it exactly like a person would.
import readline from 'node:readline';

export interface LineReaderOptions {
  input: NodeJS.ReadableStream;
  /** Echo and prompt only on a terminal; a pipe is read silently. */
  output?: NodeJS.WritableStream;
  terminal: boolean;
  /** Ctrl-C pressed on the terminal (readline swallows the signal in raw mode). */
  onInterrupt: () => void;
  /** The input failed (EIO once the terminal is gone); input then counts as ended. */
  onError?: (error: NodeJS.ErrnoException) => void;
}

export class LineReader {
  private readonly rl: readline.Interface;
  private readonly queued: string[] = [];
  private waiter: ((line: string | undefined) => void) | undefined;
  private ended = false;

  constructor(options: LineReaderOptions) {
    this.rl = readline.createInterface({
      input: options.input,
      ...(options.output ? { output: options.output } : {}),
      terminal: options.terminal,
      historySize: options.terminal ? 200 : 0,
    });
    this.rl.on('line', (line) => {
      if (this.waiter) {
        const resolve = this.waiter;
        this.waiter = undefined;
        resolve(line);
      } else {
        this.queued.push(line);
      }
    });
    this.rl.on('close', () => this.end());
    this.rl.on('SIGINT', options.onInterrupt);
    // readline re-emits its input's errors (a read or setRawMode failing with EIO); unhandled, they
    // would crash rig on the way out.
    this.rl.on('error', (error: NodeJS.ErrnoException) => {
      options.onError?.(error);
      this.end();
    });
    // Lines are consumed on demand; pausing between reads would lose nothing, but a turn's own
    // output must not be interleaved with a half-typed prompt, so the prompt is shown per read.
  }

  /** The next line, or undefined at end of input. Shows `prompt` first on a terminal. */
  next(prompt = ''): Promise<string | undefined> {
    const line = this.queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    if (prompt !== '') {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  close(): void {
    try {
      this.rl.close();
    } catch {
      // Restoring the terminal mode fails once the terminal is gone; the reader is closed anyway.
    }
    this.end();
  }

  private end(): void {
    this.ended = true;
    const resolve = this.waiter;
    this.waiter = undefined;
    resolve?.(undefined);
  }
}
