// Escape attempts against the real bubblewrap sandbox. Each attempt runs `sh -c <attempt>` through
// wrapCommand in a temp workspace and passes only if nothing outside the writable roots changed
// (and, where the attempt is a plain write, the command also failed). The positives show the
// sandbox still lets ordinary work through.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSandboxPolicy, type SandboxPolicy } from '../../../src/exec/sandbox/policy.js';
import { makeScratch, noTmp, type Scratch } from './helpers.js';
import type { WrapOptions } from '../../../src/exec/sandbox/index.js';
import { fingerprint, runSandboxed, type RunResult } from './run-sandboxed.js';

let s: Scratch;
let ww: SandboxPolicy; // workspace-write, no /tmp, network off
let wwNet: SandboxPolicy; // workspace-write, no /tmp, network on
let wwTmp: SandboxPolicy; // workspace-write with /tmp, network off
let ro: SandboxPolicy;
let fresh: SandboxPolicy; // workspace-write on a directory without .git at resolve time
let victim: ChildProcess;
let tcp: net.Server;
let tcpPort = 0;
let tcpConnections = 0;
let tcpAtStart = 0;
let unixServer: net.Server;
let unixConnections = 0;
let udp: dgram.Socket;
let udpPort = 0;
const udpMessages: string[] = [];
let tag = '';
const NODE = process.execPath;

let attempts = 0;
let blocked = 0;

beforeAll(async () => {
  s = makeScratch('rig-escape-');
  tag = path.basename(s.base);
  execFileSync('git', ['init', '-q', s.ws]);
  fs.writeFileSync(path.join(s.ws, 'inside.txt'), 'inside\n');
  fs.writeFileSync(path.join(s.outside, 'victim.txt'), 'original\n');
  fs.symlinkSync(s.outside, path.join(s.ws, 'pre-planted-link'));
  ww = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
  wwNet = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, networkAccess: true, ...noTmp });
  wwTmp = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeTmpdirEnvVar: true });
  ro = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
  fs.mkdirSync(path.join(s.ws, 'fresh'));
  fresh = resolveSandboxPolicy({ mode: 'workspace-write', cwd: path.join(s.ws, 'fresh'), ...noTmp });

  victim = spawn('sleep', ['300'], { stdio: 'ignore' });
  tcp = net.createServer((socket) => {
    tcpConnections++;
    socket.on('error', () => {}); // our own probe connections reset
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as net.AddressInfo).port;
  unixServer = net.createServer((socket) => {
    unixConnections++;
    socket.on('error', () => {});
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => unixServer.listen(path.join(s.outside, 'agent.sock'), resolve));
  udp = dgram.createSocket('udp4');
  udp.on('message', (m) => udpMessages.push(m.toString()));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udpPort = udp.address().port;
});

afterAll(async () => {
  victim?.kill('SIGKILL');
  await new Promise((resolve) => tcp?.close(resolve));
  await new Promise((resolve) => unixServer?.close(resolve));
  udp?.close();
  s?.remove();
  console.log(`sandbox escape suite: ${attempts} attempts, ${blocked} blocked`);
  expect(blocked).toBe(attempts);
});

/** Connections the attempt made, counted after one of our own has gone through (orders the queue). */
async function settledTcp(): Promise<number> {
  const before = tcpConnections;
  await new Promise<void>((resolve, reject) => {
    const c = net.connect(tcpPort, '127.0.0.1', () => {
      c.destroy();
      resolve();
    });
    c.on('error', reject);
  });
  while (tcpConnections === before) await new Promise((r) => setImmediate(r));
  return tcpConnections - 1 - tcpAtStart;
}

async function settledUdp(): Promise<string[]> {
  const sentinel = `sentinel-${udpMessages.length}-${Math.random()}`;
  const client = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => client.send(sentinel, udpPort, '127.0.0.1', () => resolve()));
  client.close();
  const deadline = Date.now() + 5000;
  while (!udpMessages.includes(sentinel) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  return udpMessages.filter((m) => !m.startsWith('sentinel-'));
}

function victimAlive(): boolean {
  try {
    process.kill(victim.pid as number, 0);
    return victim.exitCode === null && victim.signalCode === null;
  } catch {
    return false;
  }
}

interface Attempt {
  name: string;
  policy: () => SandboxPolicy;
  script: () => string;
  /** The command itself must fail (default true). False where the effect stays inside (/dev/shm). */
  mustFail?: boolean;
  /** Extra wrapCommand options. */
  wrap?: () => WrapOptions;
  /** Runs before the attempt (and before the "nothing changed" snapshot). */
  before?: () => Promise<void>;
  /** Extra proof that nothing happened, run after the command. */
  verify?: (result: RunResult) => void | Promise<void>;
}

