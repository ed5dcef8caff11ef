// The data a loaded exec policy is made of: prefix rules, network rules and
// host-executable declarations, each remembering where it was written.

export type Decision = 'allow' | 'prompt' | 'forbidden';

const SEVERITY: Record<Decision, number> = { allow: 0, prompt: 1, forbidden: 2 };

/** The stricter of two decisions: forbidden > prompt > allow. */
export function stricterDecision(a: Decision, b: Decision): Decision {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

export function strictestDecision(decisions: Iterable<Decision>): Decision | undefined {
  let result: Decision | undefined;
  for (const decision of decisions) result = result === undefined ? decision : stricterDecision(result, decision);
  return result;
}

export interface RuleSource {
  file: string;
  line: number;
  column: number;
}

/** One pattern position: a literal token, or a list of alternatives. */
export type PatternToken = string | readonly string[];

export interface PrefixRule {
  /** The literal first token this rule is keyed by (alternatives in the first position become separate rules). */
  program: string;
  /** Tokens after the program. */
  rest: readonly PatternToken[];
  decision: Decision;
  justification?: string;
  /** The pattern as written in the file (the first position may hold alternatives). */
  pattern: readonly PatternToken[];
  source: RuleSource;
}

export type NetworkProtocol = 'http' | 'https' | 'socks5_tcp' | 'socks5_udp';

export interface NetworkRule {
  host: string;
  protocol: NetworkProtocol;
  decision: Decision;
  justification?: string;
  source: RuleSource;
}

export interface PrefixRuleMatch {
  kind: 'prefix';
  matchedPrefix: string[];
  decision: Decision;
  /** Set when an absolute program path matched a basename rule. */
  resolvedProgram?: string;
  justification?: string;
  rule: PrefixRule;
}

/** A decision made by the built-in heuristics for a command no rule matched. */
export interface HeuristicsMatch {
  kind: 'heuristics';
  command: string[];
  decision: Decision;
}

export type RuleMatch = PrefixRuleMatch | HeuristicsMatch;

export function prefixTokenMatches(token: PatternToken, word: string): boolean {
  return typeof token === 'string' ? token === word : token.includes(word);
}

/** The matched prefix of `argv` when `rule` matches it, else undefined. */
export function matchPrefixRule(rule: PrefixRule, argv: readonly string[]): string[] | undefined {
  const length = rule.rest.length + 1;
  if (argv.length < length || argv[0] !== rule.program) return undefined;
  for (let i = 0; i < rule.rest.length; i++) {
    if (!prefixTokenMatches(rule.rest[i]!, argv[i + 1]!)) return undefined;
  }
  return argv.slice(0, length);
}

/** `["git", ["push", "fetch"]]` as it would be written in a .rules file. */
export function renderPattern(pattern: readonly PatternToken[]): string {
  const one = (token: PatternToken): string =>
    typeof token === 'string' ? JSON.stringify(token) : `[${token.map((alt) => JSON.stringify(alt)).join(', ')}]`;
  return `[${pattern.map(one).join(', ')}]`;
}
