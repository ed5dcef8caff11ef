// Recognising apply_patch run through a shell tool, so the patch goes through the file-change
// engine instead of a process. Only the exact shapes models use are accepted, one statement:
//   apply_patch <<'EOF' ... EOF            (applypatch too; any delimiter and quoting)
//   cd <dir> && apply_patch <<'EOF' ... EOF
// and the argv forms ["apply_patch", patch] and [shell, "-lc"|"-c", script]. Anything else
// (pipes, `;`, `||`, more commands, arguments) runs as an ordinary command.
import * as path from 'node:path';
import { parsePatch } from './parse.js';

export interface ApplyPatchInvocation {
  /** The patch text (heredoc body, or the argv argument as given). */
  patch: string;
  /** The `cd` directory as written in the script; resolve it against the command's cwd. */
  workdir?: string;
}

const COMMAND_NAMES = new Set(['apply_patch', 'applypatch']);

export const IMPLICIT_PATCH_MESSAGE =
  'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]';

/** `commandOrArgv`: a shell script string (as run by `sh -c`), or an argv array. */
export function detectApplyPatchInvocation(commandOrArgv: string | readonly string[]): ApplyPatchInvocation | null {
  if (typeof commandOrArgv === 'string') return parseScript(commandOrArgv);
  const [first, second] = commandOrArgv;
  if (commandOrArgv.length === 2 && first !== undefined && second !== undefined && COMMAND_NAMES.has(first)) {
    return { patch: second };
  }
  const script = shellScriptOf(commandOrArgv);
  return script === undefined ? null : parseScript(script);
}

/**
 * Returns IMPLICIT_PATCH_MESSAGE when the command is a bare patch (an argv of one patch, or a
 * shell script that is nothing but a patch), which should be refused rather than executed.
 */
export function detectImplicitPatch(commandOrArgv: string | readonly string[]): string | null {
  let candidate: string | undefined;
  if (typeof commandOrArgv === 'string') candidate = commandOrArgv;
  else if (commandOrArgv.length === 1) candidate = commandOrArgv[0];
  else candidate = shellScriptOf(commandOrArgv);
  // Every shell command comes here; a failed parse builds an error with a stack. No patch parses
  // without its first line, so a script without it is not one.
  if (candidate === undefined || !candidate.includes('*** Begin Patch')) return null;
  try {
    parsePatch(candidate);
    return IMPLICIT_PATCH_MESSAGE;
  } catch {
    return null;
  }
}

/** The script of `[bash|zsh|sh, -c|-lc, s]`, `[pwsh|powershell, (-NoProfile,) -Command, s]`, `[cmd, /c, s]`. */
function shellScriptOf(argv: readonly string[]): string | undefined {
  const [shell, ...rest] = argv;
  if (shell === undefined) return undefined;
  const name = path.basename(shell.replaceAll('\\', '/')).replace(/\.[^.]*$/, '').toLowerCase();
  const flags = rest.slice(0, -1).map((flag) => flag.toLowerCase());
  const script = rest[rest.length - 1];
  if (script === undefined) return undefined;
  if (name === 'bash' || name === 'zsh' || name === 'sh') {
    return flags.length === 1 && (flags[0] === '-lc' || flags[0] === '-c') ? script : undefined;
  }
  if (name === 'pwsh' || name === 'powershell') {
    const ok = (flags.length === 1 && flags[0] === '-command') ||
      (flags.length === 2 && flags[0] === '-noprofile' && flags[1] === '-command');
    return ok ? script : undefined;
  }
  if (name === 'cmd') return flags.length === 1 && flags[0] === '/c' ? script : undefined;
  return undefined;
}

const CD_ARGUMENT = String.raw`(?:'([^']*)'|"([^"$\x60\\]*)"|([A-Za-z0-9_./@%+=:,-]+))`;
const HEAD = new RegExp(
  String.raw`^\s*(?:cd[ \t]+${CD_ARGUMENT}[ \t]*&&\s*)?(?:apply_patch|applypatch)[ \t]*<<(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z0-9_.-]+))[ \t]*\r?\n`,
);

function parseScript(script: string): ApplyPatchInvocation | null {
  const head = HEAD.exec(script);
  if (!head) return null;
  const [, singleQuoted, doubleQuoted, bare, dash, delim1, delim2, delim3] = head;
  const delimiter = delim1 ?? delim2 ?? delim3;
  if (delimiter === undefined) return null;
  const stripTabs = dash === '-';
  const bodyLines: string[] = [];
  const rest = script.slice(head[0].length).split('\n');
  let index = 0;
  let terminated = false;
  for (; index < rest.length; index++) {
    const raw = rest[index] as string;
    const line = stripTabs ? raw.replace(/^\t+/, '') : raw;
    if (line.replace(/\r$/, '') === delimiter) {
      terminated = true;
      index += 1;
      break;
    }
    bodyLines.push(line);
  }
  // Nothing may follow the heredoc: a second command means this is not a plain apply_patch.
  if (terminated && rest.slice(index).join('\n').trim() !== '') return null;
  const invocation: ApplyPatchInvocation = { patch: bodyLines.join('\n').replace(/\n+$/, '') };
  const workdir = singleQuoted ?? doubleQuoted ?? bare;
  if (workdir !== undefined) invocation.workdir = workdir;
  return invocation;
}
