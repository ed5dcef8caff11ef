// Temp homes, temp git repositories and a runner for the real `rig` binary (dist/ must be built;
// `npm test` builds it first).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RIG_BIN = join(REPO_ROOT, 'bin', 'rig.js');

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `rig-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A git repository with the given files committed. */
export function tempGitRepo(files: Record<string, string> = {}): string {
  const dir = tempDir('repo');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
  return dir;
}

export interface MockHomeOptions {
  url: string;
  wire?: 'responses' | 'chat' | 'messages';
  model?: string;
  extra?: string;
}

/** A RIG_HOME whose config points the `mock` provider at the loopback mock. */
export function tempRigHome(options: MockHomeOptions): string {
  const home = tempDir('home');
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model_provider = "mock"',
      `model = "${options.model ?? 'mock-model'}"`,
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${options.url}"`,
      `wire_api = "${options.wire ?? 'responses'}"`,
      'env_key = "MOCK_API_KEY"',
      'stream_idle_timeout_ms = 5000',
      options.extra ?? '',
    ].join('\n'),
  );
  return home;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  home: string;
  env?: Record<string, string>;
  /** Written to stdin, then closed; stdin is /dev/null otherwise. */
  input?: string;
}

/** Runs the built rig CLI as a child process. */
export function runRig(args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [RIG_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.home, RIG_HOME: options.home, MOCK_API_KEY: 'sk-mock-secret-0123456789', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    if (options.input !== undefined) {
      // rig may refuse a large input before reading it all; the rest then meets a closed pipe.
      child.stdin!.on('error', () => {});
      child.stdin!.end(options.input);
    }
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Human `rig exec` stderr without the header block it starts with (`rig VERSION`, a rule, the run's
 * facts, a rule) and the `tokens used:` line a turn ends with, for tests about the rest.
 */
export function progress(stderr: string): string {
  return stderr.replace(/^rig \S+\n-{8}\n(?:[a-z ]+: .*\n)*-{8}\n/m, '').replace(/^tokens used: .*\n/gm, '');
}
