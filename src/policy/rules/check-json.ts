// The JSON printed by `rig execpolicy check`, shaped like Codex's
// `execpolicy check`: {"matchedRules":[{"prefixRuleMatch":{...}}],"decision":...}.

import type { MatchOptions } from './matcher.js';
import { loadRulesFiles, type ExecPolicy } from './policy.js';

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

/**
 * All of `rig execpolicy check --rules FILE... [--pretty] [--resolve-host-executables] -- CMD...`:
 * loads the files in order and returns the JSON line. Rejects with ExecPolicyLoadError (file:line:col)
 * or a read error naming the file.
 */
export async function runExecPolicyCheck(rulesFiles: readonly string[], argv: readonly string[], options: ExecPolicyCheckJsonOptions = {}): Promise<string> {
  if (rulesFiles.length === 0) throw new Error('execpolicy check needs at least one --rules FILE');
  if (argv.length === 0) throw new Error('execpolicy check needs a command to check, e.g. -- git push origin');
  return execPolicyCheckJson(await loadRulesFiles(rulesFiles), argv, options);
}
