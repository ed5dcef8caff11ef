// One word of a command as the classifiers see it: its exact value when the shell would pass it on
// unchanged, or what is still certain about it when it is not a literal (an expansion, a glob, a
// quoting form whose meaning differs between shells). "Not a literal" never means "harmless": each
// check asks what the word could become.

export interface ShellWord {
  /** The word as written, for messages. */
  readonly text: string;
  /** The value the program receives, when the word is a literal; null otherwise. */
  readonly value: string | null;
  /** Literal text every value of this word starts with ('' when its start is not literal). */
  readonly prefix: string;
  /** Literal text every value ends with. */
  readonly suffix: string;
  /** May become zero or several words (an unquoted expansion, a glob, a brace expansion). */
  readonly splits: boolean;
  /**
   * For a glob whose only unknowns are its wildcards: characters written outside any wildcard,
   * which every matching name therefore contains.
   */
  readonly required?: string;
}

export function literal(value: string, text = value): ShellWord {
  return { text, value, prefix: value, suffix: value, splits: false };
}

/** A word nothing is known about (a command substitution, `$@`, input from a pipe). */
export function unknownWord(text: string, splits = true): ShellWord {
  return { text, value: null, prefix: '', suffix: '', splits };
}

export function isLiteral(word: ShellWord): word is ShellWord & { value: string } {
  return word.value !== null && !word.splits;
}

/** The values of the words when every one is a literal, else null. */
export function literalValues(words: readonly ShellWord[]): string[] | null {
  const values: string[] = [];
  for (const word of words) {
    if (!isLiteral(word)) return null;
    values.push(word.value);
  }
  return values;
}

/** Could (one of) the word's values begin with `-`? */
export function mayStartWithDash(word: ShellWord): boolean {
  if (word.value !== null) return word.value.startsWith('-');
  return word.prefix === '' || word.prefix.startsWith('-');
}

/**
 * Could the word be, or expand to, an option spelled only with characters matching `alphabet`?
 * A glob that must contain a character outside the alphabet (`*.o` needs a `.`) cannot match one.
 */
export function mayBeOptionLike(word: ShellWord, alphabet: RegExp): boolean {
  if (word.value !== null && !word.splits) return word.value.startsWith('-');
  if (word.prefix !== '' && !word.prefix.startsWith('-')) return false;
  if (word.required !== undefined && [...word.required].some((ch) => !alphabet.test(ch))) return false;
  return true;
}

/** The program name a word names, when its last path component is literal (`"$VENV"/bin/python` names python). */
export function programName(word: ShellWord): string | null {
  if (isLiteral(word)) return basename(word.value);
  const slash = word.suffix.lastIndexOf('/');
  if (word.splits || slash < 0) return null;
  const name = word.suffix.slice(slash + 1);
  return name === '' ? null : name;
}

export function basename(program: string): string {
  const trimmed = program.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? trimmed : trimmed.slice(slash + 1);
}

/** One character of an unquoted word after backslash removal; `active` ones may be special to the shell. */
export interface WordChar {
  ch: string;
  active: boolean;
}

/** Splits unquoted word text into characters, marking the ones a backslash made literal. */
export function unquotedChars(text: string): WordChar[] {
  const chars: WordChar[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      // Backslash-newline is a line continuation: it disappears.
      if (next !== '\n') chars.push({ ch: next, active: false });
      continue;
    }
    chars.push({ ch, active: true });
  }
  return chars;
}

const GLOB_CHARS = new Set(['*', '?', '[']);

/**
 * Builds a word from a sequence of parts: characters (quoted ones inactive) and unknown pieces.
 * `parts` is in order; an unknown piece is `{ unknown: true, splits }`.
 */
export function composeWord(text: string, parts: readonly (WordChar | { unknown: true; splits: boolean })[]): ShellWord {
  const chars: WordChar[] = [];
  let unknown = false;
  let splits = false;
  for (const part of parts) {
    if ('unknown' in part) {
      unknown = true;
      splits ||= part.splits;
    } else {
      chars.push(part);
    }
  }
  const active = (c: WordChar) => c.active;
  const hasGlob = chars.some((c) => active(c) && GLOB_CHARS.has(c.ch));
  const hasBrace = braceExpands(chars);
  const [first, second] = parts;
  const firstChar = first !== undefined && !('unknown' in first) && first.active ? first.ch : undefined;
  // Every shell expands a leading `~`; zsh expands `=cmd` to the command's path.
  const tilde = firstChar === '~' || (firstChar === '=' && second !== undefined);
  // zsh's extended glob negates with `^` at the start of a pattern or a path component.
  const unsure = chars.some((c, i) => active(c) && c.ch === '^' && (i === 0 || chars[i - 1]!.ch === '/'));
  const special = (c: WordChar | { unknown: true; splits: boolean }) => 'unknown' in c || (c.active && (GLOB_CHARS.has(c.ch) || c.ch === '^' || c.ch === '{' || c.ch === '~'));
  if (!unknown && !hasGlob && !hasBrace && !tilde && !unsure) {
    const value = chars.map((c) => c.ch).join('');
    return { text, value, prefix: value, suffix: value, splits: false };
  }
  let prefixEnd = parts.findIndex(special);
  if (prefixEnd < 0) prefixEnd = parts.length;
  if (tilde) prefixEnd = 0;
  let suffixStart = parts.length;
  while (suffixStart > 0 && !special(parts[suffixStart - 1]!)) suffixStart--;
  const join = (slice: readonly (WordChar | { unknown: true; splits: boolean })[]) => slice.map((p) => ('unknown' in p ? '' : p.ch)).join('');
  const word: { -readonly [K in keyof ShellWord]: ShellWord[K] } = {
    text,
    value: null,
    prefix: join(parts.slice(0, prefixEnd)),
    suffix: join(parts.slice(suffixStart)),
    splits: splits || hasGlob || hasBrace,
  };
  if (hasGlob && !unknown && !hasBrace && !tilde && !unsure) word.required = requiredByGlob(chars);
  return word;
}

/** `{a,b}` or `{1..3}` written unquoted: bash would make several words of it. */
function braceExpands(chars: readonly WordChar[]): boolean {
  const shape = chars.map((c) => (c.active ? c.ch : '_')).join('');
  return /\{[^}]*(,|\.\.)[^{]*\}/.test(shape);
}

/** Characters outside the wildcards of a glob (bracket expressions are wildcards too). */
function requiredByGlob(chars: readonly WordChar[]): string {
  let required = '';
  let inBracket = false;
  for (const c of chars) {
    if (c.active && c.ch === '[' && !inBracket) inBracket = true;
    else if (c.active && c.ch === ']' && inBracket) inBracket = false;
    else if (!inBracket && !(c.active && (c.ch === '*' || c.ch === '?'))) required += c.ch;
  }
  return required;
}
