// The environment a model-run command sees ([shell_environment_policy]). Pure: the caller passes
// the base environment, so tests and the app server never depend on rig's own process.env.

export type EnvInherit = 'all' | 'core' | 'none';

export interface ShellEnvironmentPolicy {
  /** Starting set: everything, the core variables, or nothing. Default 'all'. */
  inherit?: EnvInherit;
  /**
   * When false, drop names matching *KEY*, *SECRET*, *TOKEN* (case-insensitive). Default true
   * (Codex's default: the default excludes are off unless asked for).
   */
  ignoreDefaultExcludes?: boolean;
  /** Patterns (`*`, `?`; case-insensitive) of names to drop. */
  exclude?: string[];
  /** Variables to set, applied after the excludes. */
  set?: Record<string, string>;
  /** When non-empty, keep only names matching one of these patterns (after `set`). */
  includeOnly?: string[];
}

/**
 * `inherit = "core"` keeps these. Codex's list plus the locale variables, which the reference
 * lists too and which only decide how text is encoded.
 */
export const CORE_ENV_VARS: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  'USERNAME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
];

export const DEFAULT_EXCLUDE_PATTERNS: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*'];

/**
 * Never inherited: where rig keeps its config, rules and sessions is none of a command's business
 * (it is read-only for commands anyway). The user can still pass it on with `set`.
 */
export const ALWAYS_REMOVED_VARS: readonly string[] = ['RIG_HOME'];

/**
 * Build a command's environment:
 * 1. start from `baseEnv` per `inherit`; 2. drop the default excludes unless ignored;
 * 3. drop `exclude` matches; 4. drop `protectedVars` (the API key variables of every provider),
 * except those the user named literally in `includeOnly`, and RIG_HOME; 5. apply `set`; 6. keep only
 * `includeOnly` matches when it is non-empty.
 * A provider's key therefore reaches a command only when the user wrote its name in `set` or in
 * `include_only` themselves, whatever `inherit` says.
 */
export function buildCommandEnv(
  baseEnv: Record<string, string | undefined>,
  policy: ShellEnvironmentPolicy = {},
  protectedVars: Iterable<string> = [],
): Record<string, string> {
  const inherit = policy.inherit ?? 'all';
  const env: Record<string, string> = {};
  if (inherit !== 'none') {
    const core = inherit === 'core' ? new Set(CORE_ENV_VARS) : undefined;
    for (const [name, value] of Object.entries(baseEnv)) {
      if (value === undefined) continue;
      if (core && !core.has(name)) continue;
      env[name] = value;
    }
  }

  if (policy.ignoreDefaultExcludes === false) {
    dropMatching(env, compilePatterns(DEFAULT_EXCLUDE_PATTERNS));
  }
  if (policy.exclude && policy.exclude.length > 0) {
    dropMatching(env, compilePatterns(policy.exclude));
  }

  const includeOnly = policy.includeOnly ?? [];
  const namedInIncludeOnly = new Set(
    includeOnly.filter((pattern) => !/[*?]/.test(pattern)).map((name) => name.toUpperCase()),
  );
  for (const name of protectedVars) {
    if (!namedInIncludeOnly.has(name.toUpperCase())) delete env[name];
  }
  for (const name of ALWAYS_REMOVED_VARS) delete env[name];

  for (const [name, value] of Object.entries(policy.set ?? {})) env[name] = value;

  if (includeOnly.length > 0) {
    const keep = compilePatterns(includeOnly);
    for (const name of Object.keys(env)) {
      if (!keep.some((re) => re.test(name))) delete env[name];
    }
  }
  return env;
}

/** Case-insensitive wildcard match: `*` any run, `?` one character, everything else literal. */
export function envPatternMatches(pattern: string, name: string): boolean {
  return compilePattern(pattern).test(name);
}

function compilePatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map(compilePattern);
}

function compilePattern(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

function dropMatching(env: Record<string, string>, patterns: RegExp[]): void {
  for (const name of Object.keys(env)) {
    if (patterns.some((re) => re.test(name))) delete env[name];
  }
}
