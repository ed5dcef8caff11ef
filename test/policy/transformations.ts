// Ways to write the same command so that a word-matching classifier no longer recognises it:
// quoting and expansion tricks on single words, wrappers that run a command, and shells that run
// a script (`-c`, eval, heredoc, herestring, pipe). Each transformation preserves what bash runs;
// test/policy/classifier-properties.test.ts checks that on a harmless printf command before
// trusting the generator, then checks that no transformed dangerous command is called safe.
import { shlexQuote } from '../../src/policy/index.js';

/** POSIX single quotes, always (shlexQuote leaves plain words bare). */
export const sq = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export interface Written {
  /** Statements that must run before the command (variable assignments). */
  pre: string[];
  /** The word as shell text. */
  text: string;
}

export interface Quoting {
  name: string;
  /** Means the same only in bash and zsh ($'...' is not POSIX: dash reads `$` and a quoted string). */
  bashOnly?: boolean;
  /** Whether the result is still a literal word (quoting only, no expansion). */
  literal: boolean;
  /** null when this quoting cannot express the word. */
  write(word: string, slot: number): Written | null;
}

const bare = (word: string): Written => ({ pre: [], text: shlexQuote(word) });
const plainWord = /^[A-Za-z0-9_./:=@%+,-]+$/;

export const QUOTINGS: readonly Quoting[] = [
  { name: 'as is', literal: true, write: bare },
  { name: "'single'", literal: true, write: (word) => ({ pre: [], text: sq(word) }) },
  { name: '"double"', literal: true, write: (word) => ({ pre: [], text: `"${word.replace(/[$`"\\]/g, '\\$&')}"` }) },
  { name: "split ''", literal: true, write: (word) => (word.length < 2 ? null : { pre: [], text: `${sq(word[0]!)}""${sq(word.slice(1))}` }) },
  { name: 'backslashes', literal: true, write: (word) => (/\n/.test(word) ? null : { pre: [], text: [...word].map((ch) => `\\${ch}`).join('') }) },
  { name: "$'ansi-c'", literal: false, bashOnly: true, write: (word) => ({ pre: [], text: `$'${word.replace(/[\\']/g, '\\$&')}'` }) },
  { name: "$'\\x..'", literal: false, bashOnly: true, write: (word) => ({ pre: [], text: `$'${[...word].map((ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}'` }) },
  { name: '"$VAR"', literal: false, write: (word, slot) => ({ pre: [`V${slot}=${sq(word)}`], text: `"$V${slot}"` }) },
  { name: '$VAR', literal: false, write: (word, slot) => (plainWord.test(word) ? { pre: [`V${slot}=${sq(word)}`], text: `$V${slot}` } : null) },
  { name: '${VAR}x', literal: false, write: (word, slot) => (word.length < 2 ? null : { pre: [`V${slot}=${sq(word.slice(0, -1))}`], text: `"\${V${slot}}"${sq(word.slice(-1))}` }) },
  { name: '"$(printf)"', literal: false, write: (word) => ({ pre: [], text: `"$(printf %s ${sq(word)})"` }) },
  { name: '`printf`', literal: false, write: (word) => ({ pre: [], text: `"\`printf %s ${sq(word)}\`"` }) },
  { name: '"${E:-}"x', literal: false, write: (word) => ({ pre: [], text: `"\${E:-}"${shlexQuote(word)}` }) },
  { name: 'line continuation', literal: false, write: (word) => (plainWord.test(word) && word.length >= 2 ? { pre: [], text: `${word[0]}\\\n${word.slice(1)}` } : null) },
];

export interface Wrapper {
  name: string;
  /** The command line from the words (raw) and their written forms; null when not applicable. */
  wrap(raw: readonly string[], written: readonly string[]): string | null;
  /** Runs only where the program exists (skipped by the meaning check when absent). */
  needs?: string;
}

const join = (words: readonly string[]) => words.join(' ');
const prefix = (name: string, words: string, needs?: string): Wrapper => ({ name, wrap: (_raw, written) => `${words} ${join(written)}`, ...(needs ? { needs } : {}) });

