// The policy room: approval policy, .rules exec policy, and the safe /
// dangerous command classifiers.

export * from './approval-policy.js';
export * from './approval.js';
export * from './approval-cache.js';
export * from './exec-assessment.js';
export * from './classify.js';
export * from './safe-commands.js';
export * from './dangerous.js';
export * from './bash.js';
export * from './shlex.js';
export * from './rules/model.js';
export * from './rules/load-error.js';
export * from './rules/policy.js';
export * from './rules/check-json.js';
export * from './rules/discover.js';
export type { MatchOptions } from './rules/matcher.js';
