// `rig resume --print-only` and `rig fork --print-only`: show a thread's history and exit. Nothing
// is sent and nothing is written, so this reads the rollout alone: the provider the thread ran
// with need not be defined here, nor its key set.
import { resolve } from 'node:path';
import { resolveRigHome } from '../../config/index.js';
import { loadRollout, locateRollout, type ResumeTarget } from '../../core/session-resume.js';
import type { SessionFlags } from '../../core/settings.js';
import type { ConversationItem } from '../../protocol/index.js';
import { formatHistoryLine, historyLines, recentStart } from './history.js';

export interface PrintOnlyInput {
  target: ResumeTarget;
  fork: boolean;
  flags: SessionFlags;
  /** How many recent turns to show (Infinity: all). */
  turns: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  color: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export function printThreadOnly(input: PrintOnlyInput): number {
  let resumed;
  try {
    const home = resolveRigHome(input.env);
    const cwd = input.flags.cd ? resolve(input.cwd, input.flags.cd) : input.cwd;
    const located = locateRollout(home, input.target, cwd);
    resumed = loadRollout(located.path, located.threadId);
  } catch (error) {
    input.err(`rig: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  for (const warning of resumed.warnings) input.err(`warning: ${warning}\n`);
  const model = input.flags.model ?? resumed.turnContext?.model ?? resumed.meta?.model ?? 'unknown model';
  const harness = input.flags.harness ?? resumed.turnContext?.harness ?? resumed.meta?.harness ?? 'native';
  const cwd = input.flags.cd ? resolve(input.cwd, input.flags.cd) : resumed.turnContext?.cwd ?? resumed.meta?.cwd ?? input.cwd;
  const verb = input.fork ? `fork of thread ${resumed.threadId} (--print-only: no thread created)` : `resumed thread ${resumed.threadId}`;
  input.out(`${verb} · ${model} · ${harness} · ${cwd}\n`);
  input.out(renderHistory(resumed.history, input.turns, input.color));
  return 0;
}

export function renderHistory(history: readonly ConversationItem[], turns: number, color: boolean): string {
  const { start, hiddenPrompts } = Number.isFinite(turns) ? recentStart(history, turns) : { start: 0, hiddenPrompts: 0 };
  const lines = historyLines(start > 0 ? history.slice(start) : history);
  if (lines.length === 0) return '(no messages yet)\n';
  const note = hiddenPrompts > 0 ? `(${hiddenPrompts} earlier prompt${hiddenPrompts === 1 ? '' : 's'} not shown; --full-history shows everything)\n` : '';
  return note + lines.map((line) => `${formatHistoryLine(line, { color })}\n`).join('');
}
