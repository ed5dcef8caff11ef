// The policy room: approval policy, .rules exec policy, and the safe /
// dangerous command classifiers.

export * from './approval-policy.js';
export * from './approval.js';
export * from './approval-cache.js';
export * from './exec-assessment.js';
export * from './classify.js';
export { classifyArgv, MAX_WRAPPER_DEPTH, ParserNeeded, type ClassifyOptions, type CommandSite, type ScriptVerdict, type Verdict } from './verdict.js';
export type { ShellWord } from './shell-word.js';
export { readSimpleScript, type CommandInput, type ScriptReader, type ScriptSyntax, type ShellCommand } from './script-syntax.js';
export { gitRunsOnlyItself, type RepoSite } from './git-repo.js';
export { DANGEROUS_REASONS } from './danger-families.js';
export * from './safe-commands.js';
export { dangerousCommandReason, isDangerousCommand } from './dangerous.js';
export * from './bash.js';
export * from './shlex.js';
export * from './rules/model.js';
export * from './rules/load-error.js';
export * from './rules/policy.js';
export * from './rules/check-json.js';
export * from './rules/discover.js';
export type { MatchOptions } from './rules/matcher.js';
