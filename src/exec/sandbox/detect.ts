// Does bubblewrap work here? Found out once per process, lazily (on the first sandboxed command or
// by `rig doctor`), by running a tiny sandbox with the same namespaces real commands use; a thread
// that will need it starts the probe in the background while its first request is answered
// (prewarmBwrapDiagnosis), so the first command does not wait ~20 ms for two bwrap runs. When it
// does not work, the diagnosis says why in the user's terms and which commands fix it; sandboxed
// commands are then refused, never run unsandboxed.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type BwrapDiagnosis =
  | {
      ok: true;
      bwrapPath: string;
      version: string;
      /** bwrap >= 0.8 understands --disable-userns. */
      supportsDisableUserns: boolean;
      /** False when only `--proc /proc` failed (some containers); commands then see the host /proc. */
      mountProc: boolean;
      notes: string[];
    }
  | { ok: false; bwrapPath?: string; reason: string; fix: string };

export interface ProbeResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Spawn error code, e.g. ENOENT or EACCES. */
  errorCode?: string;
}

export interface DiagnoseOptions {
  /** Use this binary instead of searching PATH. */
  bwrapPath?: string;
  /** Run bwrap with these args (tests inject failures). */
  runProbe?: (bwrapPath: string, args: string[]) => ProbeResult;
  /** Read a small system file (sysctls, container markers); undefined when unreadable. */
  readFile?: (file: string) => string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Directory that must not provide bwrap (the workspace could plant a fake one). */
  cwd?: string;
}

const INSTALL_FIX =
  'Install bubblewrap: `sudo apt-get install bubblewrap` (Debian/Ubuntu), `sudo dnf install bubblewrap` ' +
  '(Fedora), `sudo pacman -S bubblewrap` (Arch), `sudo apk add bubblewrap` (Alpine). ' +
  'If this machine is itself a disposable sandbox, you may instead run with --sandbox danger-full-access.';

function defaultProbe(bwrapPath: string, args: string[]): ProbeResult {
  const result = spawnSync(bwrapPath, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const errorCode = (result.error as NodeJS.ErrnoException | undefined)?.code;
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', ...(errorCode ? { errorCode } : {}) };
}

function defaultReadFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The first executable `bwrap` on PATH, skipping relative entries and anything inside `cwd`. */
export function findBwrap(env: NodeJS.ProcessEnv = process.env, cwd?: string): string | undefined {
  for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    if (cwd !== undefined && (dir === cwd || dir.startsWith(cwd + '/'))) continue;
    const candidate = path.join(dir, 'bwrap');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The probe: the namespaces and mounts a real command gets, running `true` (no seccomp). */
export function probeArgs(options: { disableUserns: boolean; mountProc: boolean }): string[] {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--cap-drop', 'ALL'];
  if (options.disableUserns) args.push('--disable-userns');
  args.push('--ro-bind', '/', '/', '--dev', '/dev');
  if (options.mountProc) args.push('--proc', '/proc');
  args.push('--', 'sh', '-c', 'true');
  return args;
}

/** One bwrap run the diagnosis needs; the driver (sync or async) answers with its result. */
interface ProbeRequest {
  bwrapPath: string;
  args: string[];
}

export function diagnoseBwrap(options: DiagnoseOptions = {}): BwrapDiagnosis {
  const run = options.runProbe ?? defaultProbe;
  const steps = diagnosis(options);
  let next = steps.next();
  while (!next.done) next = steps.next(run(next.value.bwrapPath, next.value.args));
  return next.value;
}

/** The same diagnosis with the probes run as child processes the event loop waits for. */
export async function diagnoseBwrapAsync(options: Omit<DiagnoseOptions, 'runProbe'> = {}): Promise<BwrapDiagnosis> {
  const steps = diagnosis(options);
  let next = steps.next();
  while (!next.done) next = steps.next(await probeAsync(next.value.bwrapPath, next.value.args));
  return next.value;
}

function probeAsync(bwrapPath: string, args: string[]): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(bwrapPath, args, { encoding: 'utf8', timeout: 10_000 }, (error, stdout, stderr) => {
      const failure = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
      const errorCode = typeof failure?.code === 'string' ? failure.code : undefined;
      // As spawnSync: the exit status, or null when it was killed or never started.
      const status = failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null;
      resolve({ status, stdout: stdout ?? '', stderr: stderr ?? '', ...(errorCode ? { errorCode } : {}) });
    }).stdin?.end();
  });
}

