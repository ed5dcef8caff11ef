// Property tests: a patch written from a random edit of a random file applies back to exactly
// the edited file; arbitrary input never makes the parsers fail with anything but a parse error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeChanges } from '../../src/patch/compute.js';
import { parsePatch, PatchParseError } from '../../src/patch/parse.js';
import { StreamingPatchParser } from '../../src/patch/stream.js';

interface Line {
  text: string;
  ending: '' | '\n' | '\r\n';
}

interface Edit {
  start: number;
  removeCount: number;
  insert: string[];
}

// Small alphabet so lines repeat often (ambiguous context is the interesting case). It cannot
// spell `@@` or `*** End of File`, which a context line may not look like after trimming.
const lineText = fc.array(fc.constantFrom('a', 'b', ' ', '-', '+', '*', '\t', 'é'), { maxLength: 4 }).map((cs) => cs.join(''));

const fileLines = fc
  .tuple(
    fc.array(fc.record({ text: lineText, ending: fc.constantFrom<'\n' | '\r\n'>('\n', '\n', '\r\n') }), { maxLength: 30 }),
    fc.boolean(),
  )
  .map(([lines, lastUnterminated]): Line[] => {
    const copy = lines.map((line) => ({ ...line }) as Line);
    const last = copy[copy.length - 1];
    // An unterminated empty last line would not exist in the text at all.
    if (last && lastUnterminated && last.text !== '') last.ending = '';
    return copy;
  });

function render(lines: readonly Line[]): string {
  return lines.map((line) => line.text + line.ending).join('');
}

