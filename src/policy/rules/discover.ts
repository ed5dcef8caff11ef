// Where .rules files live: `<RIG_HOME>/rules/` and each trusted project's
// `.rig/rules/`, lowest precedence first; within a folder, by file name.

import fs from 'node:fs';
import path from 'node:path';
import { ExecPolicy, loadRulesFiles } from './policy.js';

export const RULES_DIR_NAME = 'rules';
export const DEFAULT_RULES_FILE = 'default.rules';

/**
 * The `*.rules` files directly inside `dir`, sorted; none when the folder does not exist. Read
 * synchronously: every thread start looks here, the folders hold a few files, and reaching
 * fs.promises would load its module (with the stream and readline modules it needs) before the
 * first model request.
 */
export async function collectRulesFiles(dir: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw new Error(`failed to read rules files from ${dir}: ${(error as Error).message}`);
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.rules'))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

export interface RulesLocations {
  rigHome: string;
  /** Config folders (e.g. `<project>/.rig`) of trusted projects, lowest precedence first. */
  trustedProjectConfigDirs?: readonly string[];
  /** `--ignore-rules`: skip user and project rules. */
  ignoreRules?: boolean;
}

export async function discoverRulesFiles(locations: RulesLocations): Promise<string[]> {
  if (locations.ignoreRules) return [];
  const dirs = [locations.rigHome, ...(locations.trustedProjectConfigDirs ?? [])].map((dir) => path.join(dir, RULES_DIR_NAME));
  const files: string[] = [];
  for (const dir of dirs) files.push(...(await collectRulesFiles(dir)));
  return files;
}

export interface SessionRulesOptions extends RulesLocations {
  /** The user's config lets the project widen safety settings (`allow_wider_safety`). */
  projectMayWiden?: boolean;
  homeDir?: string;
}

export interface SessionRules {
  policy: ExecPolicy;
  /** What a project's rules tried to allow and was ignored, as one message (empty when nothing was). */
  warnings: string[];
}

/**
 * The exec policy of a session: the user's rules, then each trusted project's. A project's rules
 * files live in the workspace, where a model writes, so they may add `prompt` and `forbidden`
 * rules but not `allow` ones (nor network allows or host_executable entries) unless the user's
 * config opts the project in.
 */
export async function loadSessionRules(options: SessionRulesOptions): Promise<SessionRules> {
  const files = await discoverRulesFiles(options);
  if (files.length === 0) return { policy: ExecPolicy.empty(), warnings: [] };
  const projectRulesDirs = (options.trustedProjectConfigDirs ?? []).map((dir) => path.join(dir, RULES_DIR_NAME) + path.sep);
  const fromProject = (file: string): boolean => projectRulesDirs.some((dir) => file.startsWith(dir));
  const policy = await loadRulesFiles(files, {
    ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
    ...(options.projectMayWiden ? {} : { narrowOnly: fromProject }),
  });
  const warnings = policy.ignored.length === 0
    ? []
    : [
        `project rules may only narrow the exec policy; ignored: ${policy.ignored.join('; ')}. To let the project allow ` +
          `commands, add \`allow_wider_safety = true\` to its [projects."<path>"] table in ${path.join(options.rigHome, 'config.toml')}, ` +
          `or put the rule in ${path.join(options.rigHome, RULES_DIR_NAME)}`,
      ];
  return { policy, warnings };
}

/** Persists an "always allow" decision as `prefix_rule(pattern=[...], decision="allow")` in `<RIG_HOME>/rules/default.rules`. */
export async function appendAllowPrefixRule(rigHome: string, prefix: readonly string[]): Promise<string> {
  if (prefix.length === 0) throw new Error('cannot save an "always allow" rule for an empty command prefix');
  const dir = path.join(rigHome, RULES_DIR_NAME);
  const file = path.join(dir, DEFAULT_RULES_FILE);
  await fs.promises.mkdir(dir, { recursive: true });
  let existing = '';
  try {
    existing = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const line = `prefix_rule(pattern=[${prefix.map((token) => JSON.stringify(token)).join(', ')}], decision="allow")\n`;
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await fs.promises.appendFile(file, separator + line, 'utf8');
  return file;
}
