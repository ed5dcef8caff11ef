// Public surface of the patch room.
export * from './types.js';
export { PatchParseError, PatchLineParser, parsePatch, splitPatchLines } from './parse.js';
export type { PatchLineParserOptions } from './parse.js';
export { StreamingPatchParser } from './stream.js';
export { LineIndex, normalisePunctuation, seekSequence } from './seek.js';
export { PatchApplyError, applyUpdateChunks, splitKeepingEndings } from './update.js';
export { computeChanges, readTextFile, resolvePatchPath } from './compute.js';
export type { ReadFileFn } from './compute.js';
export { FileCommitError, commitFileEdits } from './commit.js';
export type { CommitOptions } from './commit.js';
export { formatSummaryText, summarizeEdits } from './summary.js';
export type { ChangeSummary } from './summary.js';
export * from './grammar.js';
export { IMPLICIT_PATCH_MESSAGE, detectApplyPatchInvocation, detectImplicitPatch } from './detect.js';
export type { ApplyPatchInvocation } from './detect.js';
export { applyPatch, preparePatch } from './apply.js';
export type { ApplyPatchOptions, ApplyPatchResult, PreparedPatch } from './apply.js';
