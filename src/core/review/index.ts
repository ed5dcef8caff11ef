// rig review: targets, the gathered changes, the prompt, the findings and the review turn.
export { findingLocation, formatReview, parseReviewAnswer, type ParsedReview, type ReviewFinding, type ReviewOutput, type Severity } from './findings.js';
export { reviewContextText, reviewRequestText } from './prompt.js';
export { gatherChanges, MAX_DIFF_BYTES, reviewHint, targetProblem, type GatheredChanges, type ReviewTarget } from './target.js';
export { NothingToReview, startReview, type ReviewCallbacks, type ReviewOutcome, type StartedReview } from './service.js';
