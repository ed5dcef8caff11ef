// From a tree-sitter-bash tree to the ScriptSyntax the classifiers read: every simple command with
// its words (see shell-word.ts for what a non-literal word keeps), what feeds its standard input,
// and the script's plain form for exec-policy rules.

import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { CommandInput, ScriptSyntax, ShellCommand } from './script-syntax.js';
import { composeWord, literal, unknownWord, unquotedChars, type ShellWord, type WordChar } from './shell-word.js';

type Part = WordChar | { unknown: true; splits: boolean };

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

// The script's lines while one tree is read: heredoc bodies are taken from the text (tree-sitter
// misreads some, e.g. a body line starting with a backslash becomes arguments of the redirect).
let sourceLines: readonly string[] = [];
let bodyRows: number[] = [];

/** The syntax of a parsed script. `plainArgv` and `heredocPrefix` come from the callers' readers of the same tree. */
export function syntaxFromTree(root: SyntaxNode, source: string, plainArgv: string[][] | null, heredocPrefix: string[] | null): ScriptSyntax {
  const found: { start: number; command: ShellCommand }[] = [];
  sourceLines = source.split('\n');
  const rows: number[] = (bodyRows = []);
  try {
    visit(root, undefined, found);
  } finally {
    sourceLines = [];
    bodyRows = [];
  }
  found.sort((a, b) => a.start - b.start);
  const syntax: { -readonly [K in keyof ScriptSyntax]: ScriptSyntax[K] } = {
    commands: found.map((entry) => entry.command),
    plainArgv,
    heredocPrefix,
    heredocRows: rows,
  };
  if (root.hasError) syntax.opaque = 'the script does not parse';
  return syntax;
}

/**
 * Collects the commands under `node`. `input` is what feeds the node's standard input when a pipe or
 * redirection around it says (undefined: whatever feeds the script). Returns the simple command
 * `node` is, if it is one, so a pipeline can name it as the next command's source.
 */
function visit(node: SyntaxNode, input: CommandInput | undefined, found: { start: number; command: ShellCommand }[]): ShellCommand | undefined {
  switch (node.type) {
    case 'command':
      return commandOf(node, input, found);
    case 'pipeline':
      visitPipeline(node, input, undefined, found);
      return undefined;
    case 'redirected_statement': {
      const body = node.childForFieldName('body');
      const redirected = redirectInput(node) ?? input;
      let bodyCommand: ShellCommand | undefined;
      if (body) bodyCommand = visit(body, redirected, found);
      for (const child of node.namedChildren) {
        if (!child || child.id === body?.id) continue;
        visitRedirect(child, input, bodyCommand, found);
      }
      return bodyCommand;
    }
    default:
      for (const child of node.namedChildren) if (child) visit(child, input, found);
      return undefined;
  }
}

/** `a | b | c`: each element after the first reads the one before it. */
function visitPipeline(
  node: SyntaxNode,
  input: CommandInput | undefined,
  first: ShellCommand | undefined,
  found: { start: number; command: ShellCommand }[],
): void {
  let previous: ShellCommand | null | undefined = first;
  for (const element of node.namedChildren) {
    if (!element) continue;
    const feed: CommandInput | undefined = previous === undefined ? input : { kind: 'pipe', from: previous };
    previous = visit(element, feed, found) ?? null;
  }
}

/** A redirect of a redirected statement; tree-sitter hangs what follows a heredoc start (`| sh`, `&& x`) under it. */
function visitRedirect(node: SyntaxNode, input: CommandInput | undefined, bodyCommand: ShellCommand | undefined, found: { start: number; command: ShellCommand }[]): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'pipeline') visitPipeline(child, input, bodyCommand ?? undefined, found);
    else if (child.type !== 'heredoc_body') visit(child, input, found);
    else for (const part of child.namedChildren) if (part) visit(part, input, found);
  }
}

function commandOf(node: SyntaxNode, input: CommandInput | undefined, found: { start: number; command: ShellCommand }[]): ShellCommand {
  const assignments: { name: string; value: ShellWord }[] = [];
  const words: ShellWord[] = [];
  let stdin = input;
  const redirects: SyntaxNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (field === 'name') {
      const inner = child.namedChild(0);
      words.push(inner ? wordOf(inner) : unknownWord(child.text));
    } else if (field === 'argument') {
      words.push(child.isNamed ? wordOf(child) : unknownWord(child.text, false));
    } else if (field === 'redirect') {
      stdin = redirectNodeInput(child) ?? stdin;
      redirects.push(child);
      continue;
    } else if (child.type === 'variable_assignment') {
      const name = child.childForFieldName('name')?.text ?? child.text;
      const value = child.childForFieldName('value');
      assignments.push({ name, value: value ? wordOf(value) : literal('') });
    }
    // Substitutions anywhere inside (arguments, assignment values, redirect targets) run first.
    if (child.isNamed) visitNested(child, input, found);
  }
  const command: ShellCommand = { assignments, words, ...(stdin ? { stdin } : {}) };
  found.push({ start: node.startIndex, command });
  for (const redirect of redirects) visitRedirect(redirect, input, command, found);
  return command;
}

