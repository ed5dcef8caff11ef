// One-call classification of a command: the cheap reader handles plain one-line scripts, and the
// tree-sitter parser is loaded only when a script needs it (see script-syntax.ts).

import { loadBashParser, type BashParser } from './bash.js';
import { readSimpleScript, type ScriptReader, type ScriptSyntax } from './script-syntax.js';
import { classifyArgv, ParserNeeded, type ClassifyOptions, type ScriptVerdict } from './verdict.js';

export interface CommandClassification {
  knownSafe: boolean;
  dangerous: boolean;
  /** Why it is dangerous, phrased for the model. */
  dangerReason?: string;
}

/**
 * A reader that tries the cheap reader first, then `bash` (null: scripts that need it are
 * unreadable). `cheapFirst: false` sends every script to tree-sitter (for measuring the difference).
 */
export function scriptReader(bash: BashParser | null, options: { cheapFirst?: boolean } = {}): ScriptReader {
  const cheapFirst = options.cheapFirst ?? true;
  // One command is read by the rules and by the classifier: parse each script once.
  const seen = new Map<string, ScriptSyntax | null>();
  return {
    read(script: string): ScriptSyntax | null {
      if (seen.has(script)) return seen.get(script)!;
      const syntax = readScript(script, bash, cheapFirst);
      if (seen.size < 32) seen.set(script, syntax);
      return syntax;
    },
  };
}

function readScript(script: string, bash: BashParser | null, cheapFirst: boolean): ScriptSyntax | null {
  const simple = cheapFirst || bash === null ? readSimpleScript(script) : null;
  if (simple !== null || bash === null) return simple;
  if (!script.includes('\\\n')) return bash.readScript(script);
  // tree-sitter takes a backslash-newline inside a word for a word break, bash joins the word:
  // read it both ways (a command either reading shows counts), and never as plain.
  const asWritten = bash.readScript(script);
  const joined = bash.readScript(script.replace(/\\\n/g, ''));
  const opaque = asWritten.opaque ?? joined.opaque;
  return { commands: [...asWritten.commands, ...joined.commands], plainArgv: null, heredocPrefix: null, heredocRows: asWritten.heredocRows ?? [], ...(opaque ? { opaque } : {}) };
}

/** The verdict for `argv` with the parser at hand; a script it cannot read without one counts as dangerous. */
export function commandVerdict(argv: readonly string[], bash: BashParser | null, options: ClassifyOptions = {}, wantSafe = true): ScriptVerdict {
  try {
    return classifyArgv(argv, scriptReader(bash), options, wantSafe);
  } catch (error) {
    if (!(error instanceof ParserNeeded)) throw error;
    return { safe: false, danger: 'rig could not read this script without its bash parser, so it always needs approval' };
  }
}

/** The verdict for `argv`, loading the bash parser only when a script needs it. */
export async function commandVerdictLazily(argv: readonly string[], options: ClassifyOptions = {}, wantSafe = true): Promise<ScriptVerdict> {
  try {
    return classifyArgv(argv, scriptReader(null), options, wantSafe);
  } catch (error) {
    if (!(error instanceof ParserNeeded)) throw error;
  }
  return classifyArgv(argv, scriptReader(await loadBashParser()), options, wantSafe);
}

/** Whether classifying `argv` needs the tree-sitter parser (so callers can skip loading it). */
export function needsBashParser(argv: readonly string[]): boolean {
  try {
    classifyArgv(argv, scriptReader(null), {}, false);
    return false;
  } catch (error) {
    if (error instanceof ParserNeeded) return true;
    throw error;
  }
}

/**
 * Known safe: a read-only command the classifier fully understands (see verdict.ts). Read-only git
 * commands count only with `cwd` and `canWrite` in the options (their repository decides).
 */
export function isKnownSafeCommand(argv: readonly string[], bash: BashParser | null, options: ClassifyOptions = {}): boolean {
  return commandVerdict(argv, bash, options).safe;
}

export async function classifyCommand(argv: readonly string[], options: ClassifyOptions = {}): Promise<CommandClassification> {
  const verdict = await commandVerdictLazily(argv, options);
  const result: CommandClassification = { knownSafe: verdict.safe, dangerous: verdict.danger !== undefined };
  if (verdict.danger !== undefined) result.dangerReason = verdict.danger;
  return result;
}