/** Non-overlapping, sorted, non-empty edits. */
function editsFor(n: number): fc.Arbitrary<Edit[]> {
  return fc
    .array(fc.record({ start: fc.nat(n), removeCount: fc.nat(3), insert: fc.array(lineText, { maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 5,
    })
    .map((raw) => {
      const edits: Edit[] = [];
      let end = 0;
      for (const edit of [...raw].sort((a, b) => a.start - b.start)) {
        const removeCount = Math.min(edit.removeCount, n - edit.start);
        if (edit.start < end || (removeCount === 0 && edit.insert.length === 0)) continue;
        edits.push({ start: edit.start, removeCount, insert: edit.insert });
        end = edit.start + removeCount;
      }
      return edits;
    })
    .filter((edits) => edits.length > 0);
}

/** The edited file as the applier defines it: new lines take the first-seen line ending. */
function expectedAfter(before: readonly Line[], edits: readonly Edit[]): string {
  const preferred = before.find((line) => line.ending !== '')?.ending ?? '\n';
  const out: Line[] = [];
  let cursor = 0;
  for (const edit of edits) {
    out.push(...before.slice(cursor, edit.start));
    out.push(...edit.insert.map((text) => ({ text, ending: preferred }) as Line));
    cursor = edit.start + edit.removeCount;
  }
  out.push(...before.slice(cursor));
  return out.map((line) => line.text + (line.ending === '' ? preferred : line.ending)).join('');
}

function firstExactMatch(lines: readonly string[], pattern: readonly string[], from: number): number {
  outer: for (let i = from; i + pattern.length <= lines.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (lines[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

/** Writes an Update File patch for `edits`, widening context until every chunk is unambiguous. */
function writePatch(before: readonly Line[], edits: readonly Edit[], context: number, markEof: boolean, bareFirst: boolean): string {
  const texts = before.map((line) => line.text);
  const n = texts.length;
  const groups: Edit[][] = [];
  for (const edit of edits) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last && edit.start - (last.start + last.removeCount) <= 2 * context) group.push(edit);
    else groups.push([edit]);
  }
  const body: string[] = [];
  let cursor = 0;
  groups.forEach((group, index) => {
    const first = group[0] as Edit;
    const lastEdit = group[group.length - 1] as Edit;
    const end = lastEdit.start + lastEdit.removeCount;
    let pre = Math.max(cursor, first.start - context);
    let post = Math.min(n, end + context);
    const hasOld = first.start > pre || post > end || group.some((edit) => edit.removeCount > 0);
    if (!hasOld) {
      // A chunk without old lines is appended at the end of the file, so give it a context line.
      if (first.start < n) post = first.start + 1;
      else if (first.start > cursor) pre = first.start - 1;
    }
    const oldLinesFrom = (p: number): string[] => {
      const old = texts.slice(p, first.start);
      group.forEach((edit, i) => {
        old.push(...texts.slice(edit.start, edit.start + edit.removeCount));
        const next = group[i + 1];
        old.push(...texts.slice(edit.start + edit.removeCount, next ? next.start : post));
      });
      return old;
    };
    while (pre > cursor && firstExactMatch(texts, oldLinesFrom(pre), cursor) !== pre) pre -= 1;
    body.push(index === 0 && bareFirst ? '' : '@@');
    for (const text of texts.slice(pre, first.start)) body.push(` ${text}`);
    group.forEach((edit, i) => {
      for (const text of texts.slice(edit.start, edit.start + edit.removeCount)) body.push(`-${text}`);
      for (const text of edit.insert) body.push(`+${text}`);
      const next = group[i + 1];
      for (const text of texts.slice(edit.start + edit.removeCount, next ? next.start : post)) body.push(` ${text}`);
    });
    if (markEof && post === n && oldLinesFrom(pre).length > 0) body.push('*** End of File');
    cursor = post;
  });
  const lines = body.filter((line, i) => !(i === 0 && line === ''));
  return ['*** Begin Patch', '*** Update File: file.txt', ...lines, '*** End Patch'].join('\n');
}

describe('apply_patch properties', () => {
  it('a patch written from a random edit applies back to exactly the edited file', () => {
    const scenario = fileLines.chain((before) =>
      fc.record({
        before: fc.constant(before),
        edits: editsFor(before.length),
        context: fc.integer({ min: 0, max: 3 }),
        markEof: fc.boolean(),
        bareFirst: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ before, edits, context, markEof, bareFirst }) => {
        const patchText = writePatch(before, edits, context, markEof, bareFirst);
        const original = render(before);
        const [edit] = computeChanges(parsePatch(patchText), (abs) => (abs === '/w/file.txt' ? original : undefined), '/w');
        expect(edit?.content).toBe(expectedAfter(before, edits));
        expect(edit?.expectedContent).toBe(original);
      }),
      { numRuns: 200 },
    );
  });

  it('an Add File hunk creates exactly its + lines', () => {
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => !/[\r\n]/.test(s)), { maxLength: 10 }), (lines) => {
        const patchText = ['*** Begin Patch', '*** Add File: new.txt', ...lines.map((l) => `+${l}`), '*** End Patch'].join('\n');
        const [edit] = computeChanges(parsePatch(patchText), () => undefined, '/w');
        expect(edit).toEqual({ path: '/w/new.txt', kind: 'add', content: lines.map((l) => `${l}\n`).join('') });
      }),
      { numRuns: 200 },
    );
  });

  const fragments = fc.array(
    fc.oneof(
      fc.constantFrom(
        '*** Begin Patch', '*** End Patch', '*** Add File: a', '*** Delete File: b', '*** Update File: c',
        '*** Move to: d', '@@', '@@ ctx', '*** End of File', ' ctx', '-old', '+new', '', '  *** End Patch ',
        "<<'EOF'", 'EOF', '*** Environment ID: e', '\r',
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 12 },
  );
  const anyInput = fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fragments.map((parts) => parts.join('\n')),
  );

  it('random input never throws anything but PatchParseError', () => {
    fc.assert(
      fc.property(anyInput, (text) => {
        try {
          parsePatch(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PatchParseError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the streaming parser never throws, whatever the input and however it is split', () => {
    fc.assert(
      fc.property(anyInput, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const parser = new StreamingPatchParser();
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (text.length + 1))].sort((a, b) => a - b)) {
          parser.feed(text.slice(at, cut));
          at = cut;
        }
        parser.feed(text.slice(at));
        if (parser.error) expect(parser.error).toBeInstanceOf(PatchParseError);
        expect(parser.fullText).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
