// Runs `sh -c <script>` through wrapCommand with the real bubblewrap and collects the result. Like
// rig's piped commands it asks for descriptors (bwrap gets its seccomp filter as fd 3, no sh
// trampoline) unless the options say `descriptors: false` (the PTY way). With
// RIG_TEST_SANDBOX_RUNNER=warm (escape-warm.test.ts) the command runs in a copy of its sandbox
// started ahead of it, as rig's later commands do (src/exec/warm-sandbox.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { wrapCommand, type WrapOptions } from '../../../src/exec/sandbox/index.js';
import type { SandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { startCopy, takeWarmSandbox, warmSandboxStats } from '../../../src/exec/warm-sandbox.js';

const SH = '/bin/sh';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runSandboxed(
  policy: SandboxPolicy,
  script: string,
  options: WrapOptions = {},
  cwd = policy.cwd,
): Promise<RunResult> {
  const argv = [SH, '-c', script];
  const wrapped = wrapCommand(policy, argv, cwd, 'linux', 'bwrap', { descriptors: true, ...options });
  if (!wrapped.sandboxed) throw new Error('expected a sandboxed command');
  const env = { ...process.env, ...wrapped.env };
  const warm = process.env['RIG_TEST_SANDBOX_RUNNER'] === 'warm' && options.descriptors !== false ? inCopy(wrapped.prepared, argv, cwd, env) : undefined;
  return new Promise((resolve, reject) => {
    const child =
      warm ??
      spawn(wrapped.argv[0] as string, wrapped.argv.slice(1), {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe', ...(wrapped.descriptors ?? [])],
      });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      wrapped.cleanup();
      resolve({ code, stdout, stderr });
    });
  });
}

/** The command started in a copy of its sandbox; throws if it could not be, so no attempt runs cold unnoticed. */
function inCopy(prepared: Parameters<typeof startCopy>[0] | undefined, argv: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  if (!prepared) throw new Error('the sandbox offers no copy to start ahead');
  startCopy(prepared);
  // /bin/sh is not bash: SHLVL must be given for the copy to reproduce it.
  const child = takeWarmSandbox(prepared, { argv, cwd, env: { ...env, SHLVL: env['SHLVL'] ?? '1' } });
  if (!child) throw new Error(`the command did not run in a copy: ${warmSandboxStats().lastMiss}`);
  return child;
}

/** Names, kinds, modes, sizes, times and contents of everything under `dir`: "did anything change?" */
export function fingerprint(dir: string): string {
  const lines: string[] = [];
  const visit = (p: string): void => {
    const st = fs.lstatSync(p);
    const rel = path.relative(dir, p) || '.';
    let extra = '';
    if (st.isFile()) extra = fs.readFileSync(p, 'base64');
    else if (st.isSymbolicLink()) extra = fs.readlinkSync(p);
    lines.push(`${rel} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs} ${st.nlink} ${extra}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p).sort()) visit(path.join(p, name));
  };
  visit(dir);
  return lines.join('\n');
}
