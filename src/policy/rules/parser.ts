// Parser for the Starlark subset of .rules files: a sequence of statements,
// each a call (`prefix_rule(...)`) or an assignment (`NAME = value`), where
// values are strings, integers, lists, names and calls.

import { ExecPolicyLoadError, type SourcePosition } from './load-error.js';
import { describeToken, tokenize, type Token, type TokenKind } from './lexer.js';

export type Expr =
  | { kind: 'string'; value: string; at: SourcePosition }
  | { kind: 'int'; value: number; at: SourcePosition }
  | { kind: 'name'; name: string; at: SourcePosition }
  | { kind: 'list'; items: Expr[]; at: SourcePosition }
  | { kind: 'call'; callee: string; args: CallArg[]; at: SourcePosition };

export interface CallArg {
  /** Keyword name, or undefined for a positional argument. */
  keyword?: string;
  value: Expr;
  at: SourcePosition;
}

export type Statement =
  | { kind: 'call'; call: Extract<Expr, { kind: 'call' }> }
  | { kind: 'assign'; name: string; value: Expr; at: SourcePosition };

const VALUE_EXPECTED = 'a value: a string, a list, a name or a call';

/**
 * Lists and calls nest at most this deep. Real rules files nest two or three levels; the bound keeps
 * a hostile file (10,000 brackets) from overflowing the stack and reports where it went too deep.
 */
export const MAX_NESTING = 64;

export function parseRulesSource(source: string, file: string): Statement[] {
  const tokens = tokenize(source, file);
  let index = 0;
  let depth = 0;
  const enter = (open: Token): void => {
    if (++depth > MAX_NESTING) {
      throw new ExecPolicyLoadError(file, open, `lists and calls nest more than ${MAX_NESTING} levels deep here (expected a flatter value)`);
    }
  };
  const peek = (): Token => tokens[index]!;
  const next = (): Token => tokens[index++]!;
  const fail = (token: Token, what: string, expected: string): never => {
    throw new ExecPolicyLoadError(file, token, `${what} (expected ${expected})`);
  };
  const expect = (kind: TokenKind, expected: string): Token => {
    const token = peek();
    if (token.kind !== kind) fail(token, `unexpected ${describeToken(token)}`, expected);
    return next();
  };

  const statements: Statement[] = [];
  while (peek().kind !== 'eof') {
    const token = peek();
    if (token.kind === 'newline' || token.kind === ';') {
      next();
      continue;
    }
    statements.push(parseStatement());
    const end = peek();
    if (end.kind !== 'newline' && end.kind !== ';' && end.kind !== 'eof') {
      fail(end, `unexpected ${describeToken(end)} after a statement`, 'a new line or ;');
    }
  }
  return statements;

  function parseStatement(): Statement {
    const first = peek();
    if (first.kind === 'name' && tokens[index + 1]?.kind === '=') {
      next();
      next();
      return { kind: 'assign', name: first.text, value: parseExpr(), at: first };
    }
    if (first.kind !== 'name' || tokens[index + 1]?.kind !== '(') {
      fail(first, `unexpected ${describeToken(first)} at the start of a statement`, 'a call such as prefix_rule(...) or an assignment NAME = value');
    }
    const expr = parseExpr();
    if (expr.kind !== 'call') throw new Error('unreachable: statement start was checked to be a call');
    return { kind: 'call', call: expr };
  }

  function parseExpr(): Expr {
    const token = peek();
    switch (token.kind) {
      case 'string': {
        next();
        if (peek().kind === 'string') {
          fail(peek(), 'two strings next to each other', 'a , between list items (Starlark does not join adjacent strings)');
        }
        return { kind: 'string', value: token.text, at: token };
      }
      case 'int':
        next();
        return { kind: 'int', value: Number(token.text), at: token };
      case '[':
        return parseList();
      case 'name': {
        next();
        if (peek().kind === '(') return parseCall(token);
        return { kind: 'name', name: token.text, at: token };
      }
      default:
        return fail(token, `unexpected ${describeToken(token)}`, VALUE_EXPECTED);
    }
  }

  function parseList(): Expr {
    const open = expect('[', '[');
    enter(open);
    const items: Expr[] = [];
    while (peek().kind !== ']') {
      items.push(parseExpr());
      const sep = peek();
      if (sep.kind === ',') {
        next();
        continue;
      }
      if (sep.kind !== ']') {
        fail(sep, `unexpected ${describeToken(sep)} in a list opened at line ${open.line}`, ', or ]');
      }
    }
    next();
    depth--;
    return { kind: 'list', items, at: open };
  }

  function parseCall(nameToken: Token): Expr {
    const open = expect('(', '(');
    enter(open);
    const args: CallArg[] = [];
    while (peek().kind !== ')') {
      const start = peek();
      if (start.kind === 'name' && tokens[index + 1]?.kind === '=') {
        next();
        next();
        args.push({ keyword: start.text, value: parseExpr(), at: start });
      } else {
        const value = parseExpr();
        if (args.some((arg) => arg.keyword !== undefined)) {
          fail(start, 'positional argument after a keyword argument', 'keyword=value');
        }
        args.push({ value, at: start });
      }
      const sep = peek();
      if (sep.kind === ',') {
        next();
        continue;
      }
      if (sep.kind !== ')') {
        fail(sep, `unexpected ${describeToken(sep)} in the call to ${nameToken.text}() opened at line ${open.line}`, ', or )');
      }
    }
    next();
    depth--;
    return { kind: 'call', callee: nameToken.text, args, at: nameToken };
  }
}
