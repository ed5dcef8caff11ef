// Runs a parsed .rules file: binds names, calls the builtins prefix_rule,
// network_rule and host_executable, and checks every rule's match / not_match
// examples once the whole file has been read (so a host_executable written
// later in the file still counts).

import os from 'node:os';
import path from 'node:path';
import { ExecPolicyLoadError, type SourcePosition } from './load-error.js';
import { matchRules, type RuleIndex } from './matcher.js';
import {
  renderPattern,
  type Decision,
  type NetworkProtocol,
  type NetworkRule,
  type PatternToken,
  type PrefixRule,
} from './model.js';
import type { CallArg, Expr, Statement } from './parser.js';
import { shlexJoin, shlexSplit } from '../shlex.js';

type Value =
  | { type: 'string'; value: string; at: SourcePosition }
  | { type: 'int'; value: number; at: SourcePosition }
  | { type: 'bool'; value: boolean; at: SourcePosition }
  | { type: 'NoneType'; at: SourcePosition }
  | { type: 'list'; items: Value[]; at: SourcePosition };

interface Example {
  argv: string[];
  at: SourcePosition;
}

interface PendingValidation {
  rules: PrefixRule[];
  pattern: readonly PatternToken[];
  matches: Example[];
  notMatches: Example[];
}

/** Mutable accumulation of rules across the files of one policy, in load order. */
export class PolicyBuilder {
  readonly rulesByProgram = new Map<string, PrefixRule[]>();
  readonly networkRules: NetworkRule[] = [];
  readonly hostExecutables = new Map<string, string[]>();
  /**
   * Set while a file that may only narrow the policy is read (a project's rules): its `allow`
   * decisions and host_executable entries (which decide which absolute paths a rule covers) are
   * skipped and listed in `ignored`.
   */
  narrowOnly = false;
  readonly ignored: string[] = [];
  constructor(readonly homeDir: string = os.homedir()) {}

  /** False (and noted) when the current file may not add this widening statement. */
  mayWiden(what: string, source: { file: string; line: number }): boolean {
    if (!this.narrowOnly) return true;
    this.ignored.push(`${source.file}:${source.line}: ${what}`);
    return false;
  }

  addRule(rule: PrefixRule): void {
    const list = this.rulesByProgram.get(rule.program);
    if (list) list.push(rule);
    else this.rulesByProgram.set(rule.program, [rule]);
  }
}

interface Signature {
  name: string;
  params: readonly string[];
  required: readonly string[];
}

const PREFIX_RULE: Signature = {
  name: 'prefix_rule',
  params: ['pattern', 'decision', 'match', 'not_match', 'justification'],
  required: ['pattern'],
};
const NETWORK_RULE: Signature = {
  name: 'network_rule',
  params: ['host', 'protocol', 'decision', 'justification'],
  required: ['host', 'protocol', 'decision'],
};
const HOST_EXECUTABLE: Signature = { name: 'host_executable', params: ['name', 'paths'], required: ['name', 'paths'] };
const BUILTINS = new Map([PREFIX_RULE, NETWORK_RULE, HOST_EXECUTABLE].map((sig) => [sig.name, sig]));

