// Runs `sh -c <script>` through wrapCommand with the real bubblewrap and collects the result. Like
// rig's piped commands it asks for descriptors (bwrap gets its seccomp filter as fd 3, no sh
// trampoline) unless the options say `descriptors: false` (the PTY way).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { wrapCommand, type WrapOptions } from '../../../src/exec/sandbox/index.js';
import type { SandboxPolicy } from '../../../src/exec/sandbox/policy.js';

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
  const wrapped = wrapCommand(policy, ['sh', '-c', script], cwd, 'linux', 'bwrap', { descriptors: true, ...options });
  if (!wrapped.sandboxed) throw new Error('expected a sandboxed command');
  return new Promise((resolve, reject) => {
    const child = spawn(wrapped.argv[0] as string, wrapped.argv.slice(1), {
      cwd,
      env: { ...process.env, ...wrapped.env },
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
