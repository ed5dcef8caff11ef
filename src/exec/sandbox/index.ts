// Wrapping a command for the platform sandbox. The process layer spawns whatever argv comes back
// (with the extra env merged in) and calls `cleanup` once the process has exited. When the sandbox
// cannot run here, wrapping throws instead of handing back the bare command: a command meant to be
// sandboxed never runs unsandboxed by accident.
import fs from 'node:fs';
import { boundSources, buildBwrapInvocation, type BwrapInvocation } from './bwrap.js';
import { bwrapDiagnosis, prewarmBwrapDiagnosis, type BwrapDiagnosis } from './detect.js';
import type { SandboxMode, SandboxPolicy } from './policy.js';
import { SANDBOX_EXEC, buildSeatbeltArgs } from './seatbelt.js';
import { openSeccompDescriptor, seccompProgram, type SeccompDescriptor, type SeccompKind } from './seccomp.js';

export type SandboxBackend = 'bwrap' | 'seatbelt' | 'none';

export interface WrappedCommand {
  argv: string[];
  sandboxed: boolean;
  backend: SandboxBackend;
  /** Variables to add to the child's environment (tells tools they are sandboxed / offline). */
  env: Record<string, string>;
  /** Call after the process exited (closes the filter's descriptor, releases mount points). Idempotent. */
  cleanup: () => void;
  /** With `descriptors` asked for: the child's fd 3 onward (the seccomp filter for bwrap). */
  descriptors?: number[];
  /** With `descriptors` asked for: the same sandbox around any command, to be started ahead of one. */
  prepared?: PreparedSandbox;
}

/** Field-compatible with the process layer's `PreparedWrapper` (src/exec/live-process.ts). */
export interface PreparedSandbox {
  key: string;
  around(inner: string[]): string[];
  openDescriptors(): number[];
  boundPaths: readonly string[];
}

