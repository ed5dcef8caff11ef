// After an undo or a rewind of files, the model still remembers making those edits: the next
// user message carries a short note that they were put back, so it reads files again instead of
// building on edits that are gone. The note is kept in the thread's checkpoint folder, so an undo
// by `rig undo` on a stored thread reaches the model when the thread is resumed.
import fs from 'node:fs';
import path from 'node:path';
import type { ConversationItem } from '../protocol/index.js';
import type { RestorePlan, RestoreResult } from '../checkpoints/index.js';

const NOTES_FILE = 'undo-notes.log';
export const UNDO_NOTICE_TAG = '<undo_notice>';

interface UndoNote {
  turns: string[];
  restored: string[];
  skipped: string[];
}

function notesFile(checkpointDir: string): string {
  return path.join(checkpointDir, NOTES_FILE);
}

/** Keeps a note of what an undo put back, for the thread's next turn. Nothing when no file changed. */
export function recordUndoNote(checkpointDir: string, plan: RestorePlan, result: RestoreResult): void {
  if (result.restored.length === 0) return;
  const note: UndoNote = { turns: plan.turns.map((turn) => turn.turnId).reverse(), restored: result.restored, skipped: result.skipped };
  fs.mkdirSync(checkpointDir, { recursive: true });
  fs.appendFileSync(notesFile(checkpointDir), JSON.stringify(note) + '\n');
}

/** turn_0 is the thread's turn 1, as undo reports it. */
function turnLabel(turnId: string): string {
  const n = /^turn_(\d+)$/.exec(turnId)?.[1];
  return n === undefined ? turnId : `turn ${Number(n) + 1}`;
}

function noteText(note: UndoNote, cwd: string | undefined): string {
  const show = (file: string) => (cwd && file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file);
  const turns = note.turns.map(turnLabel).join(', ');
  const lines = [
    `The user undid the file changes of ${turns}: these files were put back as they were before ${note.turns.length === 1 ? 'that turn' : 'those turns'}: ${note.restored.map(show).join(', ')}.`,
  ];
  if (note.skipped.length > 0) lines.push(`Changed since and left as they are: ${note.skipped.map(show).join(', ')}.`);
  lines.push('Those edits are no longer in the files: read a file again before relying on or editing it.');
  return lines.join('\n');
}

/** The notes of undos since the last turn, as one context item (and forgets them). */
export function takeUndoNotes(checkpointDir: string, cwd?: string): ConversationItem[] {
  const file = notesFile(checkpointDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
    fs.rmSync(file, { force: true });
  } catch {
    return [];
  }
  const notes: UndoNote[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      notes.push(JSON.parse(line) as UndoNote);
    } catch {
      // a line cut short by a crash: the rest still reach the model
    }
  }
  if (notes.length === 0) return [];
  const body = notes.map((note) => noteText(note, cwd)).join('\n\n');
  return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `${UNDO_NOTICE_TAG}\n${body}\n</undo_notice>` }] }];
}
