// What a committed change set reports: the file list for the `file_change` item and Codex's
// result text for the model (added, then modified, then deleted files).
import type { FileChangeEntry } from '../protocol/index.js';
import type { FileEdit } from './types.js';

export interface ChangeSummary {
  /** One entry per edit, in edit order; a move is an `update` of its destination. */
  changes: FileChangeEntry[];
  /** `Success. Updated the following files:\nA a\nM b\nD c\n` */
  text: string;
}

export function summarizeEdits(edits: readonly FileEdit[], displayPath: (abs: string) => string = (p) => p): ChangeSummary {
  const changes = edits.map((edit): FileChangeEntry => ({
    path: displayPath(edit.kind === 'update' && edit.moveTo !== undefined ? edit.moveTo : edit.path),
    kind: edit.kind,
  }));
  return { changes, text: formatSummaryText(changes) };
}

export function formatSummaryText(changes: readonly FileChangeEntry[]): string {
  let text = 'Success. Updated the following files:\n';
  for (const [kind, letter] of [
    ['add', 'A'],
    ['update', 'M'],
    ['delete', 'D'],
  ] as const) {
    for (const change of changes) if (change.kind === kind) text += `${letter} ${change.path}\n`;
  }
  return text;
}