const q = (p: string): string => `'${p}'`;
const out = (...p: string[]): string => path.join(s.outside, ...p);

const attempts_: Attempt[] = [
  // Writing outside the roots.
  { name: 'absolute path outside', policy: () => ww, script: () => `echo pwned > ${q(out('new.txt'))}` },
  { name: 'overwrite an outside file', policy: () => ww, script: () => `echo pwned > ${q(out('victim.txt'))}` },
  { name: 'truncate an outside file', policy: () => ww, script: () => `: > ${q(out('victim.txt'))}` },
  { name: 'open an outside file read-write on a descriptor', policy: () => ww, script: () => `exec 3<> ${q(out('victim.txt'))} && echo x >&3` },
  { name: '.. escape from the workspace', policy: () => ww, script: () => 'echo pwned > ../outside/dotdot.txt' },
  { name: '.. escape from a subdirectory', policy: () => ww, script: () => 'mkdir -p a/b && cd a/b && echo pwned > ../../../outside/dotdot2.txt' },
  { name: 'symlink planted in the workspace pointing out', policy: () => ww, script: () => 'ln -s ../outside out && echo pwned > out/via-link.txt' },
  { name: 'symlink planted before the run', policy: () => ww, script: () => 'echo pwned > pre-planted-link/planted.txt' },
  { name: 'hard link to an outside file', policy: () => ww, script: () => 'ln ../outside/victim.txt hard && echo pwned >> hard' },
  { name: 'mv an outside file into the workspace', policy: () => ww, script: () => 'mv ../outside/victim.txt ./stolen.txt' },
  { name: 'rm an outside file', policy: () => ww, script: () => 'rm -f ../outside/victim.txt' },
  { name: 'chmod an outside file', policy: () => ww, script: () => 'chmod 777 ../outside/victim.txt' },
  { name: 'touch (utimes) an outside file', policy: () => ww, script: () => 'touch -d 2001-01-01 ../outside/victim.txt' },
  { name: 'mkfifo outside', policy: () => ww, script: () => 'mkfifo ../outside/fifo' },
  { name: '/proc/self/root/<outside>', policy: () => ww, script: () => `echo pwned > /proc/self/root${out('proc-root.txt')}` },
  { name: '/proc/1/root/<outside>', policy: () => ww, script: () => `echo pwned > /proc/1/root${out('proc1-root.txt')}` },
  { name: '/proc/self/cwd/../outside', policy: () => ww, script: () => 'echo pwned > /proc/self/cwd/../outside/proc-cwd.txt' },
  {
    name: '/dev/shm is private',
    policy: () => ww,
    mustFail: false,
    script: () => `echo pwned > /dev/shm/${tag}`,
    verify: () => expect(fs.existsSync(`/dev/shm/${tag}`)).toBe(false),
  },
  {
    name: '/tmp when excluded',
    policy: () => ww,
    script: () => `echo pwned > /tmp/${tag}-tmp.txt`,
    verify: () => expect(fs.existsSync(`/tmp/${tag}-tmp.txt`)).toBe(false),
  },
  { name: 'write to /etc', policy: () => wwTmp, script: () => `echo pwned > /etc/${tag}` , verify: () => expect(fs.existsSync(`/etc/${tag}`)).toBe(false) },
  { name: 'write to /sys', policy: () => ww, script: () => 'echo 1 > /sys/kernel/mm/transparent_hugepage/enabled' },
  // Protected paths inside the workspace.
  { name: '.git/hooks/pre-commit', policy: () => ww, script: () => 'printf "#!/bin/sh\\nid\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit' },
  { name: '.git/config', policy: () => ww, script: () => 'printf "[core]\\n\\tfsmonitor = id\\n" >> .git/config' },
  { name: 'git config through git itself', policy: () => ww, script: () => 'git config core.hooksPath /tmp' },
  { name: 'rm -rf .git', policy: () => ww, script: () => 'rm -rf .git' },
  { name: 'rename .git away and recreate it', policy: () => ww, script: () => 'mv .git .git-old && mkdir -p .git/hooks' },
  { name: 'symlink to a protected dir', policy: () => ww, script: () => 'ln -s .git/hooks h && echo pwned > h/post-checkout' },
  {
    name: '.git created by an earlier sandboxed command, then its hooks',
    policy: () => fresh,
    before: async () => {
      expect((await runSandboxed(fresh, 'git init -q .')).code).toBe(0);
    },
    script: () => 'echo "#!/bin/sh" > .git/hooks/pre-commit',
    verify: () => expect(fs.existsSync(path.join(s.ws, 'fresh', '.git', 'hooks', 'pre-commit'))).toBe(false),
  },
  {
    name: 'create .rig/config.toml',
    policy: () => ww,
    script: () => 'mkdir -p .rig && echo "sandbox_mode = \\"danger-full-access\\"" > .rig/config.toml',
    verify: () => expect(fs.existsSync(path.join(s.ws, '.rig'))).toBe(false),
  },
  {
    name: 'create .codex/config.toml',
    policy: () => ww,
    script: () => 'mkdir -p .codex && echo x > .codex/config.toml',
    verify: () => expect(fs.existsSync(path.join(s.ws, '.codex'))).toBe(false),
  },
  // Undoing the mounts.
  { name: 'remount / read-write', policy: () => ww, script: () => `(mount -o remount,rw / || mount -o remount,bind,rw /) && echo pwned > ${q(out('remount.txt'))}` },
  { name: 'unmount the .git bind', policy: () => ww, script: () => 'umount .git && echo pwned > .git/hooks/pre-push' },
  { name: 'nested user namespace', policy: () => ww, script: () => 'unshare -Urm sh -c "umount .git; echo pwned > .git/hooks/pre-push"' },
  // Network and sockets.
  {
    name: 'TCP to a host listener (network off)',
    policy: () => ww,
    script: () => `${NODE} -e "require('net').connect(${tcpPort},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',e=>{console.error(e.message);process.exit(3)})"`,
    verify: async () => expect(await settledTcp()).toBe(0),
  },
  {
    name: 'UDP to a host listener (network off)',
    policy: () => ww,
    script: () => `${NODE} -e "const s=require('dgram').createSocket('udp4');s.send('pwned',${udpPort},'127.0.0.1',e=>{if(e){console.error(e.message);process.exit(3)}process.exit(0)})"`,
    verify: async () => expect(await settledUdp()).toEqual([]),
  },
  {
    name: 'UNIX socket outside the workspace',
    policy: () => ww,
    script: () => `${NODE} -e "require('net').connect('${out('agent.sock')}').on('connect',()=>process.exit(0)).on('error',e=>{console.error(e.message);process.exit(3)})"`,
    verify: () => expect(unixConnections).toBe(0),
  },
  {
    // Stands in for /var/run/docker.sock: masked even with the network on (no seccomp then).
    name: 'privileged daemon socket with the network on',
    policy: () => wwNet,
    wrap: () => ({ maskSockets: [out('agent.sock')] }),
    script: () => `${NODE} -e "require('net').connect('${out('agent.sock')}').on('connect',()=>process.exit(0)).on('error',e=>{console.error(e.message);process.exit(3)})"`,
    verify: () => expect(unixConnections).toBe(0),
  },
  {
    name: 'kill a process outside the sandbox',
    policy: () => ww,
    script: () => `kill -9 ${victim.pid}`,
    verify: () => expect(victimAlive()).toBe(true),
  },
  {
    name: 'kill every visible process',
    policy: () => ww,
    script: () => 'kill -9 -1; exit 1',
    verify: () => expect(victimAlive()).toBe(true),
  },
  // read-only mode.
  { name: 'read-only: overwrite a workspace file', policy: () => ro, script: () => 'echo pwned > inside.txt' },
  { name: 'read-only: create a workspace file', policy: () => ro, script: () => 'echo pwned > created.txt' },
  { name: 'read-only: /tmp', policy: () => ro, script: () => `echo pwned > /tmp/${tag}-ro.txt`, verify: () => expect(fs.existsSync(`/tmp/${tag}-ro.txt`)).toBe(false) },
  { name: 'read-only: outside', policy: () => ro, script: () => 'echo pwned > ../outside/ro.txt' },
  {
    name: 'read-only: TCP to a host listener',
    policy: () => ro,
    script: () => `${NODE} -e "require('net').connect(${tcpPort},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(3))"`,
    verify: async () => expect(await settledTcp()).toBe(0),
  },
];

