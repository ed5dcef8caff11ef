// `rig resume` and `rig fork`: reopen a thread (or a copy of it), print its history, then read
// prompts line by line, streaming each turn. A line-based front end over the engine until the TUI
// exists: it works the same on a terminal and on a pipe (each line a prompt, end of input ends the
// session). Ctrl-C interrupts the running turn and kills the commands it runs; a terminal that goes
// away (SIGHUP, or EIO on its descriptors) is an interrupt too, after which rig exits cleanly.
import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { Engine, type ResumeTarget, type ThreadStartRequest } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import type { EventEnvelope } from '../../protocol/index.js';
import { createHumanRenderer } from '../exec/human.js';
import { askApproval } from './approval.js';
import { printThreadOnly, renderHistory } from './print-only.js';
import { LineReader } from './line-reader.js';

export interface ReplCommandInput {
  target: ResumeTarget;
  /** Start a new thread from a copy of the target's history. */
  fork: boolean;
  thread: ThreadStartRequest;
  /** Print the history and exit without reading prompts or writing anything. */
  printOnly: boolean;
  /** Print every turn, not only the most recent ones. */
  fullHistory?: boolean;
}

export interface ReplIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const EXIT_INTERRUPTED = 130;
/** 128 + SIGHUP, the shell's convention for "the terminal went away". */
const EXIT_HANGUP = 129;
/** A long thread prints only its latest turns: enough to pick up the thread, quick to show. */
export const RECENT_TURNS = 20;
const PROMPT = '› ';

function defaultIo(): ReplIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

export async function runReplCommand(input: ReplCommandInput, io: ReplIo = defaultIo()): Promise<number> {
  const out = (text: string) => void io.stdout.write(text);
  const err = (text: string) => void io.stderr.write(text);
  const color = Boolean(io.stdout.isTTY) && !io.env['NO_COLOR'];

  let target = input.target;
  if (!target.id && !target.last) {
    const { pickThread } = await import('./pick.js');
    const cwd = input.thread.cd ? resolve(io.cwd, input.thread.cd) : io.cwd;
    const id = await pickThread(io, { cwd, all: Boolean(target.all), verb: input.fork ? 'fork' : 'resume' });
    if (!id) return 1;
    target = { id };
  }

  if (input.printOnly) {
    // Printing sends nothing and writes nothing, so it loads no thread (nor provider, nor key).
    return printThreadOnly({ target, fork: input.fork, thread: input.thread, turns: input.fullHistory ? Infinity : RECENT_TURNS, env: io.env, cwd: io.cwd, color, out, err });
  }

  const engine = new Engine({ env: io.env, source: 'cli' });
  const request: ThreadStartRequest = { ...input.thread, cwd: io.cwd };
  let thread: ThreadHandle;
  try {
    thread = input.fork ? await engine.forkThread(target, request) : await engine.resumeThread(target, request);
  } catch (error) {
    err(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    await engine.close();
    return 1;
  }

  for (const warning of thread.info.warnings) err(`warning: ${warning}\n`);
  const settings = thread.settings;
  out(`${input.fork ? 'forked into new thread' : 'resumed thread'} ${thread.id} · ${settings.model} · ${settings.harness} · ${settings.cwd}\n`);
  out(renderHistory(engine.readThread(thread.id, { includeTurns: true }).turns ?? [], input.fullHistory ? Infinity : RECENT_TURNS, color));

  const terminal = new TerminalWatch(io);
  try {
    return await readEvalLoop(thread, io, color, terminal);
  } finally {
    await engine.close();
    terminal.release();
  }
}

/**
 * Notices the terminal going away: SIGHUP, or EIO reading or writing it. Once it is gone, the
 * standard descriptors are pointed at /dev/null on the way out, because Node restores the terminal
 * settings at exit and aborts when the terminal answers EIO (its ResetStdio check); a descriptor that
 * no longer refers to the terminal is skipped there.
 */
class TerminalWatch {
  gone = false;
  private onGone: (() => void) | undefined;
  private readonly onHangup = () => this.hangUp();
  readonly onStreamError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EIO' || error.code === 'EPIPE' || error.code === 'ENXIO') this.hangUp();
  };

  constructor(io: ReplIo) {
    process.on('SIGHUP', this.onHangup);
    io.stdin.on('error', this.onStreamError);
    io.stdout.on('error', this.onStreamError);
    io.stderr.on('error', this.onStreamError);
  }

  whenGone(callback: () => void): void {
    this.onGone = callback;
    if (this.gone) callback();
  }

  private hangUp(): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone?.();
  }

  release(): void {
    process.off('SIGHUP', this.onHangup);
    if (!this.gone) return;
    // Nothing more can reach the user; keep the descriptors valid for whatever still writes.
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
  }
}

