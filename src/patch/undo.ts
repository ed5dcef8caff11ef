// The change set that takes a committed change set back, so every edit the engine makes can be
// undone through the same engine (with the same atomicity and checks).
import * as path from 'node:path';
import type { FileEdit } from './types.js';

/** What was on disk before an edit: file text, or undefined where no file existed. */
export interface PriorState {
  source: string | undefined;
  /** For a move: what was at the destination. */
  destination: string | undefined;
}

/**
 * Edits that restore the state before `edits` were committed. `prior[i]` describes what was on
 * disk for `edits[i]`. Each undo edit expects the content the original edit wrote, so an undo
 * refuses to run over later changes.
 */
export function undoEdits(edits: readonly FileEdit[], prior: readonly PriorState[]): FileEdit[] {
  const undo: FileEdit[] = [];
  edits.forEach((edit, index) => {
    const before = prior[index] ?? { source: undefined, destination: undefined };
    const written = edit.content ?? '';
    if (edit.kind === 'delete') {
      undo.push({ path: edit.path, kind: 'add', content: before.source ?? '' });
      return;
    }
    if (edit.kind === 'add' || edit.moveTo === undefined || path.resolve(edit.moveTo) === path.resolve(edit.path)) {
      undo.push(
        before.source === undefined
          ? { path: edit.path, kind: 'delete', expectedContent: written }
          : { path: edit.path, kind: 'update', content: before.source, expectedContent: written },
      );
      return;
    }
    // A move: put the destination back as it was, and the source back with its old text.
    undo.push(
      before.destination === undefined
        ? { path: edit.moveTo, kind: 'delete', expectedContent: written }
        : { path: edit.moveTo, kind: 'update', content: before.destination, expectedContent: written },
      { path: edit.path, kind: 'add', content: before.source ?? '' },
    );
  });
  return undo.reverse();
}
