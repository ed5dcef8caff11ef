// pi's edit semantics, re-implemented from its behaviour (badlogic/pi-mono
// packages/coding-agent/src/core/tools/edit-diff.ts: normalizeForFuzzyMatch and fuzzyFindText
// @ 83378aa, and the multi-edit applyEditsToNormalizedContent of the edits[] tool that pi 0.73
// advertises). The BOM is set aside and line endings read as LF before matching, every edit is
// matched against the original text (exactly first, else in a fuzzy-normalized space), edits
// must be unique and must not overlap, and the file keeps its BOM and line endings. Pure.

export interface PiEdit {
  oldText: string;
  newText: string;
}

export function stripBom(text: string): { bom: string; text: string } {
  return text.startsWith('\uFEFF') ? { bom: '\uFEFF', text: text.slice(1) } : { bom: '', text };
}

/** CRLF when the first line break of the file is one, else LF. */
export function lineEndingOf(text: string): '\r\n' | '\n' {
  const lf = text.indexOf('\n');
  if (lf === -1) return '\n';
  const crlf = text.indexOf('\r\n');
  return crlf !== -1 && crlf < lf ? '\r\n' : '\n';
}

export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
}

export function withLineEnding(text: string, ending: '\r\n' | '\n'): string {
  return ending === '\r\n' ? text.replace(/\n/g, '\r\n') : text;
}

/**
 * pi's fuzzy reading: NFKC, no trailing whitespace on any line, typographic quotes, dashes and
 * spaces as their ASCII forms.
 */
export function piFuzzy(text: string): string {
  return text
    .normalize('NFKC')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' ');
}

interface Found {
  index: number;
  length: number;
  fuzzy: boolean;
}

function find(content: string, oldText: string): Found | undefined {
  const exact = content.indexOf(oldText);
  if (exact !== -1) return { index: exact, length: oldText.length, fuzzy: false };
  const fuzzyOld = piFuzzy(oldText);
  const fuzzy = piFuzzy(content).indexOf(fuzzyOld);
  return fuzzy === -1 ? undefined : { index: fuzzy, length: fuzzyOld.length, fuzzy: true };
}

function occurrences(content: string, oldText: string): number {
  return piFuzzy(content).split(piFuzzy(oldText)).length - 1;
}

/**
 * Applies the edits to LF-normalized, BOM-less content. When any edit needs the fuzzy reading,
 * the whole file is rewritten in that reading (as pi does). `path` is the path as the model gave it.
 */
export function applyPiEdits(content: string, edits: PiEdit[], path: string): { base: string; next: string } | { error: string } {
  const wanted = edits.map((edit) => ({ oldText: toLf(edit.oldText), newText: toLf(edit.newText) }));
  const single = wanted.length === 1;
  for (const [i, edit] of wanted.entries()) {
    if (edit.oldText === '') return { error: single ? `oldText must not be empty in ${path}.` : `edits[${i}].oldText must not be empty in ${path}.` };
  }
  const base = wanted.some((edit) => find(content, edit.oldText)?.fuzzy) ? piFuzzy(content) : content;
  const matched: { edit: number; index: number; length: number; newText: string }[] = [];
  for (const [i, edit] of wanted.entries()) {
    const found = find(base, edit.oldText);
    if (!found) {
      return {
        error: single
          ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
          : `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
      };
    }
    const count = occurrences(base, edit.oldText);
    if (count > 1) {
      return {
        error: single
          ? `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
          : `Found ${count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
      };
    }
    matched.push({ edit: i, index: found.index, length: found.length, newText: edit.newText });
  }
  matched.sort((a, b) => a.index - b.index);
  for (let k = 1; k < matched.length; k++) {
    const before = matched[k - 1]!;
    const after = matched[k]!;
    if (before.index + before.length > after.index) {
      return { error: `edits[${before.edit}] and edits[${after.edit}] overlap in ${path}. Merge them into one edit or target disjoint regions.` };
    }
  }
  let next = base;
  for (const edit of [...matched].reverse()) next = next.slice(0, edit.index) + edit.newText + next.slice(edit.index + edit.length);
  if (next === base) {
    return { error: single ? `No changes made to ${path}. The replacement produced identical content.` : `No changes made to ${path}. The replacements produced identical content.` };
  }
  return { base, next };
}

function isEdit(value: unknown): value is PiEdit {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const edit = value as Record<string, unknown>;
  return typeof edit['oldText'] === 'string' && typeof edit['newText'] === 'string';
}

/**
 * The edits of a call, repaired the way pi repairs the shapes models send: `edits` as a JSON
 * string or a single object, and a top-level oldText/newText pair (added last).
 */
export function piEditsOf(args: Record<string, unknown>): PiEdit[] | string {
  let raw = args['edits'];
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      raw = isEdit(parsed) ? [parsed] : parsed;
    } catch {
      // left as it is: not an array, so refused below
    }
  } else if (isEdit(raw)) {
    raw = [raw];
  }
  const edits = Array.isArray(raw) ? [...raw] : [];
  if (isEdit(args)) edits.push({ oldText: args.oldText, newText: args.newText });
  if (edits.length === 0) return 'Edit tool input is invalid. edits must contain at least one replacement.';
  if (!edits.every(isEdit)) return 'Edit tool input is invalid. Each edit needs oldText and newText strings.';
  return edits;
}