describe('sandbox escape suite (real bubblewrap)', () => {
  for (const attempt of attempts_) {
    it(`blocks: ${attempt.name}`, async () => {
      attempts++;
      tcpAtStart = tcpConnections;
      const policy = attempt.policy();
      await attempt.before?.();
      const outsideBefore = fingerprint(s.outside);
      const gitBefore = fingerprint(path.join(s.ws, '.git'));
      const insideBefore = fs.readFileSync(path.join(s.ws, 'inside.txt'), 'utf8');
      const result = await runSandboxed(policy, attempt.script(), attempt.wrap?.());
      if (attempt.mustFail !== false) expect(result.code, result.stderr).not.toBe(0);
      expect(fingerprint(s.outside)).toBe(outsideBefore);
      expect(fingerprint(path.join(s.ws, '.git'))).toBe(gitBefore);
      if (policy.mode === 'read-only') {
        expect(fs.readFileSync(path.join(s.ws, 'inside.txt'), 'utf8')).toBe(insideBefore);
        expect(fs.existsSync(path.join(s.ws, 'created.txt'))).toBe(false);
      }
      await attempt.verify?.(result);
      // Placeholders bwrap created for .rig/.codex are gone again.
      expect(fs.existsSync(path.join(s.ws, '.rig'))).toBe(false);
      blocked++;
    });
  }
});

