// The sandbox every check, setup and reference solution runs in: bubblewrap with the host's files
// read-only, only the trial's own folders writable, a private /tmp, no network, no capabilities.
// It is built here rather than through the agent's sandbox policy because a check needs folders
// placed where the task expects them (a Harbor test finds the workspace at /app, its tests at
// /tests and writes /logs/verifier/reward.txt), which the host does not have: the root is assembled
// from the host's top-level folders, so new mount points can be made beside them.
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync, lstatSync, existsSync, realpathSync } from 'node:fs';
import { bwrapDiagnosis, privilegedSockets } from '../../core/safety-commands.js';

export interface Mount {
  /** Folder on the host. */
  source: string;
  /** Where it appears in the sandbox (default: the same path). */
  target?: string;
  writable: boolean;
}

export interface SandboxedRun {
  command: string;
  cwd: string;
  mounts: Mount[];
  env: Record<string, string>;
  timeoutMs: number;
}

export interface SandboxedResult {
  exitCode: number | null;
  timedOut: boolean;
  /** The last 8 KB of stdout and stderr, interleaved. */
  output: string;
  durationMs: number;
}

export class CheckSandboxError extends Error {}

const OUTPUT_TAIL = 8192;
const SPECIAL = new Set(['proc', 'dev', 'tmp']);

let rootArgsCache: string[] | undefined;

/** The host's top-level folders, read-only (symlinks such as /bin -> usr/bin recreated). */
function rootArgs(): string[] {
  if (rootArgsCache) return rootArgsCache;
  const args: string[] = [];
  for (const name of readdirSync('/').sort()) {
    if (SPECIAL.has(name)) continue;
    const path = `/${name}`;
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (stat.isDirectory()) args.push('--ro-bind', path, path);
  }
  for (const socket of privilegedSockets()) {
    if (!existsSync(socket)) continue;
    try {
      args.push('--ro-bind', '/dev/null', realpathSync(socket));
    } catch {
      // gone meanwhile
    }
  }
  rootArgsCache = args;
  return args;
}

export function bwrapArgv(run: Pick<SandboxedRun, 'command' | 'cwd' | 'mounts'>): string[] {
  const diagnosis = bwrapDiagnosis();
  if (!diagnosis.ok) {
    throw new CheckSandboxError(`cannot sandbox the check: ${diagnosis.reason}. ${diagnosis.fix}`);
  }
  const args = [diagnosis.bwrapPath, '--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try', '--cap-drop', 'ALL'];
  if (diagnosis.supportsDisableUserns) args.push('--disable-userns');
  args.push(...rootArgs(), '--dev', '/dev', '--tmpfs', '/tmp');
  if (diagnosis.mountProc) args.push('--proc', '/proc');
  for (const mount of run.mounts) args.push(mount.writable ? '--bind' : '--ro-bind', mount.source, mount.target ?? mount.source);
  args.push('--chdir', run.cwd, '--', '/bin/sh', '-c', run.command);
  return args;
}

/** Runs `command` with `sh -c` in the sandbox; resolves when it exits or its timeout kills it. */
export function runSandboxed(run: SandboxedRun): Promise<SandboxedResult> {
  const argv = bwrapArgv(run);
  const startedAt = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env: run.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > OUTPUT_TAIL * 2) output = output.slice(-OUTPUT_TAIL);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, run.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CheckSandboxError(`cannot start bwrap for the check: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ exitCode: timedOut ? null : code, timedOut, output: output.slice(-OUTPUT_TAIL), durationMs: performance.now() - startedAt });
    });
  });
}

/** The environment a check sees: a minimal one (no API keys), plus the task's own variables. */
export function checkEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: process.env['LANG'] ?? 'C.UTF-8',
    TMPDIR: '/tmp',
    PYTHONDONTWRITEBYTECODE: '1',
    NO_COLOR: '1',
    ...extra,
  };
}
