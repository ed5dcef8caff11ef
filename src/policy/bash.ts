// Reading shell scripts with tree-sitter-bash, for command classification.
// The wasm grammar costs tens of milliseconds to load, so it is loaded lazily,
// once, the first time a script actually needs reading.

import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';
import { syntaxFromTree } from './bash-syntax.js';
import type { ScriptSyntax } from './script-syntax.js';

export interface BashParser {
  /** Plain commands joined only by `&&`, `||`, `;`, `|`; null when the script has anything else. */
  parsePlainCommands(script: string): string[][] | null;
  /** For a script that is one command fed by a heredoc (no file redirects), that command's literal words. */
  parseHeredocCommandPrefix(script: string): string[] | null;
  /**
   * Every command anywhere in the script (inside subshells, substitutions, control flow too) whose
   * name is literal; non-literal arguments are kept as their source text. For spotting dangerous commands.
   */
  allCommands(script: string): string[][];
  /** Everything the classifiers read from a script, from one parse (see script-syntax.ts). */
  readScript(script: string): ScriptSyntax;
}

let loading: Promise<BashParser> | undefined;

/** The shared parser, initialised on first use. */
export function loadBashParser(): Promise<BashParser> {
  loading ??= createBashParser().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function createBashParser(): Promise<BashParser> {
  // Without this V8 recompiles the grammar with its optimizing wasm compiler on background
  // threads, and the next child-process exit blocks the main thread until that finishes (~0.7 s
  // on the first command of a session, plus ~40 MB RSS). The baseline compiler parses scripts of
  // a command line's size just as fast. (src/model/transport/wasm-baseline.ts does the same
  // before the first fetch; the flag only affects wasm compiled after it is set.)
  v8.setFlagsFromString('--liftoff-only');
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
  const require = createRequire(import.meta.url);
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return new TreeSitterBash(parser);
}

const SHELLS = new Set(['bash', 'zsh', 'sh']);

/** `bash|zsh|sh -c|-lc <script>` (exactly three words) → its script. */
export function extractShellScript(argv: readonly string[]): { shell: string; flag: string; script: string } | null {
  if (argv.length !== 3) return null;
  const [shell, flag, script] = argv as [string, string, string];
  if (flag !== '-c' && flag !== '-lc') return null;
  if (!SHELLS.has(path.basename(shell))) return null;
  return { shell, flag, script };
}

/** Parses a script into its plain commands, or null when it contains constructs we do not model. */
export async function parseShellScript(script: string): Promise<{ commands: string[][] } | null> {
  const commands = (await loadBashParser()).parsePlainCommands(script);
  return commands === null ? null : { commands };
}

const PLAIN_KINDS = new Set(['program', 'list', 'pipeline', 'command', 'command_name', 'word', 'string', 'string_content', 'raw_string', 'number', 'concatenation']);
const PLAIN_OPERATORS = new Set(['&&', '||', ';', '|', '"', "'"]);
const HEREDOC_ATTACHMENTS = new Set(['heredoc_body', 'simple_heredoc_body', 'heredoc_redirect', 'herestring_redirect', 'redirected_statement', 'comment']);

class TreeSitterBash implements BashParser {
  constructor(private readonly parser: TreeSitterParser) {}

  private withTree<T>(script: string, fallback: T, read: (root: SyntaxNode) => T): T {
    const tree = this.parser.parse(script);
    if (!tree) return fallback;
    try {
      return read(tree.rootNode);
    } finally {
      tree.delete();
    }
  }

  parsePlainCommands(script: string): string[][] | null {
    return this.withTree(script, null, plainCommandsOf);
  }

  parseHeredocCommandPrefix(script: string): string[] | null {
    return this.withTree(script, null, heredocPrefixOf);
  }

  readScript(script: string): ScriptSyntax {
    const unreadable: ScriptSyntax = { commands: [], plainArgv: null, heredocPrefix: null, opaque: 'the script could not be parsed' };
    return this.withTree(script, unreadable, (root) => syntaxFromTree(root, script, plainCommandsOf(root), heredocPrefixOf(root)));
  }

  allCommands(script: string): string[][] {
    return this.withTree(script, [], (root) =>
      descendants(root, 'command').flatMap((command) => {
        const words: string[] = [];
        for (const child of command.namedChildren) {
          if (child.type === 'command_name') {
            const name = child.namedChild(0) ? literalWord(child.namedChild(0)!) : null;
            if (name === null) return [];
            words.push(name);
          } else if (child.type === 'variable_assignment' || child.type.endsWith('redirect')) {
            continue;
          } else if (words.length > 0) {
            words.push(literalWord(child) ?? child.text);
          }
        }
        return words.length > 0 ? [words] : [];
      }),
    );
  }
}

function plainCommandsOf(root: SyntaxNode): string[][] | null {
  if (root.hasError) return null;
  const commandNodes: SyntaxNode[] = [];
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isNamed) {
      if (!PLAIN_KINDS.has(node.type)) return null;
      if (node.type === 'command') commandNodes.push(node);
    } else if (!PLAIN_OPERATORS.has(node.type) && node.type.trim() !== '') {
      // Parentheses, braces, redirections, backticks, `&`, `;;` and the like.
      return null;
    }
    stack.push(...node.children);
  }
  commandNodes.sort((a, b) => a.startIndex - b.startIndex);
  const commands: string[][] = [];
  for (const node of commandNodes) {
    const words = plainCommandWords(node);
    if (words === null) return null;
    commands.push(words);
  }
  return commands;
}

