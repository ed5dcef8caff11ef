// apply_patch parser. The whole-text parser checks the envelope (with Codex's leniency for
// heredoc wrappers and padded markers) and then feeds lines to the same line-by-line state
// machine the streaming parser uses, so both accept exactly the same language and report the
// same errors with the same line numbers.
import { PATCH_MARKERS as M } from './types.js';
import type { Patch, PatchHunk, UpdateChunk, UpdateFileHunk } from './types.js';

const VALID_HEADERS =
  "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'";
const LINE_PREFIX_RULE =
  "Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)";

export class PatchParseError extends Error {
  override name = 'PatchParseError';
  /** The problem without the location prefix. */
  readonly reason: string;
  /** 1-based line in the (trimmed, unwrapped) patch; absent for envelope errors. */
  readonly lineNumber: number | undefined;

  constructor(reason: string, lineNumber?: number) {
    super(lineNumber === undefined ? `invalid patch: ${reason}` : `invalid hunk at line ${lineNumber}, ${reason}`);
    this.reason = reason;
    this.lineNumber = lineNumber;
  }
}

type Mode = 'before' | 'started' | 'add' | 'delete' | 'update' | 'ended';

export interface PatchLineParserOptions {
  /** Streaming display: skip blank and heredoc-opener lines before `*** Begin Patch`. */
  lenientStart?: boolean;
}

/**
 * Line-at-a-time state machine. `push` takes one line without its `\n` and throws
 * PatchParseError on the first line that cannot belong to a valid patch.
 */
export class PatchLineParser {
  readonly hunks: PatchHunk[] = [];
  environmentId: string | undefined;
  private mode: Mode = 'before';
  private lineNumber = 0;
  private updateHeaderLine = 0;
  /** The current chunk was opened by `@@` and has no body lines yet. */
  private chunkAwaitingLines = false;
  /** The current chunk was closed by `*** End of File`. */
  private afterEndOfFile = false;

  constructor(private readonly options: PatchLineParserOptions = {}) {}

  get ended(): boolean {
    return this.mode === 'ended';
  }