async function readEvalLoop(thread: ThreadHandle, io: ReplIo, color: boolean, terminalWatch: TerminalWatch): Promise<number> {
  const out = (text: string) => {
    if (!terminalWatch.gone) io.stdout.write(text);
  };
  const terminal = Boolean(io.stdin.isTTY && io.stdout.isTTY);
  let turnRunning = false;
  let quit = false;

  const onInterrupt = () => {
    // A turn a scheduled prompt started (CronCreate, ScheduleWakeup) is interrupted like one typed.
    if (turnRunning || thread.isRunning) {
      out('\n(interrupting…)\n');
      void thread.interrupt();
    } else {
      quit = true;
      reader.close();
    }
  };
  const reader = new LineReader({ input: io.stdin, ...(terminal ? { output: io.stdout } : {}), terminal, onInterrupt, onError: terminalWatch.onStreamError });
  // Without a terminal readline does not see Ctrl-C; the process signal does the same job.
  process.on('SIGINT', onInterrupt);
  terminalWatch.whenGone(() => {
    quit = true;
    if (turnRunning) void thread.interrupt();
    reader.close();
  });

  const render = createHumanRenderer({ stdout: out, stderr: out, color });
  // Approvals are asked one at a time, in the order requested, through the shared line reader.
  let approvals = Promise.resolve();
  const unsubscribe = thread.subscribe((envelope: EventEnvelope) => {
    const event = envelope.event;
    if (event.type !== 'approval.requested') return render(event);
    const request = event.request;
    approvals = approvals.then(async () => {
      // On a pipe there is no prompt line, so the question is printed for the log to show.
      const readLine = (prompt: string) => {
        if (!terminal) out(`${prompt.trimEnd()}\n`);
        return reader.next(terminal ? prompt : '');
      };
      const answer = await askApproval(request, { write: out, readLine, cwd: thread.settings.cwd, color });
      try {
        thread.answerApproval(request.id, answer.decision, {
          ...(answer.feedback ? { feedback: answer.feedback } : {}),
          ...(answer.content ? { content: answer.content } : {}),
        });
      } catch {
        // The turn ended (interrupted) before the answer came; nothing is waiting for it.
      }
    });
  });

  let exitCode = 0;
  try {
    while (!quit) {
      const line = await reader.next(PROMPT);
      if (line === undefined) break;
      const text = line.trim();
      if (text === '') continue;
      if (text === '/exit' || text === '/quit') break;
      if (thread.isRunning && text !== '/compact') {
        // A scheduled prompt's turn is running: the line joins it.
        thread.steer({ text });
        continue;
      }
      let turn;
      try {
        turn = text === '/compact' ? thread.compact() : thread.startTurn({ text });
      } catch (error) {
        // Refused before it began (an input over the length limit): nothing was sent.
        out(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
        exitCode = 1;
        continue;
      }
      turnRunning = true;
      const result = await turn.done;
      turnRunning = false;
      if (result.status === 'failed') {
        out(`rig: turn failed: ${result.error ?? 'unknown error'}\n`);
        exitCode = 1;
      } else if (result.status === 'interrupted') {
        out('(turn interrupted)\n');
        exitCode = EXIT_INTERRUPTED;
      } else {
        exitCode = 0;
      }
    }
  } finally {
    unsubscribe();
    process.off('SIGINT', onInterrupt);
    reader.close();
    // Leave the shell prompt on a line of its own after Ctrl-C or Ctrl-D at our prompt.
    if (terminal) out('\n');
  }
  return terminalWatch.gone ? EXIT_HANGUP : exitCode;
}
