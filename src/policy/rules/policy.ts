// A loaded exec policy: the prefix rules, network rules and host executables
// of every .rules file given, in load order, and the ways to ask it about a
// command.

import fs from 'node:fs';
import { PolicyBuilder, evaluateRules, normalizeNetworkHost } from './evaluate.js';
import { matchRules, type MatchOptions, type RuleIndex } from './matcher.js';
import {
  strictestDecision,
  type Decision,
  type NetworkProtocol,
  type NetworkRule,
  type PatternToken,
  type PrefixRule,
  type PrefixRuleMatch,
} from './model.js';
import { parseRulesSource } from './parser.js';

export interface ExecPolicyEvaluation {
  /** Strictest decision among matched rules; undefined when none matched. */
  decision?: Decision;
  matchedRules: PrefixRuleMatch[];
}

export interface ExecPolicyRuleRef {
  file: string;
  line: number;
  column: number;
  pattern: readonly PatternToken[];
  matchedPrefix: string[];
  justification?: string;
  resolvedProgram?: string;
}

export type ExecPolicyCheckResult = { decision: Decision; rule: ExecPolicyRuleRef } | { decision: 'none' };

export interface LoadOptions {
  /** Used to expand `~/` in host_executable paths. Defaults to the OS home directory. */
  homeDir?: string;
  /** Files that may only narrow the policy (their allow rules and host_executable entries are skipped). */
  narrowOnly?: (file: string) => boolean;
}

export class ExecPolicy implements RuleIndex {
  private constructor(
    readonly rulesByProgram: ReadonlyMap<string, readonly PrefixRule[]>,
    readonly networkRules: readonly NetworkRule[],
    readonly hostExecutables: ReadonlyMap<string, readonly string[]>,
    /** Statements skipped because their file may only narrow the policy ("file:line: what"). */
    readonly ignored: readonly string[] = [],
  ) {}

  static empty(): ExecPolicy {
    return new ExecPolicy(new Map(), [], new Map());
  }

  /** Parses one or more in-memory sources (name, text), in order. Throws ExecPolicyLoadError. */
  static fromSources(sources: ReadonlyArray<{ fileName: string; text: string }>, options: LoadOptions = {}): ExecPolicy {
    const builder = new PolicyBuilder(options.homeDir);
    for (const { fileName, text } of sources) {
      builder.narrowOnly = options.narrowOnly?.(fileName) ?? false;
      evaluateRules(parseRulesSource(text, fileName), fileName, builder);
    }
    return new ExecPolicy(builder.rulesByProgram, builder.networkRules, builder.hostExecutables, builder.ignored);
  }

  /** Every prefix rule, in load order per program. */
  get rules(): PrefixRule[] {
    return [...this.rulesByProgram.values()].flat();
  }

  matchesForCommand(argv: readonly string[], options: MatchOptions = {}): PrefixRuleMatch[] {
    return matchRules(this, argv, options);
  }

  evaluate(argv: readonly string[], options: MatchOptions = {}): ExecPolicyEvaluation {
    const matchedRules = this.matchesForCommand(argv, options);
    const decision = strictestDecision(matchedRules.map((match) => match.decision));
    return decision === undefined ? { matchedRules } : { decision, matchedRules };
  }

  /** The effective decision and the rule that made it (the longest matching prefix among the strictest). */
  check(argv: readonly string[], options: MatchOptions = {}): ExecPolicyCheckResult {
    const { decision, matchedRules } = this.evaluate(argv, options);
    if (decision === undefined) return { decision: 'none' };
    const deciding = matchedRules
      .filter((match) => match.decision === decision)
      .reduce((best, match) => (match.matchedPrefix.length > best.matchedPrefix.length ? match : best));
    const rule: ExecPolicyRuleRef = {
      file: deciding.rule.source.file,
      line: deciding.rule.source.line,
      column: deciding.rule.source.column,
      pattern: deciding.rule.pattern,
      matchedPrefix: deciding.matchedPrefix,
    };
    if (deciding.justification !== undefined) rule.justification = deciding.justification;
    if (deciding.resolvedProgram !== undefined) rule.resolvedProgram = deciding.resolvedProgram;
    return { decision, rule };
  }

  /**
   * The strictest network_rule decision for a host (normalised like the rules: lower case, no port
   * or trailing dot), optionally limited to one protocol; undefined when no rule names the host.
   */
  networkDecision(host: string, protocol?: NetworkProtocol): Decision | undefined {
    let wanted: string;
    try {
      wanted = normalizeNetworkHost(host, (detail) => {
        throw new Error(detail);
      });
    } catch {
      return undefined;
    }
    return strictestDecision(
      this.networkRules.filter((rule) => rule.host === wanted && (protocol === undefined || rule.protocol === protocol)).map((rule) => rule.decision),
    );
  }

  /** A copy with one more exact-prefix rule (an "always allow" amendment made during a session). */
  withPrefixRule(prefix: readonly string[], decision: Decision, source = { file: '<session>', line: 0, column: 0 }): ExecPolicy {
    const [program, ...rest] = prefix;
    if (program === undefined) throw new Error('cannot add a prefix rule with an empty prefix');
    const rules = new Map(this.rulesByProgram);
    const rule: PrefixRule = { program, rest, decision, pattern: [...prefix], source };
    rules.set(program, [...(rules.get(program) ?? []), rule]);
    return new ExecPolicy(rules, this.networkRules, this.hostExecutables, this.ignored);
  }
}

/** Parses the text of one .rules file. Throws ExecPolicyLoadError naming file, line and column. */
export function parseRules(text: string, fileName: string, options: LoadOptions = {}): ExecPolicy {
  return ExecPolicy.fromSources([{ fileName, text }], options);
}

/** Reads and parses .rules files in order (later files add to earlier ones). */
export async function loadRulesFiles(paths: readonly string[], options: LoadOptions = {}): Promise<ExecPolicy> {
  const sources = await Promise.all(
    paths.map(async (fileName) => ({ fileName, text: await readRulesFile(fileName) })),
  );
  return ExecPolicy.fromSources(sources, options);
}

// Synchronous, as collectRulesFiles is: rules files are small and read with every thread start.
async function readRulesFile(fileName: string): Promise<string> {
  try {
    return fs.readFileSync(fileName, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`failed to read rules file ${fileName}: ${reason}`);
  }
}
