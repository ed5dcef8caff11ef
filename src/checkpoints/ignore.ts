// What the shell-write tracker does not look at: version-control metadata and the usual folders of
// downloaded or generated files, which are large, churn on every build and are re-created by their
// tools. A command's changes there are not checkpointed (an undo leaves them as they are).
import path from 'node:path';

export const DEFAULT_IGNORED_DIRS: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  '.jj',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.next',
  '.nuxt',
  '.turbo',
  '.gradle',
  'target',
];

export interface IgnoreRules {
  /** Folder names skipped wherever they appear. */
  dirNames: ReadonlySet<string>;
  /** Absolute paths skipped with everything under them (the checkpoint store itself, ...). */
  paths: readonly string[];
}

export function ignoreRules(options: { dirNames?: readonly string[]; extraDirNames?: readonly string[]; paths?: readonly string[] } = {}): IgnoreRules {
  return {
    dirNames: new Set([...(options.dirNames ?? DEFAULT_IGNORED_DIRS), ...(options.extraDirNames ?? [])]),
    paths: (options.paths ?? []).map((p) => path.resolve(p)),
  };
}

export function isIgnored(rules: IgnoreRules, abs: string, isDir: boolean): boolean {
  if (isDir && rules.dirNames.has(path.basename(abs))) return true;
  return rules.paths.some((p) => abs === p || abs.startsWith(p + path.sep));
}

/** True when some folder of `abs` below `root` is ignored by name. */
export function underIgnoredDir(rules: IgnoreRules, root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  if (rel.startsWith('..')) return false;
  const parts = rel.split(path.sep);
  parts.pop();
  return parts.some((p) => rules.dirNames.has(p)) || rules.paths.some((p) => abs === p || abs.startsWith(p + path.sep));
}
