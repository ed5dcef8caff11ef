// The sandbox section of `rig doctor`: which backend, whether it works here, and if not, why and
// what to do about it.
import fs from 'node:fs';
import { bwrapDiagnosis, type BwrapDiagnosis } from './detect.js';
import type { SandboxPolicy } from './policy.js';
import { SANDBOX_EXEC } from './seatbelt.js';
import { networkOffSeccompProgram } from './seccomp.js';
import { unixSocketReport } from './socket-report.js';

export interface DoctorOptions {
  platform?: NodeJS.Platform;
  diagnosis?: () => BwrapDiagnosis;
  /** The policy in effect, to list writable roots and warnings. */
  policy?: SandboxPolicy;
}

export function sandboxDoctorReport(options: DoctorOptions = {}): string {
  const platform = options.platform ?? process.platform;
  const lines: string[] = [];
  if (platform === 'linux') {
    const d = (options.diagnosis ?? bwrapDiagnosis)();
    if (d.ok) {
      lines.push(`sandbox: ok — bubblewrap ${d.version} at ${d.bwrapPath}`);
      for (const note of d.notes) lines.push(`  note: ${note}`);
      if (networkOffSeccompProgram() === undefined) {
        lines.push(
          `  note: no seccomp filter for ${process.arch}: with the network off, UNIX sockets outside the ` +
            'sandbox stay reachable (privileged daemon sockets are still hidden).',
        );
      }
    } else {
      lines.push('sandbox: UNAVAILABLE — sandboxed commands will be refused');
      lines.push(`  why: ${d.reason}`);
      lines.push(...d.fix.split('\n').map((line, i) => (i === 0 ? `  fix: ${line}` : `       ${line}`)));
    }
  } else if (platform === 'darwin') {
    const present = fs.existsSync(SANDBOX_EXEC);
    lines.push(
      present
        ? `sandbox: ok — Seatbelt via ${SANDBOX_EXEC}`
        : `sandbox: UNAVAILABLE — ${SANDBOX_EXEC} is missing; sandboxed commands will be refused`,
    );
  } else {
    lines.push(`sandbox: UNAVAILABLE — no sandbox backend for ${platform}; only danger-full-access can run commands`);
  }
  const policy = options.policy;
  if (policy !== undefined) {
    lines.push(`  mode: ${policy.mode}; network: ${policy.networkAccess ? 'on' : 'off'}`);
    for (const root of policy.writableRoots) {
      const ro = [...root.readOnlySubpaths, ...root.missingProtected];
      lines.push(`  writable: ${root.root}${ro.length > 0 ? ` (read-only inside: ${ro.join(', ')})` : ''}`);
    }
    if (policy.rigHome !== undefined && policy.mode !== 'danger-full-access') lines.push(`  read-only for commands: RIG_HOME ${policy.rigHome}`);
    lines.push(...unixSocketReport(policy, undefined, platform));
    for (const note of policy.scanNotes) lines.push(`  ${note}`);
    for (const warning of policy.warnings) lines.push(`  warning: ${warning}`);
  }
  return lines.join('\n');
}
