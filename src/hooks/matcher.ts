// Matcher semantics shared by Codex and Claude Code: missing, "" or "*" match everything; a string
// of only letters, digits, "_" and "|" is a list of exact names; anything else is a regular
// expression searched (not anchored) in the input. A handler runs once per call even when several
// alias names of the tool match it. Codex compiles matchers with Rust's regex crate, whose inline
// `(?i)` prefix JavaScript lacks: it is read as the `i` flag.

const EXACT = /^[A-Za-z0-9_|]+$/;

export function isMatchAll(matcher: string | undefined): boolean {
  return matcher === undefined || matcher === '' || matcher === '*';
}

/** Why `matcher` cannot be used, or undefined when it is fine. */
function compile(matcher: string): RegExp {
  return matcher.startsWith('(?i)') ? new RegExp(matcher.slice(4), 'i') : new RegExp(matcher);
}

export function matcherProblem(matcher: string): string | undefined {
  if (isMatchAll(matcher) || EXACT.test(matcher)) return undefined;
  try {
    compile(matcher);
    return undefined;
  } catch (error) {
    return `not a valid regular expression (${(error as Error).message})`;
  }
}

const compiled = new Map<string, RegExp | null>();

function regexFor(matcher: string): RegExp | null {
  let re = compiled.get(matcher);
  if (re === undefined) {
    try {
      re = compile(matcher);
    } catch {
      re = null;
    }
    compiled.set(matcher, re);
  }
  return re;
}

/** True when `matcher` selects any of `inputs` (a tool's name and its alias names, or one value). */
export function matcherMatches(matcher: string | undefined, inputs: readonly string[]): boolean {
  if (isMatchAll(matcher)) return true;
  const m = matcher!;
  if (EXACT.test(m)) {
    const names = m.split('|');
    return inputs.some((input) => names.includes(input));
  }
  const re = regexFor(m);
  return re !== null && inputs.some((input) => re.test(input));
}
