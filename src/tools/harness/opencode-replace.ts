// opencode's lenient edit matching, re-implemented from the behaviour of its replacer chain
// (anomalyco/opencode packages/opencode/src/tool/edit.ts @ 00937b9, `replace()` and the nine
// Replacer generators): when oldString is not in the file as written, progressively looser
// readings of it are tried, in this order, and the first one that names a unique span of the
// file wins. Pure: the caller builds the change set from the result.

/** Each finder proposes spans of `content` that `find` may have meant, as literal text. */
type Finder = (content: string, find: string) => Iterable<string>;

function withoutTrailingEmpty(lines: string[]): string[] {
  return lines.length > 0 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}

/** The blocks of `count` consecutive lines of `lines`, joined back with newlines. */
function* blocks(lines: string[], count: number): Generator<string> {
  for (let start = 0; start + count <= lines.length; start++) yield lines.slice(start, start + count).join('\n');
}

/** Edit distance (insertions, deletions, substitutions), two rows at a time. */
export function levenshtein(a: string, b: string): number {
  if (a === '' || b === '') return Math.max(a.length, b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** 1. The text as written. */
const asWritten: Finder = (_content, find) => [find];

/** 2. Every line equal once leading and trailing whitespace is ignored. */
const lineTrimmed: Finder = function* (content, find) {
  const lines = content.split('\n');
  const wanted = withoutTrailingEmpty(find.split('\n'));
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    if (wanted.every((line, k) => (lines[start + k] ?? '').trim() === line.trim())) {
      yield lines.slice(start, start + wanted.length).join('\n');
    }
  }
};

/** Mean similarity of the middle lines of a candidate block (1 when there are none). */
function middleSimilarity(lines: string[], start: number, end: number, wanted: string[]): number {
  const checked = Math.min(wanted.length - 2, end - start - 1);
  if (checked <= 0) return 1;
  let similarity = 0;
  for (let k = 1; k < wanted.length - 1 && k < end - start; k++) {
    const have = (lines[start + k] ?? '').trim();
    const want = (wanted[k] ?? '').trim();
    const longest = Math.max(have.length, want.length);
    if (longest === 0) continue;
    similarity += (1 - levenshtein(have, want) / longest) / checked;
  }
  return similarity;
}

/**
 * 3. First and last lines as anchors (at least three lines): the block between them, when the
 * middle looks alike (one candidate is always taken; among several, the most alike above 0.3).
 */
const blockAnchor: Finder = function* (content, find) {
  const raw = find.split('\n');
  if (raw.length < 3) return;
  const wanted = withoutTrailingEmpty(raw);
  const lines = content.split('\n');
  const first = (wanted[0] ?? '').trim();
  const last = (wanted[wanted.length - 1] ?? '').trim();
  const candidates: { start: number; end: number }[] = [];
  for (let start = 0; start < lines.length; start++) {
    if ((lines[start] ?? '').trim() !== first) continue;
    for (let end = start + 2; end < lines.length; end++) {
      if ((lines[end] ?? '').trim() === last) {
        candidates.push({ start, end });
        break;
      }
    }
  }
  const span = ({ start, end }: { start: number; end: number }) => lines.slice(start, end + 1).join('\n');
  if (candidates.length === 0) return;
  // One candidate is taken whatever its middle looks like (the original's threshold for it is 0).
  if (candidates.length === 1) {
    yield span(candidates[0]!);
    return;
  }
  let best: { start: number; end: number } | undefined;
  let bestSimilarity = -1;
  for (const candidate of candidates) {
    const similarity = middleSimilarity(lines, candidate.start, candidate.end, wanted);
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = candidate;
    }
  }
  if (best && bestSimilarity >= 0.3) yield span(best);
};

const collapseWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** 4. Equal once every run of whitespace counts as one space: a line, part of a line, or a block. */
const whitespaceNormalized: Finder = function* (content, find) {
  const wanted = collapseWhitespace(find);
  const lines = content.split('\n');
  for (const line of lines) {
    const collapsed = collapseWhitespace(line);
    if (collapsed === wanted) {
      yield line;
    } else if (collapsed.includes(wanted)) {
      const words = find.trim().split(/\s+/);
      const pattern = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
      const match = pattern.exec(line);
      if (match) yield match[0];
    }
  }
  const count = find.split('\n').length;
  if (count > 1) {
    for (const block of blocks(lines, count)) if (collapseWhitespace(block) === wanted) yield block;
  }
};

