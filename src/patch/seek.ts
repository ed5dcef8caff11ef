// Finding a chunk's lines in a file with Codex's leniency: exact first, then ignoring trailing
// whitespace, then surrounding whitespace, then also typographic punctuation. A position found
// by an earlier (stricter) pass always wins over any position of a later pass.
//
// The file's normalised lines are computed once per pass and indexed by text, so a patch with
// many chunks on a long file costs about linear time rather than chunks x lines.

type Normalise = (line: string) => string;

const PUNCTUATION: Record<string, string> = {};
for (const ch of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') PUNCTUATION[ch] = '-';
for (const ch of '\u2018\u2019\u201A\u201B') PUNCTUATION[ch] = "'";
for (const ch of '\u201C\u201D\u201E\u201F') PUNCTUATION[ch] = '"';
for (const ch of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') {
  PUNCTUATION[ch] = ' ';
}
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

export function normalisePunctuation(text: string): string {
  return text.replace(PUNCTUATION_RE, (ch) => PUNCTUATION[ch] ?? ch);
}

const PASSES: readonly Normalise[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => normalisePunctuation(line.trim()),
];

/** A file's lines plus lazily built per-pass lookup tables. Build once per file, seek many times. */
export class LineIndex {
  private readonly normalised: (string[] | undefined)[] = [];
  private readonly positions: (Map<string, number[]> | undefined)[] = [];

  constructor(readonly lines: readonly string[]) {}

  get length(): number {
    return this.lines.length;
  }

  normalisedLines(pass: number): readonly string[] {
    let lines = this.normalised[pass];
    if (!lines) {
      const normalise = PASSES[pass] as Normalise;
      lines = pass === 0 ? (this.lines as string[]) : this.lines.map(normalise);
      this.normalised[pass] = lines;
    }
    return lines;
  }

  /** Ascending line numbers whose normalised text equals `text` in the given pass. */
  positionsOf(pass: number, text: string): readonly number[] {
    let map = this.positions[pass];
    if (!map) {
      map = new Map();
      this.normalisedLines(pass).forEach((line, index) => {
        const list = map?.get(line);
        if (list) list.push(index);
        else map?.set(line, [index]);
      });
      this.positions[pass] = map;
    }
    return map.get(text) ?? [];
  }
}

/** Lines scanned directly from the cursor before the exact pass falls back to the lookup table. */
const EXACT_SCAN_WINDOW = 512;

/**
 * Index of the first line where `pattern` occurs at or after `start`, or -1. With `eof` the
 * pattern must end at the file's last line (and still start at or after `start`).
 */
export function seekSequence(file: LineIndex | readonly string[], pattern: readonly string[], start: number, eof: boolean): number {
  const index = file instanceof LineIndex ? file : new LineIndex(file);
  if (pattern.length === 0) return start;
  if (pattern.length > index.length) return -1;
  const lastStart = index.length - pattern.length;
  const from = eof ? Math.max(lastStart, start) : start;
  if (from > lastStart) return -1;
  // Chunks usually sit a little after the previous one, so a short direct scan finds most of
  // them without building any table.
  const scanEnd = Math.min(lastStart, from + EXACT_SCAN_WINDOW);
  for (let at = from; at <= scanEnd; at++) {
    if (index.lines[at] === pattern[0] && matchesAt(index.lines, pattern, at)) return at;
  }
  for (let pass = 0; pass < PASSES.length; pass++) {
    const normalise = PASSES[pass] as Normalise;
    const wanted = pass === 0 ? pattern : pattern.map(normalise);
    const found = seekWithTable(index, pass, wanted, pass === 0 ? scanEnd + 1 : from, lastStart);
    if (found >= 0) return found;
  }
  return -1;
}

/** Looks candidates up by the pattern line with the fewest occurrences in the file. */
function seekWithTable(index: LineIndex, pass: number, pattern: readonly string[], from: number, lastStart: number): number {
  if (from > lastStart) return -1;
  let keyOffset = 0;
  let candidates = index.positionsOf(pass, pattern[0] as string);
  for (let k = 1; k < pattern.length && candidates.length > 1; k++) {
    const other = index.positionsOf(pass, pattern[k] as string);
    if (other.length < candidates.length) {
      candidates = other;
      keyOffset = k;
    }
  }
  const lines = index.normalisedLines(pass);
  for (let c = lowerBound(candidates, from + keyOffset); c < candidates.length; c++) {
    const at = (candidates[c] as number) - keyOffset;
    if (at > lastStart) break;
    if (matchesAt(lines, pattern, at)) return at;
  }
  return -1;
}

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (lines[at + i] !== pattern[i]) return false;
  }
  return true;
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
