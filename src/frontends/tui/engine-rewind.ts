// /rewind over the engine: back to the state before a chosen turn. Files: every file that turn
// and the later ones changed is put back (core/undo.ts over the thread's checkpoints), files
// changed since are reported and left. Conversation: the session continues in a fork of the
// thread that ends before the turn, with the turn's prompt back in the composer. Or both.
import { applyTurnUndo, loadedCheckpoints, planTurnUndo, rewindSelection, type CheckpointSource } from '../../core/undo.js';
import type { EnginePort } from './engine-port.js';
import type { CommandResult, RewindMode, RewindTurn } from './session-port.js';

const MODES: readonly RewindMode[] = ['files', 'conversation', 'both'];
/** The newest turns offered (older ones are rarely wanted and each costs a plan). */
const MAX_TURNS = 30;

/** turn_0 is turn 1, as /undo and `rig undo` count. */
function turnLabel(turnId: string): string {
  const n = /^turn_(\d+)$/.exec(turnId)?.[1];
  return n === undefined ? turnId : `turn ${Number(n) + 1}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function relativeTo(cwd: string): (path: string) => string {
  return (path) => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
}

function filePlan(source: CheckpointSource | undefined, turnId: string): Pick<RewindTurn, 'restore' | 'conflicts' | 'unrestorable'> {
  const none = { restore: [], conflicts: [], unrestorable: [] };
  if (!source) return none;
  const selection = rewindSelection(source, turnId);
  if (!selection) return none;
  const plan = planTurnUndo(source, selection);
  return {
    restore: plan.files.filter((file) => !file.conflict && !file.unrestorable && file.action !== 'unchanged').map((file) => file.path),
    conflicts: plan.conflicts.map((file) => file.path),
    unrestorable: plan.files.filter((file) => file.unrestorable).map((file) => file.path),
  };
}

/** The turns to choose from, newest first, each with what rewinding to it would change. */
export function rewindOffer(port: EnginePort): RewindTurn[] {
  const handle = port.handle;
  const source = loadedCheckpoints(handle);
  const show = relativeTo(handle.settings.cwd);
  const changed = new Map<string, { files: string[]; undone: boolean }>();
  for (const turn of source?.store.list() ?? []) changed.set(turn.turnId, { files: turn.files.map((file) => show(file.path)), undone: Boolean(turn.undone) });
  const turns = port.turns;
  const offer: RewindTurn[] = [];
  for (let index = turns.length - 1; index >= 0 && offer.length < MAX_TURNS; index--) {
    const turnId = turns[index]!;
    const prompt = port.promptOf.get(turnId);
    // Compactions and other turns without a user message are not places to go back to.
    if (prompt === undefined) continue;
    const plan = filePlan(source, turnId);
    offer.push({
      turnId,
      label: turnLabel(turnId),
      prompt: firstLine(prompt),
      files: changed.get(turnId)?.files ?? [],
      ...(changed.get(turnId)?.undone ? { undone: true } : {}),
      restore: plan.restore.map(show),
      conflicts: plan.conflicts.map(show),
      unrestorable: plan.unrestorable.map(show),
      turnsDropped: turns.length - index,
    });
  }
  return offer;
}

/** /rewind [TURN MODE]: with nothing named, the list to choose from. */
export async function runRewind(port: EnginePort, args: string): Promise<CommandResult> {
  const handle = port.handle;
  if (handle.isRunning) return { error: 'a turn is running: wait for it (or press Esc) before rewinding' };
  if (args === '') {
    const offer = rewindOffer(port);
    if (offer.length === 0) return { text: 'nothing to rewind to yet: this thread has no turns' };
    return { rewind: offer };
  }
  const [turnId, mode, ...rest] = args.split(/\s+/);
  if (!turnId || !mode || rest.length > 0 || !MODES.includes(mode as RewindMode)) return { error: `/rewind takes a turn id and files, conversation or both (or nothing, to choose); got "${args}"` };
  const prompt = port.promptOf.get(turnId);
  if (prompt === undefined || !port.turns.includes(turnId)) return { error: `turn ${turnId} is not in this thread (/rewind lists its turns)` };
  const lines: string[] = [];
  if (mode !== 'conversation') {
    const source = loadedCheckpoints(handle);
    const selection = source ? rewindSelection(source, turnId) : undefined;
    if (!source || !selection) lines.push('no file to put back: neither that turn nor any later one changed files (or they were undone already)');
    else {
      const show = relativeTo(handle.settings.cwd);
      const result = applyTurnUndo(source, planTurnUndo(source, selection), false);
      lines.push(result.restored.length === 0 ? 'no file put back' : `put back ${result.restored.map((path) => `\`${show(path)}\``).join(', ')}`);
      if (result.skipped.length > 0) lines.push(`left as they are, changed since: ${result.skipped.map((path) => `\`${show(path)}\``).join(', ')} (\`/undo --force\` puts them back too)`);
      if (result.unrestorable.length > 0) lines.push(`not kept, so not restorable: ${result.unrestorable.map((path) => `\`${show(path)}\``).join(', ')}`);
      if (mode === 'files' && result.restored.length > 0) lines.push('the model is told with your next message');
    }
  }
  if (mode === 'files') return { text: `rewound the files to before ${turnLabel(turnId)}: ${lines.join('\n\n')}` };
  const from = handle.id;
  await port.forkBefore(turnId);
  lines.unshift(`the conversation continues in thread ${port.handle.id}, a copy of ${from} up to before ${turnLabel(turnId)}; its prompt is back in the input`);
  return { text: lines.join('\n\n'), compose: prompt };
}