/** Removes the indentation common to the non-blank lines. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  if (indents.length === 0) return text;
  const common = Math.min(...indents);
  return lines.map((line) => (line.trim() === '' ? line : line.slice(common))).join('\n');
}

/** 5. The same block at another indentation depth. */
const indentationFlexible: Finder = function* (content, find) {
  const wanted = dedent(find);
  for (const block of blocks(content.split('\n'), find.split('\n').length)) if (dedent(block) === wanted) yield block;
};

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', "'": "'", '"': '"', '`': '`', '\\': '\\', '\n': '\n', $: '$' };

/** Reads backslash escapes (`\n`, `\t`, `\"`, ...) as the characters they stand for. */
function unescape(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (whole, char: string) => ESCAPES[char] ?? whole);
}

/** 6. The model escaped what the file has literally, or the file holds the escapes. */
const escapeNormalized: Finder = function* (content, find) {
  const wanted = unescape(find);
  if (content.includes(wanted)) yield wanted;
  for (const block of blocks(content.split('\n'), wanted.split('\n').length)) if (unescape(block) === wanted) yield block;
};

/** 7. The text without its surrounding whitespace. */
const trimmedBoundary: Finder = function* (content, find) {
  const trimmed = find.trim();
  if (trimmed === find) return;
  if (content.includes(trimmed)) yield trimmed;
  for (const block of blocks(content.split('\n'), find.split('\n').length)) if (block.trim() === trimmed) yield block;
};

/** 8. Same first and last line and as many lines, with at least half the middle lines equal. */
const contextAware: Finder = function* (content, find) {
  const raw = find.split('\n');
  if (raw.length < 3) return;
  const wanted = withoutTrailingEmpty(raw);
  const lines = content.split('\n');
  const first = (wanted[0] ?? '').trim();
  const last = (wanted[wanted.length - 1] ?? '').trim();
  for (let start = 0; start < lines.length; start++) {
    if ((lines[start] ?? '').trim() !== first) continue;
    for (let end = start + 2; end < lines.length; end++) {
      if ((lines[end] ?? '').trim() !== last) continue;
      const block = lines.slice(start, end + 1);
      if (block.length === wanted.length) {
        let compared = 0;
        let equal = 0;
        for (let k = 1; k < block.length - 1; k++) {
          const have = (block[k] ?? '').trim();
          const want = (wanted[k] ?? '').trim();
          if (have === '' && want === '') continue;
          compared++;
          if (have === want) equal++;
        }
        if (compared === 0 || equal / compared >= 0.5) yield block.join('\n');
      }
      break;
    }
  }
};

/** 9. Every exact occurrence (only replaceAll can use more than one). */
const everyOccurrence: Finder = function* (content, find) {
  for (let at = content.indexOf(find); at !== -1; at = content.indexOf(find, at + find.length)) yield find;
};

const FINDERS: Finder[] = [
  asWritten,
  lineTrimmed,
  blockAnchor,
  whitespaceNormalized,
  indentationFlexible,
  escapeNormalized,
  trimmedBoundary,
  contextAware,
  everyOccurrence,
];

export const OPENCODE_NOT_FOUND =
  'Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.';
export const OPENCODE_MULTIPLE = 'Found multiple matches for oldString. Provide more surrounding context to make the match unique.';

/**
 * The content after replacing `oldString`, read as leniently as opencode does, or the error text.
 * With replaceAll every occurrence of the first matching reading is replaced; otherwise the
 * reading must occur exactly once.
 */
export function opencodeReplace(content: string, oldString: string, newString: string, replaceAll: boolean): { content: string } | { error: string } {
  let seen = false;
  for (const finder of FINDERS) {
    for (const search of finder(content, oldString)) {
      const at = content.indexOf(search);
      if (at === -1) continue;
      seen = true;
      // Literal replacement: the original's String.replaceAll would also expand `$&`-style patterns.
      if (replaceAll) return { content: content.split(search).join(newString) };
      if (at !== content.lastIndexOf(search)) continue;
      return { content: content.slice(0, at) + newString + content.slice(at + search.length) };
    }
  }
  return { error: seen ? OPENCODE_MULTIPLE : OPENCODE_NOT_FOUND };
}