function* diagnosis(options: Omit<DiagnoseOptions, 'runProbe'>): Generator<ProbeRequest, BwrapDiagnosis, ProbeResult> {
  const readFile = options.readFile ?? defaultReadFile;
  const bwrapPath = options.bwrapPath ?? findBwrap(options.env, options.cwd);
  if (bwrapPath === undefined) {
    return { ok: false, reason: 'bubblewrap (bwrap) is not installed or not on PATH.', fix: INSTALL_FIX };
  }
  const versionRun = yield { bwrapPath, args: ['--version'] };
  if (versionRun.errorCode !== undefined || versionRun.status !== 0) {
    const what =
      versionRun.errorCode === 'ENOENT'
        ? `${bwrapPath} does not exist.`
        : versionRun.errorCode === 'EACCES'
          ? `${bwrapPath} is not executable.`
          : `${bwrapPath} --version failed: ${firstLine(versionRun.stderr) || `exit ${versionRun.status}`}.`;
    return { ok: false, bwrapPath, reason: `bubblewrap cannot be run: ${what}`, fix: INSTALL_FIX };
  }
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionRun.stdout)?.[1] ?? 'unknown';
  const supportsDisableUserns = versionAtLeast(version, [0, 8, 0]);
  const notes: string[] = [];

  let probe = yield { bwrapPath, args: probeArgs({ disableUserns: supportsDisableUserns, mountProc: true }) };
  let mountProc = true;
  if (probe.status !== 0 && /mount proc|\/proc\b/i.test(probe.stderr)) {
    const withoutProc = yield { bwrapPath, args: probeArgs({ disableUserns: supportsDisableUserns, mountProc: false }) };
    if (withoutProc.status === 0) {
      mountProc = false;
      notes.push(`A fresh /proc cannot be mounted here (${firstLine(probe.stderr)}); commands see the host's /proc.`);
      probe = withoutProc;
    }
  }
  if (probe.status === 0) {
    if (!supportsDisableUserns) {
      notes.push(`bubblewrap ${version} lacks --disable-userns (0.8+); nested user namespaces stay possible.`);
    }
    if (process.getuid?.() === 0) notes.push('Running as root: the sandbox drops all capabilities (--cap-drop ALL).');
    return { ok: true, bwrapPath, version, supportsDisableUserns, mountProc, notes };
  }
  return { ok: false, bwrapPath, ...explainProbeFailure(probe, readFile, options.env ?? process.env) };
}

function isNamespaceFailure(stderr: string): boolean {
  return /namespace|uid map|unshare|Operation not permitted|Permission denied|No space left on device/i.test(stderr);
}