export function evaluateRules(statements: Statement[], file: string, builder: PolicyBuilder): void {
  const globals = new Map<string, Value>();
  const pending: PendingValidation[] = [];
  const fail = (at: SourcePosition, detail: string): never => {
    throw new ExecPolicyLoadError(file, at, detail);
  };

  for (const statement of statements) {
    if (statement.kind === 'assign') {
      if (BUILTINS.has(statement.name)) fail(statement.at, `cannot assign to the builtin ${statement.name}`);
      globals.set(statement.name, evalExpr(statement.value));
    } else {
      evalExpr(statement.call);
    }
  }
  for (const validation of pending) validate(validation);

  function evalExpr(expr: Expr): Value {
    switch (expr.kind) {
      case 'string':
        return { type: 'string', value: expr.value, at: expr.at };
      case 'int':
        return { type: 'int', value: expr.value, at: expr.at };
      case 'list':
        return { type: 'list', items: expr.items.map(evalExpr), at: expr.at };
      case 'name': {
        if (expr.name === 'True' || expr.name === 'False') return { type: 'bool', value: expr.name === 'True', at: expr.at };
        if (expr.name === 'None') return { type: 'NoneType', at: expr.at };
        const bound = globals.get(expr.name);
        if (bound === undefined) return fail(expr.at, `undefined name '${expr.name}' (expected a string, a list, or a name assigned earlier in the file)`);
        // Positions of a bound value point at the use, so errors show where it was passed.
        return { ...bound, at: expr.at };
      }
      case 'call':
        return callBuiltin(expr.callee, expr.args, expr.at);
    }
  }

  function bindArgs(sig: Signature, args: CallArg[], at: SourcePosition): Map<string, Value> {
    const bound = new Map<string, Value>();
    args.forEach((arg, position) => {
      let name = arg.keyword;
      if (name === undefined) {
        name = sig.params[position];
        if (name === undefined) fail(arg.at, `${sig.name}() takes at most ${sig.params.length} positional arguments (expected keyword=value)`);
      } else if (!sig.params.includes(name)) {
        fail(arg.at, `${sig.name}() got an unexpected keyword argument '${name}' (expected one of ${sig.params.join(', ')})`);
      }
      if (bound.has(name!)) fail(arg.at, `${sig.name}() got multiple values for argument '${name}'`);
      bound.set(name!, evalExpr(arg.value));
    });
    for (const required of sig.required) {
      const value = bound.get(required);
      if (value === undefined || value.type === 'NoneType') fail(at, `${sig.name}() is missing required argument '${required}'`);
    }
    return bound;
  }

  function callBuiltin(callee: string, args: CallArg[], at: SourcePosition): Value {
    const sig = BUILTINS.get(callee);
    if (!sig) return fail(at, `unknown function '${callee}' (expected prefix_rule, network_rule or host_executable)`);
    const bound = bindArgs(sig, args, at);
    if (sig === PREFIX_RULE) prefixRule(bound, at);
    else if (sig === NETWORK_RULE) networkRule(bound, at);
    else hostExecutable(bound);
    return { type: 'NoneType', at };
  }

  function optional(bound: Map<string, Value>, name: string): Value | undefined {
    const value = bound.get(name);
    return value === undefined || value.type === 'NoneType' ? undefined : value;
  }

  function stringArg(value: Value, what: string): string {
    if (value.type !== 'string') return fail(value.at, `${what} must be a string (got ${value.type})`);
    return value.value;
  }

  function listArg(value: Value, what: string): Value[] {
    if (value.type !== 'list') return fail(value.at, `${what} must be a list (got ${value.type})`);
    return value.items;
  }

  function justificationArg(bound: Map<string, Value>): string | undefined {
    const value = optional(bound, 'justification');
    if (value === undefined) return undefined;
    const text = stringArg(value, 'justification');
    if (text.trim() === '') fail(value.at, 'invalid rule: justification cannot be empty (expected a reason, or leave justification out)');
    return text;
  }

  function prefixRule(bound: Map<string, Value>, at: SourcePosition): void {
    const patternValue = bound.get('pattern')!;
    const items = listArg(patternValue, 'pattern');
    if (items.length === 0) fail(patternValue.at, 'invalid pattern element: pattern cannot be empty');
    const pattern: PatternToken[] = items.map(patternToken);
    const decisionValue = optional(bound, 'decision');
    let decision: Decision = 'allow';
    if (decisionValue !== undefined) {
      const raw = stringArg(decisionValue, 'decision');
      if (raw !== 'allow' && raw !== 'prompt' && raw !== 'forbidden') {
        fail(decisionValue.at, `invalid decision: ${raw} (expected allow, prompt or forbidden)`);
      }
      decision = raw as Decision;
    }
    const justification = justificationArg(bound);
    const matchValue = optional(bound, 'match');
    const notMatchValue = optional(bound, 'not_match');
    const matches = matchValue ? listArg(matchValue, 'match').map(example) : [];
    const notMatches = notMatchValue ? listArg(notMatchValue, 'not_match').map(example) : [];

    const [first, ...rest] = pattern;
    const heads = typeof first === 'string' ? [first] : first!;
    const source = { file, line: at.line, column: at.column };
    const rules = heads.map((program): PrefixRule => {
      const rule: PrefixRule = { program, rest, decision, pattern, source };
      if (justification !== undefined) rule.justification = justification;
      return rule;
    });
    const described = `prefix_rule ${renderPattern(pattern)} decision="allow"`;
    if (decision !== 'allow' || builder.mayWiden(described, source)) rules.forEach((rule) => builder.addRule(rule));
    pending.push({ rules, pattern, matches, notMatches });
  }

  function patternToken(value: Value): PatternToken {
    if (value.type === 'string') return value.value;
    if (value.type !== 'list') {
      return fail(value.at, `invalid pattern element: pattern element must be a string or list of strings (got ${value.type})`);
    }
    const alternatives = value.items.map((item) => {
      if (item.type !== 'string') fail(item.at, `invalid pattern element: pattern alternative must be a string (got ${item.type})`);
      return (item as { value: string }).value;
    });
    if (alternatives.length === 0) fail(value.at, 'invalid pattern element: pattern alternatives cannot be empty');
    return alternatives.length === 1 ? alternatives[0]! : alternatives;
  }

  function example(value: Value): Example {
    if (value.type === 'string') {
      const argv = shlexSplit(value.value);
      if (argv === null) fail(value.at, 'invalid example: example string has invalid shell syntax (expected balanced quotes)');
      if (argv!.length === 0) fail(value.at, 'invalid example: example cannot be an empty string');
      return { argv: argv!, at: value.at };
    }
    if (value.type !== 'list') {
      return fail(value.at, `invalid example: example must be a string or list of strings (got ${value.type})`);
    }
    const argv = value.items.map((item) => {
      if (item.type !== 'string') fail(item.at, `invalid example: example tokens must be strings (got ${item.type})`);
      return (item as { value: string }).value;
    });
    if (argv.length === 0) fail(value.at, 'invalid example: example cannot be an empty list');
    return { argv, at: value.at };
  }

  function networkRule(bound: Map<string, Value>, at: SourcePosition): void {
    const hostValue = bound.get('host')!;
    const host = normalizeNetworkHost(stringArg(hostValue, 'host'), (detail) => fail(hostValue.at, detail));
    const protocolValue = bound.get('protocol')!;
    const protocol = parseNetworkProtocol(stringArg(protocolValue, 'protocol'));
    if (protocol === undefined) {
      fail(protocolValue.at, `invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got ${protocolValue.type === 'string' ? protocolValue.value : ''})`);
    }
    const decisionValue = bound.get('decision')!;
    const rawDecision = stringArg(decisionValue, 'decision');
    const decision: Decision | undefined =
      rawDecision === 'deny' ? 'forbidden' : rawDecision === 'allow' || rawDecision === 'prompt' || rawDecision === 'forbidden' ? rawDecision : undefined;
    if (decision === undefined) fail(decisionValue.at, `invalid decision: ${rawDecision} (expected allow, prompt or deny)`);
    const rule: NetworkRule = { host, protocol: protocol!, decision: decision!, source: { file, line: at.line, column: at.column } };
    const justification = justificationArg(bound);
    if (justification !== undefined) rule.justification = justification;
    if (decision === 'allow' && !builder.mayWiden(`network_rule host="${host}" decision="allow"`, rule.source)) return;
    builder.networkRules.push(rule);
  }

  function hostExecutable(bound: Map<string, Value>): void {
    const nameValue = bound.get('name')!;
    const name = stringArg(nameValue, 'name');
    if (name === '') fail(nameValue.at, 'invalid rule: host_executable name cannot be empty');
    if (name.includes('/') || name === '.' || name === '..') {
      fail(nameValue.at, `invalid rule: host_executable name must be a bare executable name (got ${name})`);
    }
    const paths: string[] = [];
    for (const item of listArg(bound.get('paths')!, 'paths')) {
      if (item.type !== 'string') fail(item.at, `invalid rule: host_executable paths must be strings (got ${item.type})`);
      const raw = (item as { value: string }).value;
      const resolved = raw.startsWith('~/') ? path.join(builder.homeDir, raw.slice(2)) : raw;
      if (!path.isAbsolute(resolved)) {
        fail(item.at, `invalid rule: host_executable paths must be absolute or use \`~/...\` home-relative syntax (got ${raw})`);
      }
      const normalized = path.normalize(resolved);
      if (path.basename(normalized) !== name) fail(item.at, `invalid rule: host_executable path \`${raw}\` must have basename \`${name}\``);
      if (!paths.includes(normalized)) paths.push(normalized);
    }
    if (!builder.mayWiden(`host_executable name="${name}"`, { file, line: nameValue.at.line })) return;
    builder.hostExecutables.set(name, paths);
  }

  function validate(validation: PendingValidation): void {
    const rulesByProgram = new Map<string, PrefixRule[]>();
    for (const rule of validation.rules) rulesByProgram.set(rule.program, [...(rulesByProgram.get(rule.program) ?? []), rule]);
    const index: RuleIndex = { rulesByProgram, hostExecutables: builder.hostExecutables };
    const rendered = renderPattern(validation.pattern);
    for (const example of validation.notMatches) {
      if (matchRules(index, example.argv).length > 0) {
        fail(example.at, `not_match example \`${shlexJoin(example.argv)}\` matches the rule with pattern ${rendered} (expected it not to match; fix the example or the pattern)`);
      }
    }
    for (const example of validation.matches) {
      if (matchRules(index, example.argv).length === 0) {
        fail(example.at, `match example \`${shlexJoin(example.argv)}\` does not match the rule with pattern ${rendered} (expected it to match; fix the example or the pattern)`);
      }
    }
  }
}