/** Commands nested inside a word or a redirect (substitutions), not the word itself. */
function visitNested(node: SyntaxNode, input: CommandInput | undefined, found: { start: number; command: ShellCommand }[]): void {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') {
    for (const child of node.namedChildren) if (child) visit(child, input, found);
    return;
  }
  for (const child of node.namedChildren) if (child) visitNested(child, input, found);
}

/** The input a redirected statement's redirects give its body (the last one for descriptor 0 wins). */
function redirectInput(statement: SyntaxNode): CommandInput | undefined {
  const body = statement.childForFieldName('body');
  let input: CommandInput | undefined;
  for (const child of statement.namedChildren) {
    if (!child || child.id === body?.id) continue;
    input = redirectNodeInput(child) ?? input;
  }
  return input;
}

function redirectNodeInput(redirect: SyntaxNode): CommandInput | undefined {
  switch (redirect.type) {
    case 'heredoc_redirect':
      return { kind: 'text', text: heredocText(redirect) };
    case 'herestring_redirect': {
      const word = redirect.namedChildren.find((child) => child !== null && child.type !== 'file_descriptor');
      if (!word) return { kind: 'unknown' };
      const value = wordOf(word);
      return { kind: 'text', text: value.value !== null && !value.splits ? `${value.value}\n` : null };
    }
    case 'file_redirect': {
      const descriptor = redirect.childForFieldName('descriptor')?.text;
      const operator = redirect.children.find((child) => child !== null && !child.isNamed)?.type ?? '';
      if (descriptor !== undefined && descriptor !== '0') return undefined;
      if (!operator.startsWith('<')) return undefined;
      const destination = redirect.childForFieldName('destination');
      if (operator === '<' && destination) return { kind: 'file', path: wordOf(destination) };
      return { kind: 'unknown' };
    }
    default:
      return undefined;
  }
}

/** A heredoc's text as the command reads it, or null when it has expansions or cannot be located with certainty. */
function heredocText(redirect: SyntaxNode): string | null {
  const start = redirect.namedChildren.find((child) => child?.type === 'heredoc_start');
  if (!start) return null;
  const quoted = /['"\\]/.test(start.text);
  const delimiter = start.text.replace(/['"\\]/g, '');
  const stripTabs = redirect.children.some((child) => child?.type === '<<-');
  // The body starts on the line after the operator; a second heredoc on that line would start later.
  const row = start.startPosition.row;
  const line = sourceLines[row] ?? '';
  if ((line.match(/<</g) ?? []).length > 1) return null;
  const body: string[] = [];
  for (let i = row + 1; i < sourceLines.length; i++) {
    const candidate = stripTabs ? sourceLines[i]!.replace(/^\t+/, '') : sourceLines[i]!;
    if (candidate === delimiter) break;
    body.push(stripTabs ? candidate : sourceLines[i]!);
    bodyRows.push(i);
  }
  const text = body.map((entry) => `${entry}\n`).join('');
  if (quoted) return text;
  if (/[$`]/.test(text)) return null;
  return text.replace(/\\([\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}

/** The word a node stands for. */
export function wordOf(node: SyntaxNode): ShellWord {
  return composeWord(node.text, partsOf(node, false));
}

function partsOf(node: SyntaxNode, quoted: boolean): Part[] {
  switch (node.type) {
    case 'word':
    case 'number':
      if (node.namedChildCount > 0) return [{ unknown: true, splits: !quoted }];
      return quoted ? [...node.text].map((ch) => ({ ch, active: false })) : unquotedChars(node.text);
    case 'raw_string':
      return [...node.text.slice(1, -1)].map((ch) => ({ ch, active: false }));
    case 'string': {
      const parts: Part[] = [];
      for (const child of node.children) {
        if (!child || child.type === '"') continue;
        if (child.type === 'string_content') {
          const text = child.text.replace(/\\([$`"\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
          parts.push(...[...text].map((ch) => ({ ch, active: false })));
        } else {
          // Expansions, or a token tree-sitter left unnamed: both are unknown text inside quotes.
          parts.push({ unknown: true, splits: false });
        }
      }
      return parts;
    }
    case 'concatenation': {
      const parts: Part[] = [];
      for (const child of node.children) {
        if (!child) continue;
        parts.push(...(child.isNamed ? partsOf(child, quoted) : [{ unknown: true, splits: !quoted } as Part]));
      }
      return parts;
    }
    case 'process_substitution':
    case 'ansi_c_string':
    case 'translated_string':
      // $'...' and $"..." mean different things in bash, zsh and dash: never a literal.
      return [{ unknown: true, splits: false }];
    default:
      return [{ unknown: true, splits: !quoted || !EXPANSIONS.has(node.type) }];
  }
}
