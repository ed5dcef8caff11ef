// The safety settings the stand-alone safety commands share with a session: the sandbox policy
// and the command environment are resolved from config exactly as a session resolves them, so
// `rig sandbox` and `rig doctor` show what the agent's commands would get.
import { loadConfig, resolveRigHome, type ConfigFlags, type LoadedConfig } from '../../config/index.js';
import { buildCommandEnv } from '../../exec/env-policy.js';
import { resolveSandboxPolicy, type SandboxMode, type SandboxPolicy } from '../../exec/sandbox/index.js';
import { collectSessionSecrets } from '../../core/secrets.js';

export interface SafetyConfigInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** `-c key=value` overrides. */
  overrides?: string[];
  addDirs?: string[];
  /** -p/--profile */
  profile?: string;
  ignoreUserConfig?: boolean;
  /** Command-line choices that beat config (-m, --provider, --harness, -s, -C). */
  flags?: ConfigFlags;
}

export function loadSafetyConfig(input: SafetyConfigInput): { home: string; loaded: LoadedConfig } {
  const home = resolveRigHome(input.env);
  const loaded = loadConfig({
    home,
    cwd: input.cwd,
    overrides: input.overrides ?? [],
    flags: { ...input.flags, ...(input.addDirs?.length ? { addDirs: input.addDirs } : {}) },
    env: input.env,
    ...(input.profile ? { profile: input.profile } : {}),
    ...(input.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
  });
  return { home, loaded };
}

export function sandboxPolicyFor(loaded: LoadedConfig, mode: SandboxMode, env: NodeJS.ProcessEnv): SandboxPolicy {
  const settings = loaded.config.sandbox_workspace_write;
  return resolveSandboxPolicy({
    mode,
    cwd: loaded.cwd,
    writableRoots: settings.writable_roots,
    networkAccess: settings.network_access,
    excludeTmpdirEnvVar: settings.exclude_tmpdir_env_var,
    excludeSlashTmp: settings.exclude_slash_tmp,
    allowUnixSockets: settings.allow_unix_sockets,
    env,
  });
}

/** Env var names that hold provider keys (built-in and configured): commands never see them unless named explicitly. */
export function providerKeyVars(loaded: LoadedConfig): string[] {
  return collectSessionSecrets(loaded.config, {}).protectedVars;
}

/** The environment a model-run command gets (shell_environment_policy, provider keys removed). */
export function commandEnvFor(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const policy = loaded.config.shell_environment_policy;
  return buildCommandEnv(
    env,
    {
      inherit: policy.inherit,
      ignoreDefaultExcludes: policy.ignore_default_excludes,
      exclude: policy.exclude,
      includeOnly: policy.include_only,
      set: policy.set,
    },
    providerKeyVars(loaded),
  );
}
