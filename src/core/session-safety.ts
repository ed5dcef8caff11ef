// The safety settings of a session, resolved once from config and flags: sandbox policy, approval
// policy, exec-policy rules, the command environment, and the orchestrator built from them.
import { join } from 'node:path';
import type { RigConfig } from '../config/index.js';
import { findProjectRoot, isProjectTrusted, projectMayWidenSafety } from '../config/index.js';
import { buildCommandEnv } from '../exec/env-policy.js';
import { resolveSandboxPolicy, type SandboxPolicy } from '../exec/sandbox/index.js';
import { UnifiedExecManager } from '../exec/unified-exec.js';
import {
  ApprovalCache,
  loadSessionRules,
  parseApprovalPolicy,
  type ApprovalPolicyConfig,
} from '../policy/index.js';
import { createOrchestrator } from '../tools/orchestrator/index.js';
import type { CapabilitiesFactory } from '../tools/spec.js';

export interface SafetySetup {
  sandbox: SandboxPolicy;
  approvalPolicy: ApprovalPolicyConfig;
  yolo: boolean;
  commandEnv: Record<string, string>;
  unifiedExec: UnifiedExecManager;
  capabilities: CapabilitiesFactory;
  /** Things the user should know (project rules that were ignored). */
  warnings: string[];
}

export interface SafetyInputs {
  config: RigConfig;
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  threadId: string;
  yolo: boolean;
  ignoreRules: boolean;
  /** Env var names holding provider keys: never passed to commands unless named explicitly. */
  protectedVars: string[];
}

/** Project `.rig/` directories whose rules apply: only trusted projects'. */
function trustedProjectConfigDirs(config: RigConfig, cwd: string): string[] {
  if (!isProjectTrusted(config, cwd)) return [];
  const root = findProjectRoot(cwd, config.project_root_markers) ?? cwd;
  return [join(root, '.rig')];
}

export async function setupSafety(inputs: SafetyInputs): Promise<SafetySetup> {
  const { config, cwd, env } = inputs;
  const sandbox = resolveSandboxPolicy({
    mode: inputs.yolo ? 'danger-full-access' : config.sandbox_mode,
    cwd,
    writableRoots: config.sandbox_workspace_write.writable_roots,
    networkAccess: config.sandbox_workspace_write.network_access,
    excludeTmpdirEnvVar: config.sandbox_workspace_write.exclude_tmpdir_env_var,
    excludeSlashTmp: config.sandbox_workspace_write.exclude_slash_tmp,
    allowUnixSockets: config.sandbox_workspace_write.allow_unix_sockets,
    rigHome: inputs.home,
    env,
  });
  const approvalPolicy = inputs.yolo ? 'never' : parseApprovalPolicy(config.approval_policy);
  const { policy: execPolicy, warnings } = await loadSessionRules({
    rigHome: inputs.home,
    trustedProjectConfigDirs: trustedProjectConfigDirs(config, cwd),
    ignoreRules: inputs.ignoreRules,
    projectMayWiden: projectMayWidenSafety(config, cwd),
    homeDir: env['HOME'] ?? '',
  });
  const envPolicy = config.shell_environment_policy;
  const commandEnv = {
    ...buildCommandEnv(
      env,
      {
        inherit: envPolicy.inherit,
        ignoreDefaultExcludes: envPolicy.ignore_default_excludes,
        exclude: envPolicy.exclude,
        includeOnly: envPolicy.include_only,
        set: envPolicy.set,
      },
      inputs.protectedVars,
    ),
    RIG_THREAD_ID: inputs.threadId,
  };
  const unifiedExec = new UnifiedExecManager({
    env: commandEnv,
    ...(config.background_terminal_max_timeout ? { backgroundMaxYieldMs: config.background_terminal_max_timeout } : {}),
  });
  const capabilities = createOrchestrator({
    sandbox,
    approvalPolicy,
    execPolicy,
    yolo: inputs.yolo,
    commandEnv,
    unifiedExec,
    approvalCache: new ApprovalCache(),
  });
  return { sandbox, approvalPolicy, yolo: inputs.yolo, commandEnv, unifiedExec, capabilities, warnings };
}
