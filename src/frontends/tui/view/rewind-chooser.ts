// /rewind's chooser: first a turn (newest first, each with its first prompt line and the files it
// changed), then what to take back (files, conversation or both) with a preview of what that
// changes: the files that would be put back, the ones changed since (reported, not overwritten),
// and how many turns the continued conversation leaves out.
import type { InputEvent } from '../input/keys.js';
import type { RewindMode, RewindTurn } from '../session-port.js';
import { sanitize, type Line } from '../text/styled.js';
import { truncateLine } from '../text/wrap.js';
import { theme } from './theme.js';

/** What a chooser answered: a command line to run, cancelled, or still choosing. */
export type ChooserResult = { command: string } | 'cancel' | undefined;

/** A list that takes the composer's place until answered (the thread picker is one too). */
export interface Chooser {
  handle(event: InputEvent): ChooserResult;
  render(width: number, maxRows: number): { lines: Line[]; cursor?: { row: number; col: number } };
}

const MODES: { mode: RewindMode; label: string }[] = [
  { mode: 'both', label: 'Files and conversation' },
  { mode: 'files', label: 'Files only (the conversation goes on; the model is told)' },
  { mode: 'conversation', label: 'Conversation only (files stay as they are)' },
];

function list(paths: readonly string[], max = 6): string {
  const shown = paths.slice(0, max).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

export class RewindChooser implements Chooser {
  selected = 0;
  /** The turn chosen, while choosing what to take back. */
  turn: RewindTurn | undefined;
  mode = 0;

  constructor(readonly turns: readonly RewindTurn[]) {}

  handle(event: InputEvent): ChooserResult {
    if (event.type !== 'key') return undefined;
    if (event.name === 'char' && event.ctrl && event.char === 'c') return 'cancel';
    const count = this.turn ? MODES.length : this.turns.length;
    const move = (by: number) => {
      if (this.turn) this.mode = (this.mode + by + count) % count;
      else this.selected = Math.max(0, Math.min(count - 1, this.selected + by));
    };
    switch (event.name) {
      case 'escape':
        if (!this.turn) return 'cancel';
        this.turn = undefined;
        return undefined;
      case 'up':
        move(-1);
        return undefined;
      case 'down':
      case 'tab':
        move(1);
        return undefined;
      case 'enter':
        if (!this.turn) {
          this.turn = this.turns[this.selected];
          this.mode = 0;
          return undefined;
        }
        return { command: `/rewind ${this.turn.turnId} ${MODES[this.mode]!.mode}` };
    }
    return undefined;
  }

  private preview(turn: RewindTurn, mode: RewindMode): Line[] {
    const out: Line[] = [];
    if (mode !== 'conversation') {
      if (turn.restore.length === 0 && turn.conflicts.length === 0) out.push([{ text: 'no file to put back: this turn and the later ones changed none', style: theme.dim }]);
      if (turn.restore.length > 0) out.push([{ text: 'restores ', style: theme.dim }, { text: sanitize(list(turn.restore)), style: theme.bold }]);
      if (turn.conflicts.length > 0) out.push([{ text: 'changed since, reported and not overwritten: ', style: theme.warning }, { text: sanitize(list(turn.conflicts)) }]);
      if (turn.unrestorable.length > 0) out.push([{ text: 'not kept, left as they are: ', style: theme.dim }, { text: sanitize(list(turn.unrestorable)) }]);
    }
    if (mode !== 'files') {
      const dropped = turn.turnsDropped === 1 ? 'this turn' : `this turn and the ${turn.turnsDropped - 1} after it`;
      out.push([{ text: `continues in a copy of the thread without ${dropped}; its prompt comes back to the input`, style: theme.dim }]);
    }
    return out;
  }

  render(width: number, maxRows: number): { lines: Line[] } {
    const bar: Line = [{ text: '│ ', style: theme.accent }];
    const row = (line: Line) => truncateLine([...bar, ...line], width);
    if (this.turn) {
      const turn = this.turn;
      const title: Line = [{ text: '▌ ', style: theme.accent }, { text: `Rewind to before ${turn.label}: `, style: theme.bold }, { text: sanitize(turn.prompt) }];
      const options = MODES.map(({ label }, index) => row([{ text: index === this.mode ? '› ' : '  ', style: theme.selected }, { text: label, style: index === this.mode ? theme.selected : {} }]));
      const preview = this.preview(turn, MODES[this.mode]!.mode).map(row);
      const help = row([{ text: '↑↓ choose · Enter rewind · Esc back to the turns', style: theme.dim }]);
      const lines = [truncateLine(title, width), ...options, ...preview, help];
      return { lines: lines.slice(0, Math.max(1, maxRows)) };
    }
    const title: Line = [{ text: '▌ ', style: theme.accent }, { text: 'Rewind: go back to before which turn?', style: theme.bold }];
    const help = row([{ text: '↑↓ choose · Enter next · Esc cancel', style: theme.dim }]);
    const room = Math.max(1, Math.floor((maxRows - 2) / 2));
    const start = Math.max(0, Math.min(this.selected - room + 1, this.turns.length - room));
    const rows: Line[] = [];
    this.turns.slice(start, start + room).forEach((turn, index) => {
      const selected = start + index === this.selected;
      rows.push(row([{ text: selected ? '› ' : '  ', style: theme.selected }, { text: `${turn.label}  `, style: theme.dim }, { text: sanitize(turn.prompt) || '(no text)', style: selected ? theme.selected : {} }]));
      rows.push(row([{ text: '    ' }, { text: turn.files.length > 0 ? `changed ${sanitize(list(turn.files, 4))}${turn.undone ? ' (undone)' : ''}` : 'changed no files', style: theme.dim }]));
    });
    return { lines: [truncateLine(title, width), ...rows, help] };
  }
}