export const WRAPPERS: readonly Wrapper[] = [
  { name: 'none', wrap: (_raw, written) => join(written) },
  prefix('timeout', 'timeout 5'),
  prefix('nice', 'nice -n 1'),
  prefix('nohup', 'nohup'),
  prefix('command', 'command'),
  prefix('exec', 'exec'),
  prefix('time', 'time'),
  prefix('stdbuf', 'stdbuf -o0'),
  prefix('env', 'env A=1'),
  prefix('env -i', 'env -i PATH=/usr/bin:/bin'),
  prefix('setsid', 'setsid -w'),
  prefix('sudo', 'sudo -n', 'sudo'),
  prefix('strace', 'strace -f -o /dev/null', 'strace'),
  { name: 'env -S', wrap: (raw) => (raw.every((word) => !/['\\$]/.test(word)) ? `env -S ${sq(raw.map((word) => (plainWord.test(word) ? word : `'${word}'`)).join(' '))}` : null) },
  { name: 'xargs', wrap: (raw, written) => (raw.length >= 2 && plainWord.test(raw[raw.length - 1]!) ? `echo ${raw[raw.length - 1]} | xargs ${join(written.slice(0, -1))}` : null) },
  { name: 'find -exec', wrap: (_raw, written) => `find . -maxdepth 0 -exec ${join(written)} \\;` },
];

export interface Shell {
  name: string;
  /** Runs the script with a POSIX sh (dash), where bash-only quoting means something else. */
  posix?: boolean;
  run(script: string): string | null;
}

export const SHELLS: readonly Shell[] = [
  { name: 'none', run: (script) => script },
  { name: 'bash -c', run: (script) => `bash -c ${sq(script)}` },
  { name: 'sh -c', posix: true, run: (script) => `sh -c ${sq(script)}` },
  { name: 'bash -c (twice)', run: (script) => `bash -c ${sq(`bash -c ${sq(script)}`)}` },
  { name: 'eval', run: (script) => `eval ${sq(script)}` },
  { name: 'heredoc', run: (script) => (script.split('\n').includes('EOF') ? null : `bash <<'EOF'\n${script}\nEOF`) },
  { name: 'herestring', run: (script) => `bash <<< ${sq(script)}` },
  { name: 'echo | sh', run: (script) => (script.includes('\\') ? null : `echo ${sq(script)} | bash`) },
  { name: 'printf | sh', run: (script) => `printf '%s\\n' ${sq(script)} | bash` },
  { name: '. /dev/stdin', run: (script) => `. /dev/stdin <<< ${sq(script)}` },
  { name: 'bash <(...)', run: (script) => `bash <(printf '%s\\n' ${sq(script)})` },
  { name: '( subshell )', run: (script) => `(${script})` },
  { name: '{ group; }', run: (script) => `{ ${script}; }` },
  { name: 'if', run: (script) => `if true; then ${script}; fi` },
  { name: 'for', run: (script) => `for _ in 1; do ${script}; done` },
  { name: '&& chain', run: (script) => `true && ${script}` },
  { name: '|| chain', run: (script) => `false || ${script}` },
  { name: 'function', run: (script) => `f() { ${script}; }; f` },
  { name: 'background', run: (script) => `${script} & wait` },
  { name: '! negation', run: (script) => (script.includes(';') ? null : `! ${script}`) },
  { name: '$(substitution)', run: (script) => `echo "$(${script})"` },
  { name: '<(process substitution)', run: (script) => `cat <(${script})` },
  { name: 'trap EXIT', run: (script) => `trap ${sq(script)} EXIT` },
];

export interface Combination {
  words: readonly string[];
  quoting: Quoting;
  /** Which word the quoting applies to; -1 for every word. */
  slot: number;
  wrapper: Wrapper;
  shell: Shell;
}

/** The script for a combination, or null when one of its parts does not apply. */
export function build({ words, quoting, slot, wrapper, shell }: Combination): string | null {
  const pre: string[] = [];
  const written: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const form = slot === -1 || slot === i ? quoting.write(words[i]!, i) : bare(words[i]!);
    if (form === null) return null;
    pre.push(...form.pre);
    written.push(form.text);
  }
  const line = wrapper.wrap(words, written);
  if (line === null) return null;
  return shell.run([...pre, line].join('; '));
}

export function describe({ words, quoting, slot, wrapper, shell }: Combination): string {
  return `${JSON.stringify(words)} quoting=${quoting.name}@${slot} wrapper=${wrapper.name} shell=${shell.name}`;
}

/**
 * Shell constructs that run the script X somewhere inside them (X is a single command without
 * quotes). Nested into each other, they make the differential check's scripts.
 */
export const CONSTRUCTS: readonly string[] = [
  'X', '(X)', '{ X; }', 'if true; then X; fi', 'if false; then :; else X; fi', 'while true; do X; break; done',
  'until false; do X; break; done', 'for i in 1; do X; done', 'for ((i=0;i<1;i++)); do X; done', 'case a in a) X;; esac',
  'f() { X; }; f', 'function g { X; }; g', 'echo "$(X)"', 'echo `X`', ': $(X)', 'v=$(X)', 'export w=$(X)', 'cat <(X)',
  'echo > >(X)', 'true && X', 'false || X', '! X', 'X &\nwait', 'X | cat', 'cat /dev/null | X', 'trap "X" EXIT',
  'eval "X"', '[[ -n $(X) ]]', 'echo ${u:-$(X)}', 'echo "${u:-$(X)}"', 'echo $(( $(X) + 1 ))', 'coproc X\nwait',
  'time X', 'exec 3< <(X)', 'read r < <(X)', 'declare -a arr=($(X))', 'arr=( $(X) )', '[ -n "$(X)" ]',
  'x=1; : ${x:+$(X)}', 'bash -c "X"', 'sh -c "X"', 'echo "X" | bash', 'bash <<< "X"', 'bash <<EOF\nX\nEOF',
  "bash <<'EOF'\nX\nEOF", 'cat <<EOF\n$(X)\nEOF', 'xargs -I{} X <<< y', 'find . -maxdepth 0 -exec X \\;',
  'command X', 'exec X', 'nohup X', 'timeout 5 X', 'env X', 'nice X', 'builtin eval "X"', '. /dev/stdin <<< "X"',
  'source <(echo "X")', 'if X; then :; fi', 'while X; do break; done', 'case $(X) in *) :;; esac',
  'printf -v p %s "$(X)"', 'alias q="X"\nshopt -s expand_aliases\nq', 'a=(1); echo ${a[$(X)]}',
  "v='a[$(X)]'; : $((v))", "declare -i n; n='a[$(X)]'", "[[ 'a[$(X)]' -eq 0 ]]",
];
