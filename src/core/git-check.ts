// `rig exec` refuses to run outside a git repository (or a trusted project) unless told, as
// `codex exec` does: the repository is the user's undo button for what the agent changes.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const NOT_TRUSTED_MESSAGE = 'Not inside a trusted directory and --skip-git-repo-check was not specified.';

export function findGitRoot(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}
