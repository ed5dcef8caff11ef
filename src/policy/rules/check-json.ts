// The JSON printed by `rig execpolicy check`, shaped like Codex's
// `execpolicy check`: {"matchedRules":[{"prefixRuleMatch":{...}}],"decision":...}.

import type { MatchOptions } from './matcher.js';
import type { ExecPolicy } from './policy.js';

export interface ExecPolicyCheckJsonOptions extends MatchOptions {
  pretty?: boolean;
}

export function execPolicyCheckJson(policy: ExecPolicy, argv: readonly string[], options: ExecPolicyCheckJsonOptions = {}): string {
  const { decision, matchedRules } = policy.evaluate(argv, {
    resolveHostExecutables: options.resolveHostExecutables ?? false,
  });
  const output: Record<string, unknown> = {
    matchedRules: matchedRules.map((match) => {
      // Key order follows the reference output: matchedPrefix, decision, resolvedProgram, justification.
      const body: Record<string, unknown> = { matchedPrefix: match.matchedPrefix, decision: match.decision };
      if (match.resolvedProgram !== undefined) body.resolvedProgram = match.resolvedProgram;
      if (match.justification !== undefined) body.justification = match.justification;
      return { prefixRuleMatch: body };
    }),
  };
  if (decision !== undefined) output.decision = decision;
  return options.pretty ? JSON.stringify(output, null, 2) : JSON.stringify(output);
}