export interface WrapOptions {
  /** Diagnosis to trust instead of probing this machine (tests, `rig doctor`). */
  diagnosis?: () => BwrapDiagnosis;
  /** The command runs on a private PTY: keep it attached to that terminal (no --new-session). */
  tty?: boolean;
  /** The seccomp program's descriptor for a run; `null` disables the filter (tests of the namespace alone). */
  seccomp?: (kind: SeccompKind) => SeccompDescriptor | undefined | null;
  /** Daemon sockets to hide (bwrap); defaults to the built-in list of privileged ones. */
  maskSockets?: readonly string[];
  /**
   * The caller spawns with pipes and places `WrappedCommand.descriptors` at fd 3 onward, so bwrap
   * gets its filter directly: no sh trampoline, one exec less per command (~1 ms measured).
   */
  descriptors?: boolean;
}

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
  constructor(
    message: string,
    readonly backend: SandboxBackend,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** The descriptor the seccomp program is opened on by the small sh trampoline. */
const SECCOMP_FD = 3;

const noCleanup = (): void => {};

let sandboxExecFound: boolean | undefined;
function sandboxExecPresent(): boolean {
  sandboxExecFound ??= fs.existsSync(SANDBOX_EXEC);
  return sandboxExecFound;
}

/** The backend this platform uses for a restricted policy. */
export function defaultBackend(platform: NodeJS.Platform = process.platform): SandboxBackend {
  if (platform === 'linux') return 'bwrap';
  if (platform === 'darwin') return 'seatbelt';
  return 'none';
}

/**
 * Wrap `argv` (run in `cwd`) for `policy`. danger-full-access runs the command as is. Throws
 * SandboxUnavailableError when the policy needs a sandbox and the backend cannot provide one.
 */
export function wrapCommand(
  policy: SandboxPolicy,
  argv: string[],
  cwd: string,
  platform: NodeJS.Platform = process.platform,
  backend: SandboxBackend = defaultBackend(platform),
  options: WrapOptions = {},
): WrappedCommand {
  if (policy.mode === 'danger-full-access') {
    return { argv, sandboxed: false, backend: 'none', env: {}, cleanup: noCleanup };
  }
  const env: Record<string, string> = policy.networkAccess
    ? {}
    : { RIG_SANDBOX_NETWORK_DISABLED: '1', CODEX_SANDBOX_NETWORK_DISABLED: '1' };
  if (backend === 'seatbelt') {
    if (process.platform === 'darwin' && !sandboxExecPresent()) {
      throw new SandboxUnavailableError(
        `The sandbox (${SANDBOX_EXEC}) is missing, so the command was not run.`,
        'seatbelt',
        'sandbox-exec ships with macOS; reinstall or repair the system, or run with --sandbox danger-full-access.',
      );
    }
    return {
      argv: buildSeatbeltArgs(policy, argv, cwd),
      sandboxed: true,
      backend,
      env: { ...env, RIG_SANDBOX: 'seatbelt', CODEX_SANDBOX: 'seatbelt' },
      cleanup: noCleanup,
    };
  }
  if (backend === 'bwrap') return wrapWithBwrap(policy, argv, cwd, env, options);
  throw new SandboxUnavailableError(
    `No sandbox is available on ${platform} for sandbox_mode "${policy.mode}"; the command was not run.`,
    backend,
    'Run with --sandbox danger-full-access only if you accept commands running without restrictions.',
  );
}

function wrapWithBwrap(
  policy: SandboxPolicy,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  options: WrapOptions,
): WrappedCommand {
  const diagnosis = (options.diagnosis ?? bwrapDiagnosis)();
  if (!diagnosis.ok) {
    throw new SandboxUnavailableError(
      `The sandbox (bubblewrap) is unavailable, so the command was not run: ${diagnosis.reason}\nFix: ${diagnosis.fix}`,
      'bwrap',
      diagnosis.fix,
    );
  }
  let seccomp: SeccompDescriptor | undefined;
  const kind = seccompKindFor(policy);
  try {
    if (kind !== undefined) seccomp = (options.seccomp ?? defaultSeccomp)(kind) ?? undefined;
  } catch (error) {
    throw new SandboxUnavailableError(
      `The sandbox's seccomp filter could not be prepared, so the command was not run: ${(error as Error).message}`,
      'bwrap',
      'Make the temp directory ($TMPDIR or /tmp) writable for rig.',
    );
  }
  let invocation: BwrapInvocation;
  try {
    invocation = buildBwrapInvocation(policy, argv, cwd, {
      disableUserns: diagnosis.supportsDisableUserns,
      mountProc: diagnosis.mountProc,
      newSession: options.tty !== true,
      ...(options.maskSockets ? { maskSockets: options.maskSockets } : {}),
      ...(seccomp ? { seccompFd: SECCOMP_FD } : {}),
    });
  } catch (error) {
    seccomp?.close();
    throw error;
  }
  // bwrap reads the filter from a descriptor. A caller that places descriptors gets a fresh one of
  // its own (offset 0; bwrap reads to the end); otherwise (a PTY cannot pass them) a one-line sh
  // opens it. The path is rig's own descriptor of an unnamed file: nothing outside rig can name it.
  const bwrap = [diagnosis.bwrapPath, ...invocation.args];
  const sandboxed = { sandboxed: true, backend: 'bwrap', env: { ...env, RIG_SANDBOX: 'bwrap' } } as const;
  // A copy started ahead reads its command from a pipe at fd 4: callers that place descriptors only.
  const preparable = options.descriptors === true && options.tty !== true;
  const prepared = (filterPath?: string): { prepared?: PreparedSandbox } =>
    preparable ? { prepared: preparedSandbox(diagnosis.bwrapPath, invocation.setup, filterPath) } : {};
  if (!seccomp) return { ...sandboxed, argv: bwrap, cleanup: noCleanup, ...prepared() };
  const filter = seccomp;
  if (!options.descriptors || options.tty === true) {
    return { ...sandboxed, argv: ['/bin/sh', '-c', `exec ${SECCOMP_FD}<"$0" && exec "$@"`, filter.path, ...bwrap], cleanup: () => filter.close() };
  }
  const copy = openFilterCopy(filter);
  let closed = false;
  const cleanup = (): void => {
    filter.close();
    if (closed) return;
    closed = true;
    fs.closeSync(copy);
  };
  return { ...sandboxed, argv: bwrap, descriptors: [copy], cleanup, ...prepared(filter.path) };
}

/**
 * The sandbox of one command, around any other. The key holds every set-up argument and the
 * filter's file, so a copy started earlier runs a command only if that command's own sandbox
 * would have been the same: a protected path created since, a socket that appeared, a policy
 * change all change the arguments.
 */
function preparedSandbox(bwrapPath: string, setup: readonly string[], filterPath: string | undefined): PreparedSandbox {
  return {
    key: [bwrapPath, filterPath ?? '', ...setup].join('\0'),
    around: (inner) => [bwrapPath, ...setup, '--chdir', '/', '--', ...inner],
    openDescriptors: () => (filterPath === undefined ? [] : [fs.openSync(filterPath, 'r')]),
    boundPaths: boundSources(setup),
  };
}

/** A read-only descriptor of the filter with its own offset; the filter is closed if it fails. */
function openFilterCopy(filter: SeccompDescriptor): number {
  try {
    return fs.openSync(filter.path, 'r');
  } catch (error) {
    filter.close();
    throw new SandboxUnavailableError(
      `The sandbox's seccomp filter could not be opened, so the command was not run: ${(error as Error).message}`,
      'bwrap',
      'Make the temp directory ($TMPDIR or /tmp) writable for rig.',
    );
  }
}

/**
 * Starts what the first sandboxed command of `mode` would wait for, in the background: the
 * bubblewrap probe. Nothing to do where the mode runs commands bare or the backend needs no probe.
 */
export function prewarmSandbox(mode: SandboxMode, platform: NodeJS.Platform = process.platform): void {
  if (mode !== 'danger-full-access' && defaultBackend(platform) === 'bwrap') prewarmBwrapDiagnosis();
}

/** Which filter a policy needs: network off, host UNIX sockets off (network on), or none. */
export function seccompKindFor(policy: SandboxPolicy): SeccompKind | undefined {
  if (policy.mode === 'danger-full-access') return undefined;
  if (!policy.networkAccess) return 'network-off';
  return policy.allowUnixSockets ? undefined : 'host-sockets-off';
}

/**
 * One filter file per kind for the process's life, shared by every command: creating an unnamed
 * file costs 0.2-0.4 ms on ext4, and a sandboxed command cannot reach rig's descriptors (its own
 * PID namespace and /proc). The file is checked against the program before each use, so a process
 * outside the sandbox that rewrote it (root ignores the 0400 mode) gets a fresh one used instead.
 */
const sharedFilters = new Map<SeccompKind, SeccompDescriptor>();

function defaultSeccomp(kind: SeccompKind): SeccompDescriptor | undefined {
  const program = seccompProgram(kind);
  if (program === undefined) return undefined;
  let shared = sharedFilters.get(kind);
  if (shared && !holdsProgram(shared, program)) {
    shared.close();
    shared = undefined;
  }
  if (!shared) {
    shared = openSeccompDescriptor(program);
    sharedFilters.set(kind, shared);
  }
  // The command's cleanup must not close what the next command will use.
  return { path: shared.path, close: () => {} };
}

function holdsProgram(descriptor: SeccompDescriptor, program: Buffer): boolean {
  try {
    return fs.readFileSync(descriptor.path).equals(program);
  } catch {
    return false;
  }
}

const DENIAL_KEYWORDS = [
  'operation not permitted',
  'permission denied',
  'read-only file system',
  'seccomp',
  'sandbox',
  'landlock',
  'failed to write file',
  // Network off: resolution and connection failures.
  'network is unreachable',
  'could not resolve host',
  'temporary failure in name resolution',
  'name or service not known',
  'getaddrinfo enotfound',
  'getaddrinfo eai_again',
];

const SIGSYS_EXIT = 128 + 31;

/**
 * Did a sandboxed command fail because of the sandbox (so an escalated retry could help)? Exit codes
 * 2, 126 and 127 without a telltale message are ordinary failures (usage, not executable, not found).
 */
export function isLikelySandboxDenial(exitCode: number | null, output: string): boolean {
  if (exitCode === 0) return false;
  const lower = output.toLowerCase();
  if (DENIAL_KEYWORDS.some((keyword) => lower.includes(keyword))) return true;
  return exitCode === SIGSYS_EXIT;
}

export { bwrapDiagnosis, bwrapDiagnosisReady, diagnoseBwrap, diagnoseBwrapAsync, findBwrap, prewarmBwrapDiagnosis, resetBwrapDiagnosis } from './detect.js';
export type { BwrapDiagnosis, DiagnoseOptions, ProbeResult } from './detect.js';
export { buildBwrapArgs, privilegedSockets, socketDirectories, type BwrapOptions } from './bwrap.js';
export { buildSeatbeltArgs, buildSeatbeltProfile, SANDBOX_EXEC } from './seatbelt.js';
export {
  PROTECTED_NAMES,
  SANDBOX_MODES,
  SandboxPolicyError,
  isSandboxMode,
  needsSandbox,
  resolveSandboxPolicy,
} from './policy.js';
export type { SandboxMode, SandboxPolicy, SandboxSettings, WritableRoot } from './policy.js';
export { canWritePath, checkWrite, explainWriteDenied, resolveWriteTarget } from './writable.js';
export type { WriteCheck, WriteCheckOptions } from './writable.js';
export { sandboxDoctorReport } from './doctor.js';
