// One-call classification of a command for callers that do not hold a bash
// parser: loads tree-sitter only when the command involves a shell.

import { loadBashParser } from './bash.js';
import { dangerousCommandReason } from './dangerous.js';
import { needsBashParser } from './exec-assessment.js';
import { isKnownSafeCommand, type SafetyPlatform } from './safe-commands.js';

export interface CommandClassification {
  knownSafe: boolean;
  dangerous: boolean;
  /** Why it is dangerous, phrased for the model. */
  dangerReason?: string;
}

export async function classifyCommand(argv: readonly string[], options: SafetyPlatform = {}): Promise<CommandClassification> {
  const bash = needsBashParser(argv) ? await loadBashParser() : null;
  const dangerReason = dangerousCommandReason(argv, bash);
  const result: CommandClassification = { knownSafe: isKnownSafeCommand(argv, bash, options), dangerous: dangerReason !== undefined };
  if (dangerReason !== undefined) result.dangerReason = dangerReason;
  return result;
}
