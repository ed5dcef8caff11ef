// rig's review prompt: what a reviewer looks for, the JSON it answers with (the field names of
// Codex's review output, so tools that read Codex reviews read rig's), and the changes rig gathered.
import { reviewHint, type GatheredChanges, type ReviewTarget } from './target.js';

const GUIDELINES = [
  'You are reviewing code changes as a careful senior engineer would, before they are merged.',
  'This is a read-only review: do not change any file. You may read files and search the repository to understand the code around the changes.',
  '',
  'Report only problems worth the author\'s time:',
  '- bugs the change introduces (wrong results, crashes, data loss, races, security holes, broken error handling, missing cases);',
  '- problems the author would want to fix once pointed out, not matters of taste;',
  '- each problem once, at the place in the changed code where it is best fixed.',
  'Leave out style preferences, praise, speculation you cannot support from the code, and problems that existed before the change.',
  '',
  'For each finding give:',
  '- title: one short imperative line (at most 80 characters), starting with its priority tag: [P0] drop everything, [P1] fix before merging, [P2] fix soon, [P3] minor;',
  '- body: why it is a problem and when it happens, in a few sentences of Markdown; name the inputs or conditions that trigger it;',
  '- priority: 0, 1, 2 or 3, matching the tag;',
  '- confidence_score: how sure you are, from 0.0 to 1.0;',
  '- code_location: the file (absolute path) and the smallest line range in the new version of the file that shows the problem.',
  '',
  'Then judge the change as a whole: "patch is correct" when it can be merged as it is (no P0 or P1 problem), otherwise "patch is incorrect", with a one or two sentence explanation and your confidence.',
  '',
  'Your final message must be only this JSON object, with no text before or after it:',
  '{',
  '  "findings": [',
  '    {',
  '      "title": "[P1] Short imperative title",',
  '      "body": "Why this is wrong and when it happens.",',
  '      "confidence_score": 0.8,',
  '      "priority": 1,',
  '      "code_location": { "absolute_file_path": "/abs/path/to/file", "line_range": { "start": 10, "end": 12 } }',
  '    }',
  '  ],',
  '  "overall_correctness": "patch is correct",',
  '  "overall_explanation": "One or two sentences.",',
  '  "overall_confidence_score": 0.8',
  '}',
  'An empty "findings" list is a fine answer when nothing is wrong.',
].join('\n');

function whatToReview(target: ReviewTarget, changes: GatheredChanges): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'Review the uncommitted changes in this repository: staged, unstaged and untracked files. Their diff against HEAD follows.';
    case 'baseBranch':
      return `Review the changes this branch would merge into ${target.branch}: the diff of the working tree against the merge base ${changes.mergeBase ?? ''} follows.`;
    case 'commit': {
      const title = target.title ?? changes.commitTitle;
      return `Review the changes introduced by commit ${target.sha}${title ? ` ("${title}")` : ''}. The commit follows.`;
    }
    case 'custom':
      return `Review as asked: ${target.instructions.trim()}\nFind the code this concerns yourself (read files, search, and look at git history with read-only commands).`;
  }
}

/**
 * The review's instructions and the gathered diff: context the model gets before the request
 * (not shown as the person's message), in tags so it reads as rig's, not the user's.
 */
export function reviewContextText(target: ReviewTarget, changes: GatheredChanges, cwd: string): string {
  const parts = ['<review_instructions>', GUIDELINES, '</review_instructions>', '', `Repository: ${cwd}`, `Review: ${reviewHint(target)}`, '', whatToReview(target, changes)];
  if (target.type !== 'custom') {
    parts.push('', '```diff', changes.diff.replace(/\n$/, ''), '```');
    if (changes.omittedBytes > 0) {
      parts.push(`The diff was cut here: ${changes.omittedBytes} more bytes are not shown. Read the rest with git (for example \`git diff --stat\`, then the files) before you answer.`);
    }
  }
  return parts.join('\n');
}

/** The request as the person's message: one line, as the transcript shows it. */
export function reviewRequestText(target: ReviewTarget, hint: string): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'Review the uncommitted changes.';
    case 'baseBranch':
      return `Review the changes against ${target.branch}.`;
    case 'commit':
      return `Review ${hint}.`;
    case 'custom':
      return `Review: ${target.instructions.trim()}`;
  }
}