describe('what the sandbox still allows', () => {
  it('writes inside the workspace reach the host', async () => {
    const r = await runSandboxed(ww, 'mkdir -p deep/er && echo ok > deep/er/file.txt && echo ok > inside-new.txt');
    expect(r).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(s.ws, 'deep', 'er', 'file.txt'), 'utf8')).toBe('ok\n');
  });

  it('reading anything works, in read-only too', async () => {
    const r = await runSandboxed(ro, 'cat ../outside/victim.txt && cat /etc/hostname >/dev/null && echo done');
    expect(r).toMatchObject({ code: 0, stdout: 'original\ndone\n' });
  });

  it('/tmp is writable when not excluded', async () => {
    const file = `/tmp/${tag}-allowed.txt`;
    try {
      const r = await runSandboxed(wwTmp, `echo ok > ${file}`);
      expect(r.code).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe('ok\n');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('network works when enabled: TCP and UNIX sockets', async () => {
    const before = tcpConnections;
    const r = await runSandboxed(
      wwNet,
      `${NODE} -e "require('net').connect(${tcpPort},'127.0.0.1').on('data',d=>{process.stdout.write(d);process.exit(0)})"`,
    );
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
    expect(tcpConnections).toBe(before + 1);
    const u = await runSandboxed(
      wwNet,
      `${NODE} -e "require('net').connect('${out('agent.sock')}').on('data',d=>{process.stdout.write(d);process.exit(0)})"`,
    );
    expect(u).toMatchObject({ code: 0, stdout: 'hello\n' });
  });

  it('with the network off, IPC between the command’s own processes still works', async () => {
    // fork() talks over a socketpair; the filter allows that and plain send().
    fs.writeFileSync(
      path.join(s.ws, 'ipc.cjs'),
      "const cp = require('child_process');\n" +
        "if (process.argv[2] === 'child') process.on('message', (m) => process.send(m + 1));\n" +
        "else { const c = cp.fork(__filename, ['child']); c.on('message', (m) => { console.log('got', m); c.kill(); }); c.send(41); }\n",
    );
    const r = await runSandboxed(ww, `${NODE} ipc.cjs`);
    expect(r).toMatchObject({ code: 0, stdout: 'got 42\n' });
  });

  it('git works on the protected repository for reading', async () => {
    const r = await runSandboxed(ww, 'git init -q sub && git -C sub status --short && echo ok');
    expect(r.stdout).toContain('ok');
  });

  it('the command sees the sandbox markers in its environment', async () => {
    const r = await runSandboxed(ww, 'echo "$RIG_SANDBOX $RIG_SANDBOX_NETWORK_DISABLED"');
    expect(r.stdout).toBe('bwrap 1\n');
  });
});

describe('known limitation', () => {
  it('a hard link planted outside the sandbox before the run is written through (no path can reveal it)', async () => {
    const shared = out('shared-inode.txt');
    fs.writeFileSync(shared, 'before\n');
    fs.linkSync(shared, path.join(s.ws, 'planted-hardlink.txt'));
    const r = await runSandboxed(ww, 'echo after > planted-hardlink.txt');
    expect(r.code).toBe(0);
    // Documented behaviour: the outside name changes too. In-process edits refuse such files
    // (canWritePath rejects nlink > 1); commands inside bwrap cannot be stopped.
    expect(fs.readFileSync(shared, 'utf8')).toBe('after\n');
    fs.rmSync(shared);
    fs.rmSync(path.join(s.ws, 'planted-hardlink.txt'));
  });
});