function parseNetworkProtocol(raw: string): NetworkProtocol | undefined {
  switch (raw) {
    case 'http':
      return 'http';
    case 'https':
    case 'https_connect':
    case 'http-connect':
      return 'https';
    case 'socks5_tcp':
      return 'socks5_tcp';
    case 'socks5_udp':
      return 'socks5_udp';
    default:
      return undefined;
  }
}

/** Lower-cased host without port, scheme, trailing dot or brackets; rejects wildcards and paths. */
export function normalizeNetworkHost(raw: string, fail: (detail: string) => never): string {
  let host = raw.trim();
  if (host === '') fail('invalid rule: network_rule host cannot be empty');
  if (/:\/\/|[/?#]/.test(host)) fail('invalid rule: network_rule host must be a hostname or IP literal (without scheme or path)');
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) fail('invalid rule: network_rule host has an invalid bracketed IPv6 literal');
    const rest = host.slice(close + 1);
    if (rest !== '' && !/^:[0-9]+$/.test(rest)) fail(`invalid rule: network_rule host contains an unsupported suffix: ${raw}`);
    host = host.slice(1, close);
  } else if ((host.match(/:/g) ?? []).length === 1) {
    const [candidate, port] = host.split(':') as [string, string];
    if (candidate !== '' && /^[0-9]+$/.test(port)) host = candidate;
  }
  const normalized = host.replace(/\.+$/, '').trim().toLowerCase();
  if (normalized === '') fail('invalid rule: network_rule host cannot be empty');
  if (normalized.includes('*')) fail('invalid rule: network_rule host must be a specific host; wildcards are not allowed');
  if (/\s/.test(normalized)) fail('invalid rule: network_rule host cannot contain whitespace');
  return normalized;
}
