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

/**
 * A file's lines without their terminators, and where each line starts in the text
 * (`starts[lines.length]` is the text's length), so runs of untouched lines are copied as one
 * slice instead of line by line: a 100-chunk patch on a 20,000-line file does 200 copies, not 40,000.
 */
interface LineTable {
  texts: string[];
  starts: number[];
  /** The last line has no terminator; copying it out adds `preferredEnding`, as Codex does. */
  lastUnterminated: boolean;
  preferredEnding: string;
}

function lineTable(contents: string): LineTable {
  if (!contents.includes('\r')) {
    const texts = contents.split('\n');
    // split() yields a final '' after a trailing newline (or for empty text): not a line.
    const lastUnterminated = texts[texts.length - 1] !== '';
    if (!lastUnterminated) texts.pop();
    const starts = new Array<number>(texts.length + 1);
    let offset = 0;
    for (let i = 0; i < texts.length; i++) {
      starts[i] = offset;
      offset += (texts[i] as string).length + 1;
    }
    starts[texts.length] = contents.length;
    return { texts, starts, lastUnterminated, preferredEnding: '\n' };
  }
  const { lines, preferredEnding } = splitKeepingEndings(contents);
  const texts = new Array<string>(lines.length);
  const starts = new Array<number>(lines.length + 1);
  let offset = 0;
  lines.forEach((line, i) => {
    texts[i] = line.text;
    starts[i] = offset;
    offset += line.text.length + line.ending.length;
  });
  starts[lines.length] = contents.length;
  return { texts, starts, lastUnterminated: lines.length > 0 && lines[lines.length - 1]!.ending === '', preferredEnding };
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
  const contents = bom ? original.slice(1) : original;
  const table = lineTable(contents);
  const { texts, starts, preferredEnding } = table;
  const replacements = locateChunks(new LineIndex(texts), chunks, displayPath);
  const out: string[] = [bom];
  /** Source lines [from, to) with their own terminators. */
  const copy = (from: number, to: number): void => {
    if (from >= to) return;
    out.push(contents.slice(starts[from], starts[to]));
    if (to === texts.length && table.lastUnterminated) out.push(preferredEnding);
  };
  const add = (text: string): void => {
    out.push(text, preferredEnding);
  };
  let cursor = 0;
  for (const r of replacements) {
    if (r.start < cursor) {
      throw new PatchApplyError(`Chunks overlap in ${displayPath}: each chunk must come after the previous one`, displayPath);
    }
    copy(cursor, r.start);
    if (r.ops !== undefined) {
      let source = r.start;
      let added = 0;
      let contextFrom = -1;
      for (const op of r.ops) {
        if (op === ' ') {
          if (contextFrom < 0) contextFrom = source;
          source += 1;
          added += 1;
          continue;
        }
        if (contextFrom >= 0) {
          copy(contextFrom, source);
          contextFrom = -1;
        }
        if (op === '-') {
          source += 1;
        } else {
          add(r.newLines[added] as string);
          added += 1;
        }
      }
      if (contextFrom >= 0) copy(contextFrom, source);
    } else {
      for (const text of r.newLines) add(text);
    }
    cursor = r.start + r.oldLength;
  }
  copy(cursor, texts.length);
  return out.join('');
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
