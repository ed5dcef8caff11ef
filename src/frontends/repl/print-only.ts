// `rig resume --print-only` and `rig fork --print-only`: show a thread's history and exit. Nothing
// is sent and nothing is written, so this reads the rollout alone (Engine.readThread, the core's
// projection): the provider the thread ran with need not be defined here, nor its key set.
import { resolve } from 'node:path';
import { Engine, type ResumeTarget, type ThreadRead, type ThreadStartRequest } from '../../core/engine.js';
import type { HistoryTurn } from '../../core/history-view.js';
import { formatHistoryLine, historyLines, recentTurns } from './history.js';

export interface PrintOnlyInput {
  target: ResumeTarget;
  fork: boolean;
  /** The request resume would make: its -C, -m and --harness are shown as what would run. */
  thread: ThreadStartRequest;
  /** How many recent turns to show (Infinity: all). */
  turns: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  color: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export function printThreadOnly(input: PrintOnlyInput): number {
  const engine = new Engine({ env: input.env });
  const requestedCwd = input.thread.cd ? resolve(input.cwd, input.thread.cd) : undefined;
  let read: ThreadRead;
  try {
    read = engine.readThread(input.target, { includeTurns: true, cwd: requestedCwd ?? input.cwd });
  } catch (error) {
    input.err(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  for (const warning of read.warnings) input.err(`warning: ${warning}\n`);
  const overrides = input.thread.overrides ?? {};
  const model = overrides.model ?? read.model ?? 'unknown model';
  const harness = overrides.harness ?? read.harness ?? 'native';
  const cwd = requestedCwd ?? read.cwd ?? input.cwd;
  const verb = input.fork ? `fork of thread ${read.id} (--print-only: no thread created)` : `resumed thread ${read.id}`;
  input.out(`${verb} · ${model} · ${harness} · ${cwd}\n`);
  input.out(renderHistory(read.turns ?? [], input.turns, input.color));
  return 0;
}

export function renderHistory(turns: readonly HistoryTurn[], count: number, color: boolean): string {
  const { shown, hidden } = recentTurns(turns, count);
  const lines = historyLines(shown);
  if (lines.length === 0) return '(no messages yet)\n';
  const note = hidden > 0 ? `(${hidden} earlier turn${hidden === 1 ? '' : 's'} not shown; --full-history shows everything)\n` : '';
  return note + lines.map((line) => `${formatHistoryLine(line, { color })}\n`).join('');
}