function heredocPrefixOf(root: SyntaxNode): string[] | null {
  if (root.hasError) return null;
  if (!hasDescendant(root, 'heredoc_redirect')) return null;
  if (hasDescendant(root, 'file_redirect')) return null;
  const commands = descendants(root, 'command');
  if (commands.length !== 1) return null;
  const words: string[] = [];
  for (const child of commands[0]!.namedChildren) {
    if (child.type === 'command_name') {
      const word = child.namedChild(0);
      if (!word || !isLiteralWord(word)) return null;
      words.push(unescapeWord(word.text));
    } else if (child.type === 'word' || child.type === 'number') {
      if (!isLiteralWord(child)) return null;
      words.push(unescapeWord(child.text));
    } else if (!HEREDOC_ATTACHMENTS.has(child.type)) {
      return null;
    }
  }
  return words.length === 0 ? null : words;
}

function plainCommandWords(command: SyntaxNode): string[] | null {
  const words: string[] = [];
  for (const child of command.namedChildren) {
    if (child.type === 'command_name') {
      const word = child.namedChild(0);
      if (!word || word.type !== 'word') return null;
      words.push(unescapeWord(word.text));
      continue;
    }
    const literal = literalWord(child);
    if (literal === null) return null;
    if (child.type === 'concatenation' && (literal === '' || hasBraceExpansion(child))) return null;
    words.push(literal);
  }
  return words;
}

/** The value of a word made only of literal parts (bare words, numbers, quotes without expansions), else null. */
function literalWord(node: SyntaxNode): string | null {
  switch (node.type) {
    case 'word':
    case 'number':
      return isLiteralWord(node) ? unescapeWord(node.text) : null;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string':
      if (node.namedChildren.some((part) => part.type !== 'string_content')) return null;
      return unescapeDoubleQuoted(node.text.slice(1, -1));
    case 'concatenation': {
      let value = '';
      for (const part of node.namedChildren) {
        if (!['word', 'number', 'string', 'raw_string'].includes(part.type)) return null;
        const literal = literalWord(part);
        if (literal === null) return null;
        value += literal;
      }
      return value;
    }
    default:
      return null;
  }
}

/** `{a,b}` or `{1..3}` in the unquoted parts: bash would expand it into several words. */
function hasBraceExpansion(concatenation: SyntaxNode): boolean {
  const unquoted = concatenation.namedChildren.map((part) => (part.type === 'word' || part.type === 'number' ? part.text : '_')).join('');
  return /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted);
}

function isLiteralWord(node: SyntaxNode): boolean {
  return (node.type === 'word' || node.type === 'number') && node.namedChildCount === 0;
}

/** Outside quotes a backslash makes the next character literal; backslash-newline disappears. */
function unescapeWord(text: string): string {
  return text.replace(/\\(\n|.)/gs, (_, ch: string) => (ch === '\n' ? '' : ch));
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}

function descendants(root: SyntaxNode, type: string): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === type) found.push(node);
    stack.push(...node.namedChildren);
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

function hasDescendant(root: SyntaxNode, type: string): boolean {
  return descendants(root, type).length > 0;
}
