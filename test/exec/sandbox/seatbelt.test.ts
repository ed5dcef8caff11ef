// Seatbelt cannot run on Linux: these tests pin the generated profile for every policy shape.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTECTED_NAMES, resolveSandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import {
  SANDBOX_EXEC,
  buildSeatbeltArgs,
  buildSeatbeltPolicy,
  buildSeatbeltProfile,
} from '../../../src/exec/sandbox/seatbelt.js';
import { wrapCommand } from '../../../src/exec/sandbox/index.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';

/**
 * Protected names the real /tmp holds. rig keeps its code cache in /tmp/.rig and makes it at its
 * first start, which may come while this file runs: made here first, as rig makes it, so the list
 * cannot change under the test.
 */
function tmpProtected(): string[] {
  try {
    fs.mkdirSync('/tmp/.rig', { mode: 0o1777 });
    fs.chmodSync('/tmp/.rig', 0o1777);
  } catch {
    // There already (rig made it).
  }
  return PROTECTED_NAMES.map((name) => path.join('/tmp', name)).filter((entry) => fs.existsSync(entry)).sort();
}
const TMP_PROTECTED = tmpProtected();

let s: Scratch;
beforeEach(() => {
  s = makeScratch();
});
afterEach(() => s.remove());

/** The policy-dependent tail of a profile (after the shared base). */
function tail(profile: string): string {
  return profile.slice(profile.indexOf('(allow file-read*)\n') + '(allow file-read*)\n'.length);
}

