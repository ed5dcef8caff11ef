// `rig resume` and `rig fork`: reopen a thread (or a copy of it), print its history, then read
// prompts line by line, streaming each turn. A line-based front end until the TUI exists: it works
// the same on a terminal and on a pipe (each line a prompt, end of input ends the session).
import { resolve } from 'node:path';
import { openSession, type ResumeTarget, type Session } from '../../core/session.js';
import type { SessionFlags } from '../../core/settings.js';
import type { ThreadEvent } from '../../protocol/index.js';
import { createHumanRenderer } from '../exec/human.js';
import { askApproval } from './approval.js';
import { printThreadOnly, renderHistory } from './print-only.js';
import { LineReader } from './line-reader.js';

export interface ReplCommandInput {
  target: ResumeTarget;
  /** Start a new thread from a copy of the target's history. */
  fork: boolean;
  flags: SessionFlags;
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
    const cwd = input.flags.cd ? resolve(io.cwd, input.flags.cd) : io.cwd;
    const id = await pickThread(io, { cwd, all: Boolean(target.all), verb: input.fork ? 'fork' : 'resume' });
    if (!id) return 1;
    target = { id };
  }

  if (input.printOnly) {
    // Printing sends nothing and writes nothing, so it needs no session (nor provider, nor key).
    return printThreadOnly({ target, fork: input.fork, flags: input.flags, turns: input.fullHistory ? Infinity : RECENT_TURNS, env: io.env, cwd: io.cwd, color, out, err });
  }

  let session: Session;
  try {
    session = await openSession({
      flags: input.flags,
      env: io.env,
      processCwd: io.cwd,
      mode: 'interactive',
      ...(input.fork ? { fork: target } : { resume: target }),
    });
  } catch (error) {
    err(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  for (const warning of session.warnings) err(`warning: ${warning}\n`);
  const { thread } = session;
  out(headerLine(input, session));
  out(renderHistory(thread.history, input.fullHistory ? Infinity : RECENT_TURNS, color));

  try {
    return await readEvalLoop(session, io, color);
  } finally {
    await session.close();
  }
}

function headerLine(input: ReplCommandInput, session: Session): string {
  const verb = input.fork ? 'forked into new thread' : 'resumed thread';
  return `${verb} ${session.thread.id} · ${session.model} · ${session.harness} · ${session.cwd}\n`;
}

async function readEvalLoop(session: Session, io: ReplIo, color: boolean): Promise<number> {
  const { thread } = session;
  const out = (text: string) => void io.stdout.write(text);
  const terminal = Boolean(io.stdin.isTTY && io.stdout.isTTY);
  let turnRunning = false;
  let quit = false;

  const onInterrupt = () => {
    if (turnRunning) {
      out('\n(interrupting…)\n');
      thread.interrupt();
    } else {
      quit = true;
      reader.close();
    }
  };
  const reader = new LineReader({ input: io.stdin, ...(terminal ? { output: io.stdout } : {}), terminal, onInterrupt });
  // Without a terminal readline does not see Ctrl-C; the process signal does the same job.
  process.on('SIGINT', onInterrupt);

  const render = createHumanRenderer({ stdout: out, stderr: out, color });
  // Approvals are asked one at a time, in the order requested, through the shared line reader.
  let approvals = Promise.resolve();
  const unsubscribe = thread.subscribe((event: ThreadEvent) => {
    if (event.type !== 'approval.requested') return render(event);
    const request = event.request;
    approvals = approvals.then(async () => {
      // On a pipe there is no prompt line, so the question is printed for the log to show.
      const readLine = (prompt: string) => {
        if (!terminal) out(`${prompt.trimEnd()}\n`);
        return reader.next(terminal ? prompt : '');
      };
      const decision = await askApproval(request, { write: out, readLine });
      try {
        thread.answerApproval(request.id, decision);
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
      turnRunning = true;
      const result = text === '/compact' ? await session.compact() : await thread.runTurn({ text });
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
  return exitCode;
}
