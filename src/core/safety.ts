// One source for a thread's safety settings: the sandbox policy, the approval policy, and the
// environment model-run commands get. Sessions, `rig sandbox` and `rig doctor` all call
// safetyFromConfig, so what those commands show is exactly what a session passes.
import { join } from 'node:path';
import type { RigConfig } from '../config/index.js';
import { findProjectRoot, isProjectTrusted, projectMayWidenSafety } from '../config/index.js';
import { buildCommandEnv } from '../exec/env-policy.js';
import { resolveSandboxPolicy, type SandboxPolicy } from '../exec/sandbox/index.js';
import type { ProviderInfo } from '../model/index.js';
import { loadSessionRules, type ApprovalPolicyConfig, type ExecPolicy } from '../policy/index.js';
import type { SandboxModeName } from '../protocol/index.js';
import { collectSessionSecrets } from './secrets.js';

/** The variable that names the thread in every command it runs. */
export const THREAD_ID_VAR = 'RIG_THREAD_ID';
/**
 * The variable that marks every process of one load of a thread in one rig process: closing the
 * thread (or the watchdog, when rig died) takes down what carries it, even processes that left
 * their group. Not the thread id alone: a thread resumed after a crash must not lose its new
 * commands to the dead process's watchdog.
 */
export const PROCESS_SCOPE_VAR = 'RIG_PROCESS_SCOPE';

export function processScopeToken(threadId: string): string {
  return `${process.pid}-${threadId}`;
}

export interface SafetyInputs {
  config: RigConfig;
  /** The thread's working directory (absolute). */
  cwd: string;
  /** rig's own environment. */
  env: NodeJS.ProcessEnv;
  sandboxMode: SandboxModeName;
  approvalPolicy: ApprovalPolicyConfig;
  yolo: boolean;
  threadId: string;
  /** RIG_HOME, which commands may read but not write (default: the one `env` names). */
  home?: string;
  /** The thread's provider, whose key and header variables are withheld too (it may be neither built in nor configured). */
  provider?: Partial<ProviderInfo>;
}

export interface SafetySettings {
  sandbox: SandboxPolicy;
  approvalPolicy: ApprovalPolicyConfig;
  yolo: boolean;
  /** The complete environment of a model-run command (before the sandbox adds its markers). */
  commandEnv: Record<string, string>;
  /** Variables of rig's environment kept from commands because they hold provider keys. */
  withheld: string[];
}

/**
 * Env var names holding provider secrets (every built-in and configured provider's key, the
 * variables `env_http_headers` names): commands never see them unless named explicitly.
 */
export function providerKeyVars(config: RigConfig, provider?: Partial<ProviderInfo>): string[] {
  return collectSessionSecrets(config, {}, provider).protectedVars;
}

/** Throws SandboxPolicyError when the mode or the working directory is unusable. */
export function safetyFromConfig(inputs: SafetyInputs): SafetySettings {
  const { config, env } = inputs;
  const settings = config.sandbox_workspace_write;
  const sandbox = resolveSandboxPolicy({
    mode: inputs.yolo ? 'danger-full-access' : inputs.sandboxMode,
    cwd: inputs.cwd,
    writableRoots: settings.writable_roots,
    networkAccess: settings.network_access,
    excludeTmpdirEnvVar: settings.exclude_tmpdir_env_var,
    excludeSlashTmp: settings.exclude_slash_tmp,
    allowUnixSockets: settings.allow_unix_sockets,
    ...(inputs.home !== undefined ? { rigHome: inputs.home } : {}),
    env,
  });
  const policy = config.shell_environment_policy;
  const keyVars = providerKeyVars(config, inputs.provider);
  const commandEnv: Record<string, string> = {
    ...buildCommandEnv(
      env,
      {
        inherit: policy.inherit,
        ignoreDefaultExcludes: policy.ignore_default_excludes,
        exclude: policy.exclude,
        includeOnly: policy.include_only,
        set: policy.set,
      },
      keyVars,
    ),
    [THREAD_ID_VAR]: inputs.threadId,
    [PROCESS_SCOPE_VAR]: processScopeToken(inputs.threadId),
  };
  const withheld = keyVars.filter((name) => env[name] !== undefined && commandEnv[name] === undefined);
  return { sandbox, approvalPolicy: inputs.yolo ? 'never' : inputs.approvalPolicy, yolo: inputs.yolo, commandEnv, withheld };
}

/** Project `.rig/` directories whose rules apply: only trusted projects'. */
function trustedProjectConfigDirs(config: RigConfig, cwd: string): string[] {
  if (!isProjectTrusted(config, cwd)) return [];
  const root = findProjectRoot(cwd, config.project_root_markers) ?? cwd;
  return [join(root, '.rig')];
}

/**
 * The exec-policy rules a thread in `cwd` obeys ($RIG_HOME/rules, trusted projects' .rig/rules; a
 * project's rules may only narrow unless the user's config lets it widen), and what was ignored.
 */
export async function loadExecPolicy(options: {
  config: RigConfig;
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  ignoreRules: boolean;
}): Promise<{ policy: ExecPolicy; warnings: string[] }> {
  return loadSessionRules({
    rigHome: options.home,
    trustedProjectConfigDirs: trustedProjectConfigDirs(options.config, options.cwd),
    ignoreRules: options.ignoreRules,
    projectMayWiden: projectMayWidenSafety(options.config, options.cwd),
    homeDir: options.env['HOME'] ?? '',
  });
}