describe('Seatbelt profile', () => {
  it('starts from deny-default with process, device, sysctl and lookup basics', () => {
    const profile = buildSeatbeltProfile(resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws }));
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    for (const rule of [
      '(allow process-exec)',
      '(allow process-fork)',
      '(allow signal (target same-sandbox))',
      '(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))',
      '(sysctl-name "hw.ncpu")',
      '(global-name "com.apple.system.opendirectoryd.libinfo")',
      '(allow file-read*)',
    ]) {
      expect(profile).toContain(rule);
    }
    expect(balanced(profile)).toBe(true);
  });

  it('read-only: no writes, no network', () => {
    const { profile, params } = buildSeatbeltPolicy(resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws }));
    expect(tail(profile)).toBe('');
    expect(params).toEqual([]);
    expect(profile).not.toMatch(/network-outbound|\(allow file-write\*/);
  });

  it('read-only with network', () => {
    const profile = buildSeatbeltProfile(resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true }));
    expect(tail(profile)).toContain('(allow network-outbound)\n(allow network-inbound)\n(allow system-socket)\n');
  });

  it('workspace-write without network: roots as params, protected subpaths carved out', () => {
    fs.mkdirSync(path.join(s.ws, '.git'));
    const { profile, params } = buildSeatbeltPolicy(
      resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp }),
    );
    expect(tail(profile)).toBe(
      '\n; writable roots, minus protected subpaths\n' +
        '(allow file-write*\n' +
        '  (require-all (subpath (param "WRITABLE_ROOT_0"))\n' +
        '    (require-not (subpath (param "PROTECTED_0")))\n' +
        '    (require-not (subpath (param "PROTECTED_1")))\n' +
        '    (require-not (subpath (param "PROTECTED_2")))))\n',
    );
    expect(params).toEqual([
      ['WRITABLE_ROOT_0', s.ws],
      ['PROTECTED_0', path.join(s.ws, '.git')],
      ['PROTECTED_1', path.join(s.ws, '.rig')],
      ['PROTECTED_2', path.join(s.ws, '.codex')],
    ]);
    expect(balanced(profile)).toBe(true);
  });

  it('workspace-write with network and extra roots; a nested root inherits the carve-outs', () => {
    const extra = path.join(s.base, 'extra');
    fs.mkdirSync(extra);
    const { profile, params } = buildSeatbeltPolicy(
      resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, addDirs: [extra], networkAccess: true, excludeTmpdirEnvVar: true }),
    );
    // /tmp's own protected names come first (rig's code cache lives in /tmp/.rig once rig has run).
    const protectedPaths = [...TMP_PROTECTED, path.join(s.ws, '.rig'), path.join(s.ws, '.codex')];
    const ws = TMP_PROTECTED.length;
    expect(params).toEqual([
      ['WRITABLE_ROOT_0', '/tmp'],
      ...protectedPaths.map((entry, i) => [`PROTECTED_${i}`, entry]),
      ['WRITABLE_ROOT_1', extra],
      ['WRITABLE_ROOT_2', s.ws],
    ]);
    const notUnder = (indices: number[]): string => indices.map((i) => `\n    (require-not (subpath (param "PROTECTED_${i}")))`).join('');
    expect(tail(profile)).toBe(
      '\n; writable roots, minus protected subpaths\n' +
        '(allow file-write*\n' +
        `  (require-all (subpath (param "WRITABLE_ROOT_0"))${notUnder(protectedPaths.map((_, i) => i))})\n` +
        '  (subpath (param "WRITABLE_ROOT_1"))\n' +
        `  (require-all (subpath (param "WRITABLE_ROOT_2"))${notUnder([ws, ws + 1])}))\n` +
        '\n; network access is enabled for this sandbox\n' +
        '(allow network-outbound)\n(allow network-inbound)\n(allow system-socket)\n' +
        '(allow mach-lookup\n' +
        '  (global-name "com.apple.dnssd.service")\n' +
        '  (global-name "com.apple.SystemConfiguration.configd")\n' +
        '  (global-name "com.apple.SystemConfiguration.DNSConfiguration")\n' +
        '  (global-name "com.apple.trustd.agent")\n' +
        '  (global-name "com.apple.networkd"))\n',
    );
    expect(balanced(profile)).toBe(true);
  });

  it('protects the git dir named by a .git file and existing .agents', () => {
    const gitDir = path.join(s.ws, 'modules', 'sub');
    fs.mkdirSync(gitDir, { recursive: true });
    fs.writeFileSync(path.join(s.ws, '.git'), 'gitdir: modules/sub\n');
    fs.mkdirSync(path.join(s.ws, '.agents'));
    const { params } = buildSeatbeltPolicy(resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp }));
    expect(params.map(([, v]) => v)).toEqual([
      s.ws,
      path.join(s.ws, '.agents'),
      path.join(s.ws, '.git'),
      gitDir,
      path.join(s.ws, '.rig'),
      path.join(s.ws, '.codex'),
    ]);
  });

  it('a .git created after the policy was resolved is carved out too', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    fs.mkdirSync(path.join(s.ws, '.git'));
    expect(buildSeatbeltPolicy(policy).params).toContainEqual(['PROTECTED_2', path.join(s.ws, '.git')]);
  });

  it('argv: the absolute sandbox-exec, the profile, -D params, then the command', () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
    const argv = buildSeatbeltArgs(policy, ['ls', '-l'], s.ws);
    expect(argv[0]).toBe(SANDBOX_EXEC);
    expect(argv[0]).toBe('/usr/bin/sandbox-exec');
    expect(argv[1]).toBe('-p');
    expect(argv[2]).toBe(buildSeatbeltProfile(policy));
    expect(argv.slice(3)).toEqual([
      `-DWRITABLE_ROOT_0=${s.ws}`,
      `-DPROTECTED_0=${path.join(s.ws, '.rig')}`,
      `-DPROTECTED_1=${path.join(s.ws, '.codex')}`,
      '--',
      'ls',
      '-l',
    ]);
  });

  it('wrapCommand selects Seatbelt for darwin and marks the environment', () => {
    const policy = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
    const wrapped = wrapCommand(policy, ['true'], s.ws, 'darwin');
    expect(wrapped.backend).toBe('seatbelt');
    expect(wrapped.sandboxed).toBe(true);
    expect(wrapped.argv[0]).toBe('/usr/bin/sandbox-exec');
    expect(wrapped.env).toEqual({
      RIG_SANDBOX: 'seatbelt',
      CODEX_SANDBOX: 'seatbelt',
      RIG_SANDBOX_NETWORK_DISABLED: '1',
      CODEX_SANDBOX_NETWORK_DISABLED: '1',
    });
  });
});

function balanced(profile: string): boolean {
  let depth = 0;
  for (const line of profile.split('\n')) {
    const code = line.replace(/;.*$/, '').replace(/"[^"]*"/g, '').replace(/#"[^"]*"/g, '');
    for (const ch of code) {
      if (ch === '(') depth++;
      if (ch === ')' && --depth < 0) return false;
    }
  }
  return depth === 0;
}
