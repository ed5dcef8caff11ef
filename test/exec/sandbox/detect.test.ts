import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bwrapDiagnosis, bwrapDiagnosisReady, diagnoseBwrap, diagnoseBwrapAsync, findBwrap, prewarmBwrapDiagnosis, resetBwrapDiagnosis, type BwrapDiagnosis } from '../../../src/exec/sandbox/detect.js';
import { sandboxDoctorReport } from '../../../src/exec/sandbox/doctor.js';
import { SandboxUnavailableError, prewarmSandbox, wrapCommand } from '../../../src/exec/sandbox/index.js';
import { resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { makeScratch, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

const USERNS_ERROR =
  'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.';

/** A stand-in bwrap: answers --version, fails every sandbox with `stderr`. */
function fakeBwrap(stderr: string, version = 'bubblewrap 0.9.0'): string {
  const file = path.join(s.base, 'bwrap');
  fs.writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo '${version}'; exit 0; fi\necho '${stderr}' >&2\nexit 1\n`,
    { mode: 0o755 },
  );
  return file;
}

const sysctls =
  (values: Record<string, string>) =>
  (file: string): string | undefined =>
    values[file];

describe('diagnoseBwrap', () => {
  it('works with the real bwrap on this machine', () => {
    const d = diagnoseBwrap();
    expect(d).toMatchObject({ ok: true, bwrapPath: '/usr/bin/bwrap', mountProc: true });
    if (d.ok) expect(d.version).toMatch(/^\d+\.\d+/);
  });

  it('run in the background, says what the synchronous probe says', async () => {
    expect(await diagnoseBwrapAsync()).toEqual(diagnoseBwrap());
    const missing = path.join(s.base, 'no-such-bwrap');
    expect(await diagnoseBwrapAsync({ bwrapPath: missing })).toEqual(diagnoseBwrap({ bwrapPath: missing }));
    const broken = { bwrapPath: fakeBwrap(USERNS_ERROR), readFile: sysctls({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }) };
    const sync = diagnoseBwrap(broken);
    expect(sync.ok).toBe(false);
    expect(await diagnoseBwrapAsync(broken)).toEqual(sync);
  });

  it('prewarmed, the first command takes the background result instead of probing again', async () => {
    resetBwrapDiagnosis();
    try {
      prewarmSandbox('workspace-write', 'linux');
      prewarmBwrapDiagnosis();
      const ready = await bwrapDiagnosisReady();
      expect(ready).toMatchObject({ ok: true, bwrapPath: '/usr/bin/bwrap' });
      expect(bwrapDiagnosis()).toBe(ready);
      // A reset while a probe is in flight: the stale result is not kept.
      resetBwrapDiagnosis();
      prewarmBwrapDiagnosis();
      resetBwrapDiagnosis();
      const fresh = await bwrapDiagnosisReady();
      expect(fresh).toEqual(ready);
      expect(fresh).not.toBe(ready);
    } finally {
      resetBwrapDiagnosis();
    }
  });

  it('a missing binary: says so and how to install', () => {
    const d = diagnoseBwrap({ bwrapPath: path.join(s.base, 'no-such-bwrap') });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.reason).toBe(`bubblewrap cannot be run: ${path.join(s.base, 'no-such-bwrap')} does not exist.`);
    expect(d.fix).toContain('sudo apt-get install bubblewrap');
  });

  it('nothing on PATH', () => {
    const d = diagnoseBwrap({ env: { PATH: s.base } });
    expect(d).toMatchObject({ ok: false, reason: 'bubblewrap (bwrap) is not installed or not on PATH.' });
  });

  it('does not take bwrap from inside the workspace', () => {
    fakeBwrap('x');
    expect(findBwrap({ PATH: s.base }, s.base)).toBeUndefined();
    expect(findBwrap({ PATH: s.base })).toBe(path.join(s.base, 'bwrap'));
  });

  it('user namespaces blocked by AppArmor', () => {
    const d = diagnoseBwrap({
      bwrapPath: fakeBwrap(USERNS_ERROR),
      readFile: sysctls({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1\n' }),
    });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.reason).toBe(
      `bubblewrap cannot create the user namespace it needs (${USERNS_ERROR}). AppArmor restricts unprivileged ` +
        'user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, the Ubuntu 23.10+ default).',
    );
    expect(d.fix).toContain('profile bwrap /usr/bin/bwrap flags=(unconfined)');
    expect(d.fix).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
  });

  it('user namespaces disabled by sysctl', () => {
    const d = diagnoseBwrap({
      bwrapPath: fakeBwrap('bwrap: setting up uid map: Permission denied'),
      readFile: sysctls({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }),
    });
    expect(d).toMatchObject({ ok: false });
    if (!d.ok) expect(d.fix).toContain('sudo sysctl -w kernel.unprivileged_userns_clone=1');
    const d2 = diagnoseBwrap({
      bwrapPath: fakeBwrap('bwrap: Creating new namespace failed: No space left on device'),
      readFile: sysctls({ '/proc/sys/user/max_user_namespaces': '0' }),
    });
    if (!d2.ok) expect(d2.fix).toContain('sudo sysctl -w user.max_user_namespaces=15000');
    expect(d2.ok).toBe(false);
  });

  it('inside a container', () => {
    const d = diagnoseBwrap({
      bwrapPath: fakeBwrap('bwrap: Creating new namespace failed: Operation not permitted'),
      readFile: sysctls({ '/.dockerenv': '' }),
    });
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.reason).toMatch(/running inside a container \(Docker\) that does not allow nested namespaces/);
    expect(d.fix).toContain('--security-opt seccomp=unconfined');
    expect(d.fix).toContain('--sandbox danger-full-access');
  });

  it('an unrelated failure is reported verbatim', () => {
    const d = diagnoseBwrap({ bwrapPath: fakeBwrap('bwrap: something odd'), readFile: sysctls({}) });
    expect(d).toMatchObject({ ok: false, reason: 'bubblewrap failed to start a test sandbox: bwrap: something odd' });
  });

  it('falls back to the host /proc when only mounting proc is refused', () => {
    const calls: string[][] = [];
    const d = diagnoseBwrap({
      bwrapPath: '/fake/bwrap',
      runProbe: (_bin, args) => {
        calls.push(args);
        if (args[0] === '--version') return { status: 0, stdout: 'bubblewrap 0.7.0\n', stderr: '' };
        if (args.includes('--proc')) {
          return { status: 1, stdout: '', stderr: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" };
        }
        return { status: 0, stdout: '', stderr: '' };
      },
    });
    expect(d).toMatchObject({ ok: true, version: '0.7.0', mountProc: false, supportsDisableUserns: false });
    expect(calls).toHaveLength(3);
    expect(calls[1]).not.toContain('--disable-userns');
  });
});

describe('refusing to run without a sandbox', () => {
  const broken = (): BwrapDiagnosis => ({ ok: false, reason: 'bwrap is missing.', fix: 'Install it.' });

  it('wrapCommand throws the diagnosis instead of returning the bare command', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws });
    expect(() => wrapCommand(policy, ['rm', '-rf', '/'], s.ws, 'linux', 'bwrap', { diagnosis: broken })).toThrow(
      new SandboxUnavailableError(
        'The sandbox (bubblewrap) is unavailable, so the command was not run: bwrap is missing.\nFix: Install it.',
        'bwrap',
        'Install it.',
      ),
    );
    expect(() => wrapCommand(policy, ['true'], s.ws, 'win32')).toThrow(/No sandbox is available on win32/);
  });

  it('danger-full-access runs the command as is, whatever the diagnosis', () => {
    const policy = resolveSandboxPolicy({ mode: 'danger-full-access', cwd: s.ws });
    expect(wrapCommand(policy, ['true'], s.ws, 'linux', 'bwrap', { diagnosis: broken })).toMatchObject({
      argv: ['true'],
      sandboxed: false,
      backend: 'none',
    });
  });

  it('rig doctor prints the reason and the fix', () => {
    const report = sandboxDoctorReport({
      platform: 'linux',
      diagnosis: () => ({ ok: false, reason: 'User namespaces are off.', fix: 'Line one.\nLine two.' }),
    });
    expect(report).toBe(
      'sandbox: UNAVAILABLE — sandboxed commands will be refused\n' +
        '  why: User namespaces are off.\n' +
        '  fix: Line one.\n' +
        '       Line two.',
    );
  });

  it('rig doctor on a working machine lists the policy', () => {
    const home = `${s.base}/home`;
    fs.mkdirSync(home);
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeSlashTmp: true, excludeTmpdirEnvVar: true, rigHome: home });
    const report = sandboxDoctorReport({
      platform: 'linux',
      policy,
      diagnosis: () => ({ ok: true, bwrapPath: '/usr/bin/bwrap', version: '0.8.0', supportsDisableUserns: true, mountProc: true, notes: ['n'] }),
    });
    expect(report).toBe(
      'sandbox: ok — bubblewrap 0.8.0 at /usr/bin/bwrap\n' +
        '  note: n\n' +
        '  mode: workspace-write; network: off\n' +
        `  writable: ${s.ws} (read-only inside: ${s.ws}/.rig, ${s.ws}/.codex)\n` +
        `  read-only for commands: RIG_HOME ${home}\n` +
        '  host UNIX sockets: none reachable (own network namespace; seccomp refuses connect())',
    );
  });
});