function explainProbeFailure(
  probe: ProbeResult,
  readFile: (file: string) => string | undefined,
  env: NodeJS.ProcessEnv,
): { reason: string; fix: string } {
  const said = firstLine(probe.stderr) || `exit status ${probe.status}`;
  if (!isNamespaceFailure(probe.stderr)) {
    return {
      reason: `bubblewrap failed to start a test sandbox: ${said}`,
      fix: 'Run `bwrap --ro-bind / / --unshare-user --unshare-net -- true` to see the full error; ' +
        'reinstall bubblewrap if it is damaged. Until then sandboxed commands are refused.',
    };
  }
  const sysctl = (name: string): string | undefined => readFile(`/proc/sys/${name.replaceAll('.', '/')}`)?.trim();
  const why = `bubblewrap cannot create the user namespace it needs (${said}).`;
  if (sysctl('kernel.apparmor_restrict_unprivileged_userns') === '1') {
    return {
      reason: `${why} AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, the Ubuntu 23.10+ default).`,
      fix:
        'Allow bwrap through AppArmor: create /etc/apparmor.d/bwrap containing\n' +
        '  abi <abi/4.0>,\n  include <tunables/global>\n' +
        '  profile bwrap /usr/bin/bwrap flags=(unconfined) {\n    userns,\n  }\n' +
        'then run `sudo apparmor_parser -r /etc/apparmor.d/bwrap`. ' +
        'Or, less narrowly: `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` ' +
        '(persist it in /etc/sysctl.d/99-userns.conf).',
    };
  }
  if (sysctl('kernel.unprivileged_userns_clone') === '0') {
    return {
      reason: `${why} Unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0).`,
      fix: 'Run `sudo sysctl -w kernel.unprivileged_userns_clone=1` and persist it with ' +
        '`echo kernel.unprivileged_userns_clone=1 | sudo tee /etc/sysctl.d/99-userns.conf`.',
    };
  }
  if (sysctl('user.max_user_namespaces') === '0') {
    return {
      reason: `${why} User namespaces are disabled (user.max_user_namespaces = 0).`,
      fix: 'Run `sudo sysctl -w user.max_user_namespaces=15000` and persist it with ' +
        '`echo user.max_user_namespaces=15000 | sudo tee /etc/sysctl.d/99-userns.conf`.',
    };
  }
  const container = detectContainer(readFile, env);
  if (container !== undefined) {
    return {
      reason: `${why} rig is running inside a container (${container}) that does not allow nested namespaces.`,
      fix:
        'Start the container with user namespaces allowed, e.g. `docker run --security-opt seccomp=unconfined ' +
        '--security-opt apparmor=unconfined ...` (or `--privileged`). If the container itself is your sandbox, ' +
        'run rig with --sandbox danger-full-access instead.',
    };
  }
  return {
    reason: why,
    fix: 'Check that user namespaces are enabled (`unshare --user true` should succeed) and that no security ' +
      'module (AppArmor, SELinux) blocks bwrap. If bwrap is installed setuid, reinstall the distribution package.',
  };
}

function detectContainer(readFile: (file: string) => string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (readFile('/.dockerenv') !== undefined) return 'Docker';
  if (readFile('/run/.containerenv') !== undefined) return 'Podman';
  if (env.container) return env.container;
  const cgroup = readFile('/proc/1/cgroup') ?? '';
  const match = /(docker|kubepods|containerd|lxc|libpod)/.exec(cgroup);
  return match?.[1];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

function versionAtLeast(version: string, want: [number, number, number]): boolean {
  const parts = version.split('.').map((n) => Number.parseInt(n, 10));
  for (let i = 0; i < 3; i++) {
    const have = parts[i] ?? 0;
    if (Number.isNaN(have)) return false;
    if (have !== want[i]) return have > (want[i] as number);
  }
  return true;
}

let cachedDiagnosis: BwrapDiagnosis | undefined;

/** The diagnosis for this process, probing on first use only. */
export function bwrapDiagnosis(): BwrapDiagnosis {
  cachedDiagnosis ??= diagnoseBwrap();
  return cachedDiagnosis;
}

let pendingDiagnosis: Promise<BwrapDiagnosis> | undefined;

/** Starts this process's diagnosis in the background, if it has not been made yet. */
export function prewarmBwrapDiagnosis(): void {
  if (cachedDiagnosis !== undefined || pendingDiagnosis !== undefined) return;
  const pending = diagnoseBwrapAsync().then((made) => {
    // A reset meanwhile (tests, a long-lived server) makes this result stale.
    if (pendingDiagnosis === pending) cachedDiagnosis ??= made;
    return made;
  });
  pendingDiagnosis = pending;
}

/** The diagnosis, waiting for a background probe in flight instead of probing a second time. */
export async function bwrapDiagnosisReady(): Promise<BwrapDiagnosis> {
  if (cachedDiagnosis === undefined && pendingDiagnosis !== undefined) await pendingDiagnosis;
  return bwrapDiagnosis();
}

/** Forget the cached diagnosis (tests; after the user fixed their system in a long-lived server). */
export function resetBwrapDiagnosis(): void {
  cachedDiagnosis = undefined;
  pendingDiagnosis = undefined;
}
