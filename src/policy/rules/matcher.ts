// Matching a command against prefix rules, including the fallback from an
// absolute program path (/usr/bin/git) to rules written for its basename (git).

import path from 'node:path';
import { matchPrefixRule, type PrefixRule, type PrefixRuleMatch } from './model.js';

export interface RuleIndex {
  rulesByProgram: ReadonlyMap<string, readonly PrefixRule[]>;
  /** Executable name -> the only absolute paths allowed to use that name's rules. */
  hostExecutables: ReadonlyMap<string, readonly string[]>;
}

export interface MatchOptions {
  /** Let `/usr/bin/git` use rules for `git` (limited by host_executable declarations). Default true. */
  resolveHostExecutables?: boolean;
}

export function matchRules(index: RuleIndex, argv: readonly string[], options: MatchOptions = {}): PrefixRuleMatch[] {
  const program = argv[0];
  if (program === undefined) return [];
  const exact = collect(index.rulesByProgram.get(program) ?? [], argv);
  if (exact.length > 0 || options.resolveHostExecutables === false) return exact;
  if (!path.isAbsolute(program)) return [];
  const basename = path.basename(program);
  if (basename === program || basename === '') return [];
  const allowedPaths = index.hostExecutables.get(basename);
  if (allowedPaths !== undefined && !allowedPaths.includes(program)) return [];
  const basenameArgv = [basename, ...argv.slice(1)];
  return collect(index.rulesByProgram.get(basename) ?? [], basenameArgv).map((match) => ({
    ...match,
    resolvedProgram: program,
  }));
}

function collect(rules: readonly PrefixRule[], argv: readonly string[]): PrefixRuleMatch[] {
  const matches: PrefixRuleMatch[] = [];
  for (const rule of rules) {
    const matchedPrefix = matchPrefixRule(rule, argv);
    if (matchedPrefix === undefined) continue;
    const match: PrefixRuleMatch = { kind: 'prefix', matchedPrefix, decision: rule.decision, rule };
    if (rule.justification !== undefined) match.justification = rule.justification;
    matches.push(match);
  }
  return matches;
}