  /** `isLastLine`: the final line of a whole patch, where `*** End Patch` may carry padding. */
  push(rawLine: string, isLastLine = false): void {
    this.lineNumber += 1;
    const n = this.lineNumber;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const trimmed = line.trim();
    switch (this.mode) {
      case 'before':
        if (trimmed === M.begin) {
          this.mode = 'started';
          return;
        }
        if (this.options.lenientStart && (trimmed === '' || /^<<-?\s*['"]?\w+['"]?$/.test(trimmed))) {
          this.lineNumber -= 1;
          return;
        }
        throw new PatchParseError("The first line of the patch must be '*** Begin Patch'");
      case 'started':
        if (this.hunks.length === 0 && trimmed.startsWith(M.environment.trimEnd())) {
          this.takeEnvironment(trimmed);
          return;
        }
        if (this.takeHeader(trimmed, n)) return;
        throw new PatchParseError(`'${trimmed}' is not a valid hunk header. ${VALID_HEADERS}`, n);
      case 'add': {
        if (this.takeHeader(trimmed, n)) return;
        const hunk = this.hunks[this.hunks.length - 1];
        if (line.startsWith('+') && hunk?.type === 'add') {
          hunk.contents += `${line.slice(1)}\n`;
          return;
        }
        throw new PatchParseError(`Unexpected line found in add file hunk: '${line}'. Every line should start with '+'`, n);
      }
      case 'delete':
        if (this.takeHeader(trimmed, n)) return;
        throw new PatchParseError(`'${trimmed}' is not a valid hunk header. ${VALID_HEADERS}`, n);
      case 'update':
        this.pushUpdateLine(line, trimmed, n, isLastLine);
        return;
      case 'ended':
        if (trimmed !== '') throw new PatchParseError("The last line of the patch must be '*** End Patch'");
        return;
    }
  }

  private takeEnvironment(trimmed: string): void {
    if (this.environmentId !== undefined) {
      throw new PatchParseError('apply_patch environment_id cannot be specified more than once');
    }
    const id = trimmed.slice(M.environment.trimEnd().length).trim();
    if (id === '') throw new PatchParseError('apply_patch environment_id cannot be empty');
    this.environmentId = id;
  }

  /** Recognises a file header or `*** End Patch`; returns false for anything else. */
  private takeHeader(text: string, n: number): boolean {
    if (text === M.end) {
      this.mode = 'ended';
      return true;
    }
    if (text.startsWith(M.addFile)) {
      this.hunks.push({ type: 'add', path: text.slice(M.addFile.length), contents: '' });
      this.mode = 'add';
      return true;
    }
    if (text.startsWith(M.deleteFile)) {
      this.hunks.push({ type: 'delete', path: text.slice(M.deleteFile.length) });
      this.mode = 'delete';
      return true;
    }
    if (text.startsWith(M.updateFile)) {
      this.hunks.push({ type: 'update', path: text.slice(M.updateFile.length), chunks: [] });
      this.mode = 'update';
      this.updateHeaderLine = n;
      this.chunkAwaitingLines = false;
      this.afterEndOfFile = false;
      return true;
    }
    return false;
  }

  private pushUpdateLine(line: string, trimmed: string, n: number, isLastLine: boolean): void {
    const hunk = this.hunks[this.hunks.length - 1] as UpdateFileHunk;
    // Inside an update a leading space makes a context line, so headers only lose trailing
    // padding here; the patch's final line is the exception (padded `*** End Patch`).
    const headerText = isLastLine ? trimmed : line.trimEnd();
    if (headerText === M.end || isFileHeader(headerText)) {
      if (hunk.chunks.length === 0) {
        throw new PatchParseError(`Update file hunk for path '${hunk.path}' is empty`, this.updateHeaderLine);
      }
      if (this.chunkAwaitingLines) {
        if (headerText === M.end) throw new PatchParseError('Update hunk does not contain any lines', n);
        throw new PatchParseError(`Unexpected line found in update hunk: '${line}'. ${LINE_PREFIX_RULE}`, n);
      }
      this.takeHeader(headerText, n);
      return;
    }
    if (hunk.chunks.length === 0 && hunk.moveTo === undefined && trimmed.startsWith(M.moveTo)) {
      hunk.moveTo = trimmed.slice(M.moveTo.length);
      return;
    }
    if (trimmed === M.emptyAnchor || trimmed.startsWith(M.anchor)) {
      const anchor = trimmed === M.emptyAnchor ? undefined : trimmed.slice(M.anchor.length);
      const current = hunk.chunks[hunk.chunks.length - 1];
      if (this.chunkAwaitingLines && current) {
        // Stacked `@@` headers narrow the search step by step (class, then method).
        if (anchor !== undefined) current.anchors.push(anchor);
      } else {
        hunk.chunks.push(newChunk(anchor === undefined ? [] : [anchor]));
      }
      this.chunkAwaitingLines = true;
      this.afterEndOfFile = false;
      return;
    }
    if (this.afterEndOfFile) {
      if (trimmed === '') return;
      throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${line}'`, n);
    }
    if (trimmed === M.endOfFile) {
      const current = hunk.chunks[hunk.chunks.length - 1];
      if (!current || this.chunkAwaitingLines) {
        throw new PatchParseError('Update hunk does not contain any lines', n);
      }
      current.isEndOfFile = true;
      this.afterEndOfFile = true;
      return;
    }
    const op = line === '' ? ' ' : line[0];
    if (op !== ' ' && op !== '+' && op !== '-') {
      const current = hunk.chunks[hunk.chunks.length - 1];
      if (current && !this.chunkAwaitingLines) {
        throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${line}'`, n);
      }
      throw new PatchParseError(`Unexpected line found in update hunk: '${line}'. ${LINE_PREFIX_RULE}`, n);
    }
    let chunk = hunk.chunks[hunk.chunks.length - 1];
    if (!chunk) {
      // The first chunk of a file may start without `@@`.
      chunk = newChunk([]);
      hunk.chunks.push(chunk);
    }
    const text = line.slice(1);
    if (op !== '+') chunk.oldLines.push(text);
    if (op !== '-') chunk.newLines.push(text);
    chunk.ops += op;
    this.chunkAwaitingLines = false;
  }
}

function isFileHeader(text: string): boolean {
  return text.startsWith(M.addFile) || text.startsWith(M.deleteFile) || text.startsWith(M.updateFile);
}

function newChunk(anchors: string[]): UpdateChunk {
  return { anchors, oldLines: [], newLines: [], isEndOfFile: false, ops: '' };
}

/** Splits on `\n`; each line keeps a `\r` before it (the line parser drops exactly one). */
export function splitPatchLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

function checkEnvelope(lines: string[]): PatchParseError | undefined {
  const first = lines[0]?.trim();
  const last = lines[lines.length - 1]?.trim();
  if (first !== M.begin) return new PatchParseError("The first line of the patch must be '*** Begin Patch'");
  if (last !== M.end || lines.length < 2) {
    return new PatchParseError("The last line of the patch must be '*** End Patch'");
  }
  return undefined;
}

/**
 * Parses a complete patch. Accepts surrounding whitespace, padded envelope markers and a
 * `<<EOF ... EOF` wrapper left in by a model that meant to use a shell heredoc.
 */
export function parsePatch(text: string): Patch {
  let lines = splitPatchLines(text.trim());
  const envelopeError = checkEnvelope(lines);
  if (envelopeError) {
    const first = withoutCr(lines[0] ?? '');
    const last = withoutCr(lines[lines.length - 1] ?? '');
    if (!(HEREDOC_OPENERS.has(first) && last.endsWith('EOF') && lines.length >= 4)) throw envelopeError;
    lines = lines.slice(1, -1);
    const innerError = checkEnvelope(lines);
    if (innerError) throw innerError;
  }
  const parser = new PatchLineParser();
  const lastIndex = lines.length - 1;
  lines.forEach((line, index) => parser.push(line, index === lastIndex));
  const patch: Patch = { hunks: parser.hunks };
  if (parser.environmentId !== undefined) patch.environmentId = parser.environmentId;
  return patch;
}
