import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLikelySandboxDenial, wrapCommand } from '../../../src/exec/sandbox/index.js';
import fs from 'node:fs';
import { networkOffSeccompProgram, seccompProgram } from '../../../src/exec/sandbox/seccomp.js';
import { resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import type { BwrapDiagnosis } from '../../../src/exec/sandbox/detect.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

const working = (): BwrapDiagnosis => ({
  ok: true,
  bwrapPath: '/usr/bin/bwrap',
  version: '0.8.0',
  supportsDisableUserns: true,
  mountProc: true,
  notes: [],
});

describe('wrapCommand on linux', () => {
  it('network off: an sh trampoline opens the seccomp program on fd 3 for bwrap', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const kinds: string[] = [];
    let closed = 0;
    const seccomp = { path: '/proc/1/fd/9', close: () => closed++ };
    const w = wrapCommand(policy, ['echo', 'hi'], s.ws, 'linux', 'bwrap', {
      diagnosis: working,
      seccomp: (kind) => (kinds.push(kind), seccomp),
    });
    expect(kinds).toEqual(['network-off']);
    expect(w.argv.slice(0, 6)).toEqual(['/bin/sh', '-c', 'exec 3<"$0" && exec "$@"', seccomp.path, '/usr/bin/bwrap', '--new-session']);
    expect(w.argv).toContain('--seccomp');
    expect(w.argv.slice(-3)).toEqual(['--', 'echo', 'hi']);
    expect(w.env).toEqual({ RIG_SANDBOX: 'bwrap', RIG_SANDBOX_NETWORK_DISABLED: '1', CODEX_SANDBOX_NETWORK_DISABLED: '1' });
    expect(w).toMatchObject({ sandboxed: true, backend: 'bwrap' });
    w.cleanup();
    expect(closed).toBe(1);
  });

  it('the real filter is an unnamed file, this process\'s descriptor, shared by commands and replaced when rewritten', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const w = wrapCommand(policy, ['true'], s.ws, 'linux', 'bwrap', { diagnosis: working });
    const descriptor = w.argv[3]!;
    expect(descriptor).toMatch(new RegExp(`^/proc/${process.pid}/fd/\\d+$`));
    // No name in any directory: the link target reads "/... (deleted)" or names no file.
    const target = fs.readlinkSync(descriptor);
    expect(fs.existsSync(target.replace(/ \(deleted\)$/, ''))).toBe(false);
    expect(fs.readFileSync(descriptor)).toEqual(seccompProgram('network-off'));
    // A command's cleanup leaves it open for the next command, which gets the same file.
    w.cleanup();
    expect(fs.readFileSync(descriptor)).toEqual(seccompProgram('network-off'));
    expect(wrapCommand(policy, ['true'], s.ws, 'linux', 'bwrap', { diagnosis: working }).argv[3]).toBe(descriptor);
    // Rewritten from outside (root may, despite its mode): the next command gets a fresh, right one.
    if (process.getuid?.() !== 0) {
      expect(() => fs.writeFileSync(descriptor, Buffer.alloc(16))).toThrow(/EACCES/);
      return;
    }
    fs.writeFileSync(descriptor, Buffer.alloc(16));
    const next = wrapCommand(policy, ['true'], s.ws, 'linux', 'bwrap', { diagnosis: working }).argv[3]!;
    expect(fs.readFileSync(next)).toEqual(seccompProgram('network-off'));
  });

  it('network on: the host-sockets filter; allow_unix_sockets drops it; a PTY run keeps its session', () => {
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true });
    const kinds: string[] = [];
    const seccomp = (kind: string) => (kinds.push(kind), { path: '/proc/1/fd/9', close: () => {} });
    wrapCommand(policy, ['bash'], s.ws, 'linux', 'bwrap', { diagnosis: working, seccomp });
    expect(kinds).toEqual(['host-sockets-off']);
    const allowed = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true, allowUnixSockets: true });
    const w = wrapCommand(allowed, ['bash'], s.ws, 'linux', 'bwrap', { diagnosis: working, tty: true, seccomp });
    expect(kinds).toEqual(['host-sockets-off']);
    expect(w.argv[0]).toBe('/usr/bin/bwrap');
    expect(w.argv).not.toContain('--seccomp');
    expect(w.argv).not.toContain('--new-session');
    expect(w.env).toEqual({ RIG_SANDBOX: 'bwrap' });
  });

  it('the seccomp programs are well-formed classic BPF for both CPUs', () => {
    for (const [cpu, kind] of [['x64', 'network-off'], ['arm64', 'network-off'], ['x64', 'host-sockets-off'], ['arm64', 'host-sockets-off']] as const) {
      const program = seccompProgram(kind, cpu);
      expect(program).toBeDefined();
      expect((program as Buffer).length % 8).toBe(0);
      // Ends with "return ERRNO(EPERM)".
      expect((program as Buffer).readUInt16LE(program!.length - 8)).toBe(0x06);
      expect((program as Buffer).readUInt32LE(program!.length - 4)).toBe(0x00050001);
    }
    expect(networkOffSeccompProgram('ia32')).toBeUndefined();
  });
});

describe('isLikelySandboxDenial', () => {
  it.each([
    [1, 'sh: 1: cannot create /etc/x: Read-only file system', true],
    [1, 'touch: cannot touch x: Permission denied', true],
    [3, 'connect EPERM 127.0.0.1:80 - operation not permitted', true],
    [6, 'curl: (6) Could not resolve host: example.com', true],
    [1, 'ping: connect: Network is unreachable', true],
    [159, '', true],
    [0, 'Permission denied', false],
    [1, 'error: tests failed', false],
    [2, 'usage: foo', false],
    [126, '', false],
    [127, 'sh: foo: not found', false],
  ])('exit %s with %j -> %s', (code, output, expected) => {
    expect(isLikelySandboxDenial(code, output)).toBe(expected);
  });
});
