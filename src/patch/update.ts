// Applying an Update File hunk's chunks to a file's text. Line endings are preserved: each
// source line keeps its own terminator (`\r\n`, `\n` or a lone `\r`), context lines keep the
// file's own text, and new lines take the file's first-seen terminator. Like Codex, an updated
// file always ends with a line terminator.
import { LineIndex, seekSequence } from './seek.js';
import type { UpdateChunk } from './types.js';

export class PatchApplyError extends Error {
  override name = 'PatchApplyError';
  constructor(
    message: string,
    /** Absolute path of the file the failure concerns, when there is one. */
    readonly path?: string,
  ) {
    super(message);
  }
}

interface SourceLine {
  text: string;
  ending: string;
}

export function splitKeepingEndings(contents: string): { lines: SourceLine[]; preferredEnding: string } {
  const lines: SourceLine[] = [];
  let preferredEnding: string | undefined;
  const terminator = /\r\n|\r|\n/g;
  let lineStart = 0;
  for (let match = terminator.exec(contents); match; match = terminator.exec(contents)) {
    lines.push({ text: contents.slice(lineStart, match.index), ending: match[0] });
    preferredEnding ??= match[0];
    lineStart = match.index + match[0].length;
  }
  if (lineStart < contents.length) lines.push({ text: contents.slice(lineStart), ending: '' });
  return { lines, preferredEnding: preferredEnding ?? '\n' };
}

interface Replacement {
  start: number;
  oldLength: number;
  chunk: UpdateChunk;
  /** Chunk after dropping a trailing blank line that the file does not have. */
  oldLines: readonly string[];
  newLines: readonly string[];
  ops: string | undefined;
}

/**
 * Returns the new text of a file after applying `chunks` in order. `displayPath` names the file
 * in error messages. Throws PatchApplyError when a chunk's context cannot be found.
 */
export function applyUpdateChunks(original: string, chunks: readonly UpdateChunk[], displayPath: string): string {
  // A byte-order mark belongs to the file, not to its first line: keep it out of matching.
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const { lines, preferredEnding } = splitKeepingEndings(bom ? original.slice(1) : original);
  const index = new LineIndex(lines.map((line) => line.text));
  const replacements = locateChunks(index, chunks, displayPath);
  const out: string[] = [];
  let cursor = 0;
  const emit = (text: string, ending: string): void => {
    out.push(text, ending === '' ? preferredEnding : ending);
  };
  for (const r of replacements) {
    if (r.start < cursor) {
      throw new PatchApplyError(`Chunks overlap in ${displayPath}: each chunk must come after the previous one`, displayPath);
    }
    for (; cursor < r.start; cursor++) emitSource(lines[cursor], emit);
    if (r.ops !== undefined) {
      let source = r.start;
      let added = 0;
      for (const op of r.ops) {
        if (op === ' ') {
          emitSource(lines[source], emit);
          source += 1;
          added += 1;
        } else if (op === '-') {
          source += 1;
        } else {
          emit(r.newLines[added] as string, preferredEnding);
          added += 1;
        }
      }
    } else {
      for (const text of r.newLines) emit(text, preferredEnding);
    }
    cursor = r.start + r.oldLength;
  }
  for (; cursor < lines.length; cursor++) emitSource(lines[cursor], emit);
  return bom + out.join('');
}

function emitSource(line: SourceLine | undefined, emit: (text: string, ending: string) => void): void {
  if (line) emit(line.text, line.ending);
}

function locateChunks(index: LineIndex, chunks: readonly UpdateChunk[], displayPath: string): Replacement[] {
  const replacements: Replacement[] = [];
  let lineIndex = 0;
  for (const chunk of chunks) {
    for (const anchor of chunk.anchors) {
      const at = seekSequence(index, [anchor], lineIndex, false);
      if (at < 0) throw new PatchApplyError(`Failed to find context '${anchor}' in ${displayPath}`, displayPath);
      lineIndex = at + 1;
    }
    const ops = opsMatching(chunk);
    if (chunk.oldLines.length === 0) {
      // A chunk that only adds lines goes at the end of the file, as in Codex. With an `@@`
      // anchor it goes right after the anchor line instead: that is what the model asked for,
      // where Codex would silently append it at the end.
      const start = chunk.anchors.length > 0 ? lineIndex : index.length;
      replacements.push({ start, oldLength: 0, chunk, oldLines: [], newLines: chunk.newLines, ops });
      continue;
    }
    let oldLines: readonly string[] = chunk.oldLines;
    let newLines: readonly string[] = chunk.newLines;
    let chunkOps = ops;
    let start = seekSequence(index, oldLines, lineIndex, chunk.isEndOfFile);
    if (start < 0 && oldLines[oldLines.length - 1] === '') {
      // A blank line at the end of a chunk usually stands for the file's final newline, which
      // is a terminator here, not a line of its own: retry without it.
      oldLines = oldLines.slice(0, -1);
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1);
      chunkOps = ops !== undefined && ops.endsWith(' ') ? ops.slice(0, -1) : undefined;
      start = seekSequence(index, oldLines, lineIndex, chunk.isEndOfFile);
    }
    if (start < 0) {
      throw new PatchApplyError(
        `Failed to find expected lines in ${displayPath}:\n${chunk.oldLines.join('\n')}`,
        displayPath,
      );
    }
    replacements.push({ start, oldLength: oldLines.length, chunk, oldLines, newLines, ops: chunkOps });
    lineIndex = start + oldLines.length;
  }
  return replacements.sort((a, b) => a.start - b.start);
}

/** The chunk's ops when they agree with its line lists (hand-built chunks may lack them). */
function opsMatching(chunk: UpdateChunk): string | undefined {
  const ops = chunk.ops;
  if (typeof ops !== 'string') return undefined;
  let old = 0;
  let added = 0;
  for (const op of ops) {
    if (op === ' ') {
      old += 1;
      added += 1;
    } else if (op === '-') old += 1;
    else if (op === '+') added += 1;
    else return undefined;
  }
  return old === chunk.oldLines.length && added === chunk.newLines.length ? ops : undefined;
}
