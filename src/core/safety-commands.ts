// What `rig sandbox` and `rig doctor` need from a session's safety settings, resolved by the same
// code a session uses (safetyFromConfig): the sandbox policy and the exact command environment.
import { ConfigError, loadConfig, resolveRigHome, type ConfigFlags, type LoadedConfig } from '../config/index.js';
import { SandboxPolicyError, SandboxUnavailableError, wrapCommand, isSandboxMode, SANDBOX_MODES } from '../exec/sandbox/index.js';
import { parseApprovalPolicy } from '../policy/index.js';
import type { SandboxModeName } from '../protocol/index.js';
import { newThreadId } from '../store/index.js';
import { safetyFromConfig, type SafetySettings } from './safety.js';

/** A problem the user can fix (bad config, unusable sandbox); the message says what and how. */
export class SafetySetupError extends Error {
  override name = 'SafetySetupError';
}

export { SANDBOX_MODES, isSandboxMode };
/** For checks of this machine's sandbox support (`rig eval`'s preflight). */
export { bwrapDiagnosis, privilegedSockets } from '../exec/sandbox/index.js';

export interface SafetyCommandInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** `-c key=value` overrides. */
  config?: string[];
  addDirs?: string[];
  /** -p/--profile */
  profile?: string;
  ignoreUserConfig?: boolean;
  /** Command-line choices that beat config (-m, --provider, --harness, -s, -C). */
  flags?: ConfigFlags;
}

export function loadSafetyConfig(input: SafetyCommandInput): { home: string; loaded: LoadedConfig } {
  const home = resolveRigHome(input.env);
  try {
    const loaded = loadConfig({
      home,
      cwd: input.cwd,
      overrides: input.config ?? [],
      flags: { ...input.flags, ...(input.addDirs?.length ? { addDirs: input.addDirs } : {}) },
      env: input.env,
      ...(input.profile ? { profile: input.profile } : {}),
      ...(input.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
    });
    return { home, loaded };
  } catch (error) {
    if (error instanceof ConfigError) throw new SafetySetupError(error.message);
    throw error;
  }
}

/** The session's safety settings for this config in `mode` (default: the configured mode). */
export function sessionSafety(loaded: LoadedConfig, env: NodeJS.ProcessEnv, mode?: SandboxModeName, threadId = newThreadId()): SafetySettings {
  try {
    return safetyFromConfig({
      config: loaded.config,
      cwd: loaded.cwd,
      env,
      sandboxMode: mode ?? loaded.config.sandbox_mode,
      approvalPolicy: parseApprovalPolicy(loaded.config.approval_policy),
      yolo: false,
      threadId,
      home: resolveRigHome(env),
    });
  } catch (error) {
    if (error instanceof SandboxPolicyError) throw new SafetySetupError(error.message);
    throw error;
  }
}

export interface PreparedCommand {
  argv: string[];
  /** The complete environment: the session's command environment plus the sandbox's markers. */
  env: Record<string, string>;
  cwd: string;
  warnings: string[];
  /** Call once the command has exited (removes mount-point placeholders). */
  cleanup: () => void;
}

/** `command` wrapped exactly as a session's command would be in `mode`. */
export function prepareSandboxedCommand(input: SafetyCommandInput & { mode: SandboxModeName; command: string[] }): PreparedCommand {
  const { loaded } = loadSafetyConfig(input);
  const safety = sessionSafety(loaded, input.env, input.mode);
  let wrapped;
  try {
    wrapped = wrapCommand(safety.sandbox, input.command, safety.sandbox.cwd);
  } catch (error) {
    if (error instanceof SandboxUnavailableError || error instanceof SandboxPolicyError) throw new SafetySetupError(error.message);
    throw error;
  }
  return {
    argv: wrapped.argv,
    env: { ...safety.commandEnv, ...wrapped.env },
    cwd: safety.sandbox.cwd,
    warnings: [...loaded.warnings, ...safety.sandbox.warnings],
    cleanup: wrapped.cleanup,
  };
}

/** Whether this machine can run sandboxed commands, and if not, why. */
export async function sandboxAvailability(): Promise<{ available: true } | { available: false; reason: string }> {
  const sandbox = await import('../exec/sandbox/index.js');
  const backend = sandbox.defaultBackend();
  if (backend === 'bwrap') {
    const diagnosis = sandbox.bwrapDiagnosis();
    return diagnosis.ok ? { available: true } : { available: false, reason: diagnosis.reason };
  }
  if (backend === 'seatbelt') {
    const fs = await import('node:fs');
    return fs.existsSync(sandbox.SANDBOX_EXEC) ? { available: true } : { available: false, reason: `${sandbox.SANDBOX_EXEC} is missing` };
  }
  return { available: false, reason: `no sandbox backend for ${process.platform}` };
}
