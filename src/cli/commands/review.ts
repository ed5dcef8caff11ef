// rig review [--uncommitted | --base BRANCH | --commit SHA [--title T] | INSTRUCTIONS]: a read-only
// review turn (read-only sandbox, no edit tools) over the changes rig gathers from git, printing
// the reviewer's findings as a list (--json: the event stream, then the findings).
import type { Command } from 'commander';
import { addSharedOptions, mergedOptions } from '../options.js';
import { threadRequestFromFlags, type SessionFlags } from '../session-flags.js';
import { CliError } from '../errors.js';
import type { ReviewTarget } from '../../core/review/target.js';

interface ReviewFlags extends SessionFlags {
  uncommitted?: boolean;
  base?: string;
  commit?: string;
  title?: string;
}

/** The one target the flags name; more than one, or none, is an error saying what to give. */
export function reviewTargetFromFlags(flags: ReviewFlags, instructions: string | undefined): ReviewTarget {
  const given = [flags.uncommitted ? '--uncommitted' : '', flags.base !== undefined ? '--base' : '', flags.commit !== undefined ? '--commit' : '', instructions !== undefined ? 'instructions' : ''].filter(Boolean);
  if (given.length > 1) throw new CliError(`rig review takes one target; got ${given.join(' and ')}: choose --uncommitted, --base BRANCH, --commit SHA or instructions`);
  if (flags.title !== undefined && flags.commit === undefined) throw new CliError('--title labels a --commit review; give --commit SHA too');
  if (flags.base !== undefined) return { type: 'baseBranch', branch: flags.base };
  if (flags.commit !== undefined) return { type: 'commit', sha: flags.commit, ...(flags.title ? { title: flags.title } : {}) };
  if (instructions !== undefined) return { type: 'custom', instructions };
  // As Codex's review with no target in a script: the working tree is what there is to look at.
  return { type: 'uncommittedChanges' };
}

export function registerReview(program: Command): void {
  addSharedOptions(
    program
      .command('review')
      .description('review code changes read-only and print findings (file, lines, priority, title, body); the default target is the uncommitted changes')
      .argument('[instructions]', 'custom review instructions instead of a git target')
      .option('--uncommitted', 'review staged, unstaged and untracked changes (the default)')
      .option('--base <branch>', 'review the changes against the merge base with BRANCH')
      .option('--commit <sha>', 'review the changes one commit introduced')
      .option('--title <title>', 'with --commit: the commit title to show'),
    ['config', 'profile', 'model', 'provider', 'harness', 'cd', 'replay', 'ignoreUserConfig', 'ignoreRules', 'strictConfig', 'json', 'ephemeral', 'color'],
  ).action(async (instructions: string | undefined, _flags: ReviewFlags, command: Command) => {
    const flags = mergedOptions<ReviewFlags>(command);
    const target = reviewTargetFromFlags(flags, instructions);
    const { runReviewCommand } = await import('../../frontends/exec/review.js');
    // A review never prompts: nobody is there to answer, and it changes nothing that would need asking.
    const thread = { ...threadRequestFromFlags(flags, 'exec'), requireTrustedDirectory: false };
    process.exitCode = await runReviewCommand({ target, thread, json: Boolean(flags.json), color: flags.color ?? 'auto' });
  });
}
