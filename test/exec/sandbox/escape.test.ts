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
import { wrapCommand, type WrapOptions } from '../../../src/exec/sandbox/index.js';
import { fingerprint, runSandboxed, type RunResult } from './run-sandboxed.js';
import { networkOffSeccompProgram } from '../../../src/exec/sandbox/seccomp.js';

let s: Scratch;
let ww: SandboxPolicy; // workspace-write, no /tmp, network off
let wwNet: SandboxPolicy; // workspace-write, no /tmp, network on
let wwTmp: SandboxPolicy; // workspace-write with /tmp, network off
let ro: SandboxPolicy;
let fresh: SandboxPolicy; // workspace-write on a directory without .git at resolve time
let wwTmpNet: SandboxPolicy; // workspace-write with /tmp, network on
let wwNetUnix: SandboxPolicy; // network on, allow_unix_sockets = true
let roNet: SandboxPolicy; // read-only, network on
let wwHome: SandboxPolicy; // /tmp writable, RIG_HOME inside it
let wwNoHome: SandboxPolicy; // /tmp writable, RIG_HOME inside it but not created yet
let wwCache: SandboxPolicy; // RIG_COMPILE_CACHE pointed into the workspace
let wwNoCache: SandboxPolicy; // the same, not created yet
let cacheDir = '';
let missingCacheDir = '';
let home = '';
let missingHome = '';
let abstractServer: net.Server;
let abstractConnections = 0;
let abstractName = '';
let tmuxSocket = '';
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
  // Agent config below the top level, present when the session starts.
  fs.mkdirSync(path.join(s.ws, 'sub', '.rig', 'rules'), { recursive: true });
  fs.writeFileSync(path.join(s.ws, 'sub', '.rig', 'config.toml'), 'sandbox_mode = "read-only"\n');
  fs.mkdirSync(path.join(s.ws, 'deep', 'a', 'b', '.agents', 'skills'), { recursive: true });
  fs.mkdirSync(path.join(s.ws, 'pkg', '.codex'), { recursive: true });
  home = path.join(s.base, 'home');
  fs.mkdirSync(path.join(home, 'rules'), { recursive: true });
  fs.writeFileSync(path.join(home, 'config.toml'), 'model = "m"\n');
  missingHome = path.join(s.base, 'home-not-yet');
  ww = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp });
  wwNet = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, networkAccess: true, ...noTmp });
  wwTmp = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeTmpdirEnvVar: true });
  ro = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws });
  fs.mkdirSync(path.join(s.ws, 'fresh'));
  fresh = resolveSandboxPolicy({ mode: 'workspace-write', cwd: path.join(s.ws, 'fresh'), ...noTmp });
  wwTmpNet = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, networkAccess: true, excludeTmpdirEnvVar: true });
  wwNetUnix = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, networkAccess: true, allowUnixSockets: true, ...noTmp });
  roNet = resolveSandboxPolicy({ mode: 'read-only', cwd: s.ws, networkAccess: true });
  wwHome = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeTmpdirEnvVar: true, rigHome: home });
  wwNoHome = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, excludeTmpdirEnvVar: true, rigHome: missingHome });
  cacheDir = path.join(s.ws, 'build', 'rig-cache');
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, 'b1-v20-x64.cache'), 'RIGCC1\n');
  missingCacheDir = path.join(s.ws, 'build', 'rig-cache-not-yet');
  wwCache = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp, env: { ...process.env, RIG_COMPILE_CACHE: cacheDir } });
  wwNoCache = resolveSandboxPolicy({ mode: 'workspace-write', cwd: s.ws, ...noTmp, env: { ...process.env, RIG_COMPILE_CACHE: missingCacheDir } });

  abstractName = `rig-escape-${tag}`;
  abstractServer = net.createServer((socket) => {
    abstractConnections++;
    socket.on('error', () => {});
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => abstractServer.listen(`\0${abstractName}`, resolve));
  // A tmux server of the host, where tmux keeps its sockets ($TMUX_TMPDIR unset: /tmp/tmux-<uid>).
  const tmuxDir = `/tmp/tmux-${process.getuid!()}`;
  fs.mkdirSync(tmuxDir, { recursive: true, mode: 0o700 });
  tmuxSocket = path.join(tmuxDir, `rig-escape-${tag}`);
  execFileSync('tmux', ['-S', tmuxSocket, 'new-session', '-d', 'sleep 300'], { env: { ...process.env, TMUX: '' } });

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
  await new Promise((resolve) => abstractServer?.close(resolve));
  if (tmuxSocket) {
    try {
      execFileSync('tmux', ['-S', tmuxSocket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    fs.rmSync(tmuxSocket, { force: true });
  }
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

/** Absent, or the empty directory rig made as a read-only mount point. */
function expectEmptyMountPoint(p: string): void {
  if (!fs.existsSync(p)) return;
  expect(fs.lstatSync(p).isDirectory()).toBe(true);
  expect(fs.readdirSync(p)).toEqual([]);
}

/**
 * A network-off command with the real (default) seccomp filter: can it reach a host UNIX socket?
 * (TCP is cut by the network namespace anyway; a path-named socket only by the filter.)
 */
async function networkOffStillBlocked(): Promise<void> {
  const before = unixConnections;
  const r = await runSandboxed(ww, connectNode(`'${out('agent.sock')}'`));
  expect(r.code).not.toBe(0);
  expect(unixConnections).toBe(before);
}

const connectNode = (target: string): string =>
  `${NODE} -e "require('net').connect(${target}).on('connect',()=>process.exit(0)).on('error',e=>{console.error(e.message);process.exit(3)})"`;

/** 8 bytes of classic BPF: "return ALLOW", what a tamperer puts in place of the filter. */
const ALLOW_ALL = String.raw`\006\000\000\000\000\000\377\177`;
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
    verify: () => expectEmptyMountPoint(path.join(s.ws, '.rig')),
  },
  {
    name: 'create .codex/config.toml',
    policy: () => ww,
    script: () => 'mkdir -p .codex && echo x > .codex/config.toml',
    verify: () => expectEmptyMountPoint(path.join(s.ws, '.codex')),
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
    // Stands in for /var/run/docker.sock: masked even with the network on.
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
  // The seccomp program (hole 3): nothing another command can write is ever read as the filter.
  {
    name: 'seccomp: plant an allow-all program where older rig versions kept it',
    policy: () => wwTmp,
    mustFail: false,
    script: () => `mkdir -p /tmp/rig-seccomp-${tag} && printf '${ALLOW_ALL}' > /tmp/rig-seccomp-${tag}/network-off.bpf`,
    verify: async () => {
      await networkOffStillBlocked();
      fs.rmSync(`/tmp/rig-seccomp-${tag}`, { recursive: true, force: true });
    },
  },
  {
    // The attack seen against the shared file: a command of another session (network on, /tmp
    // writable, so no filter directory of its own bound read-only) rewrote the program in place,
    // same size, all "return ALLOW", and the next network-off command reached the host.
    name: 'seccomp: another session rewrites every program file and descriptor it can see',
    policy: () => wwTmpNet,
    mustFail: false,
    script: () => {
      const allow = ALLOW_ALL.repeat((networkOffSeccompProgram()?.length ?? 8) / 8);
      return `for f in /tmp/rig-seccomp-*/* /proc/[0-9]*/fd/* /dev/shm/*; do chmod u+w "$f"; printf '${allow}' > "$f"; done 2>/dev/null; true`;
    },
    verify: networkOffStillBlocked,
  },
  // Host UNIX sockets with the network on (hole 4).
  { name: 'network on: UNIX socket of a host daemon by path', policy: () => wwNet, script: () => connectNode(`'${out('agent.sock')}'`), verify: () => expect(unixConnections).toBe(0) },
  { name: 'network on: abstract UNIX socket of the host', policy: () => wwNet, script: () => connectNode(`'\\\\0${abstractName}'`), verify: () => expect(abstractConnections).toBe(0) },
  { name: 'network off: abstract UNIX socket of the host', policy: () => ww, script: () => connectNode(`'\\\\0${abstractName}'`), verify: () => expect(abstractConnections).toBe(0) },
  { name: 'read-only, network on: abstract UNIX socket of the host', policy: () => roNet, script: () => connectNode(`'\\\\0${abstractName}'`), verify: () => expect(abstractConnections).toBe(0) },
  {
    name: 'network on: a UNIX datagram to a host socket (python)',
    policy: () => wwNet,
    script: () => `python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b'x', '${out('agent.sock')}')"`,
  },
  {
    name: 'network on: drive the host tmux server (tmux -S run-shell)',
    policy: () => wwNet,
    script: () => `tmux -S ${q(tmuxSocket)} run-shell ${q(`touch ${out('tmux-pwned')}`)}`,
    verify: () => expect(fs.existsSync(out('tmux-pwned'))).toBe(false),
  },
  {
    name: 'allow_unix_sockets: the host tmux server stays hidden',
    policy: () => wwNetUnix,
    script: () => `tmux -S ${q(tmuxSocket)} run-shell ${q(`touch ${out('tmux-pwned-2')}`)}`,
    verify: () => expect(fs.existsSync(out('tmux-pwned-2'))).toBe(false),
  },
  {
    name: 'allow_unix_sockets: privileged daemon sockets stay masked',
    policy: () => wwNetUnix,
    wrap: () => ({ maskSockets: [out('agent.sock')] }),
    script: () => connectNode(`'${out('agent.sock')}'`),
    verify: () => expect(unixConnections).toBe(0),
  },
  // RIG_HOME inside a writable root (hole 2): RIG_HOME=$(mktemp -d) puts it under /tmp.
  {
    name: 'RIG_HOME under /tmp: widen the user config',
    policy: () => wwHome,
    script: () => `echo 'sandbox_mode = "danger-full-access"' >> ${q(path.join(home, 'config.toml'))}`,
    verify: () => expect(fs.readFileSync(path.join(home, 'config.toml'), 'utf8')).toBe('model = "m"\n'),
  },
  {
    name: 'RIG_HOME under /tmp: add an allow rule',
    policy: () => wwHome,
    script: () => `echo 'prefix_rule(pattern=["rm"])' > ${q(path.join(home, 'rules', 'x.rules'))}`,
    verify: () => expect(fs.readdirSync(path.join(home, 'rules'))).toEqual([]),
  },
  {
    name: 'RIG_HOME under /tmp: move it away and make a new one',
    policy: () => wwHome,
    script: () => `mv ${q(home)} ${q(home + '-old')} ; mkdir -p ${q(home)} && echo x > ${q(path.join(home, 'config.toml'))}`,
    verify: () => expect(fs.existsSync(home + '-old')).toBe(false),
  },
  {
    name: 'RIG_HOME not created yet: create it with a config',
    policy: () => wwNoHome,
    script: () => `mkdir -p ${q(missingHome)} && echo x > ${q(path.join(missingHome, 'config.toml'))}`,
    verify: () => expectEmptyMountPoint(missingHome),
  },
  // The code cache is code rig runs unsandboxed at its next start (src/cli/boot/code-cache.ts).
  {
    name: 'RIG_COMPILE_CACHE in the workspace: plant code for rig\'s next start',
    policy: () => wwCache,
    script: () => `printf 'evil' > ${q(path.join(cacheDir, 'b1-v20-x64.cache'))}; printf 'evil' > ${q(path.join(cacheDir, 'b2-v20-x64.cache'))}`,
    verify: () => {
      expect(fs.readFileSync(path.join(cacheDir, 'b1-v20-x64.cache'), 'utf8')).toBe('RIGCC1\n');
      expect(fs.readdirSync(cacheDir)).toEqual(['b1-v20-x64.cache']);
    },
  },
  {
    name: 'RIG_COMPILE_CACHE not created yet: create it with a cache file',
    policy: () => wwNoCache,
    script: () => `mkdir -p ${q(missingCacheDir)} && printf 'evil' > ${q(path.join(missingCacheDir, 'b1-v20-x64.cache'))}`,
    verify: () => expectEmptyMountPoint(missingCacheDir),
  },
  // Agent config below the top level, present at start (hole 2).
  {
    name: 'nested .rig: overwrite its config',
    policy: () => ww,
    script: () => `echo 'sandbox_mode = "danger-full-access"' > sub/.rig/config.toml`,
    verify: () => expect(fs.readFileSync(path.join(s.ws, 'sub', '.rig', 'config.toml'), 'utf8')).toBe('sandbox_mode = "read-only"\n'),
  },
  {
    name: 'nested .rig: add a rules file',
    policy: () => ww,
    script: () => `echo 'prefix_rule(pattern=["rm"])' > sub/.rig/rules/allow.rules`,
    verify: () => expect(fs.readdirSync(path.join(s.ws, 'sub', '.rig', 'rules'))).toEqual([]),
  },
  { name: 'nested .rig: rm -rf it', policy: () => ww, script: () => 'rm -rf sub/.rig', verify: () => expect(fs.existsSync(path.join(s.ws, 'sub', '.rig', 'config.toml'))).toBe(true) },
  {
    name: 'nested .rig: move it away and recreate it',
    policy: () => ww,
    script: () => 'mv sub/.rig sub/.rig-old && mkdir -p sub/.rig && echo x > sub/.rig/config.toml',
    verify: () => expect(fs.existsSync(path.join(s.ws, 'sub', '.rig-old'))).toBe(false),
  },
  {
    name: 'nested .agents: add a skill',
    policy: () => ww,
    script: () => 'mkdir -p deep/a/b/.agents/skills/evil && echo x > deep/a/b/.agents/skills/evil/SKILL.md',
    verify: () => expect(fs.readdirSync(path.join(s.ws, 'deep', 'a', 'b', '.agents', 'skills'))).toEqual([]),
  },
  { name: 'nested .codex: write its config', policy: () => ww, script: () => 'echo x > pkg/.codex/config.toml', verify: () => expect(fs.readdirSync(path.join(s.ws, 'pkg', '.codex'))).toEqual([]) },
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
      // Mount points for the missing .rig/.codex are empty directories, never files.
      expectEmptyMountPoint(path.join(s.ws, '.rig'));
      expectEmptyMountPoint(path.join(s.ws, '.codex'));
      blocked++;
    });
  }
});

describe('the seccomp filter reaches bwrap both ways', () => {
  it('as fd 3 from the process layer (pipes) and through the sh trampoline (a PTY cannot pass descriptors)', async () => {
    const before = unixConnections;
    for (const descriptors of [true, false]) {
      const wrapped = wrapCommand(ww, ['true'], ww.cwd, 'linux', 'bwrap', { descriptors });
      expect(wrapped.argv[0] === '/bin/sh', `descriptors ${descriptors}`).toBe(!descriptors);
      expect(wrapped.descriptors?.length ?? 0).toBe(descriptors ? 1 : 0);
      wrapped.cleanup();
      const r = await runSandboxed(ww, connectNode(`'${out('agent.sock')}'`), { descriptors });
      expect(r.code, r.stderr).not.toBe(0);
    }
    expect(unixConnections).toBe(before);
  });
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

  it('network works when enabled: TCP; UNIX sockets with allow_unix_sockets', async () => {
    const before = tcpConnections;
    const r = await runSandboxed(
      wwNet,
      `${NODE} -e "require('net').connect(${tcpPort},'127.0.0.1').on('data',d=>{process.stdout.write(d);process.exit(0)})"`,
    );
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
    expect(tcpConnections).toBe(before + 1);
    const u = await runSandboxed(
      wwNetUnix,
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

  it('with the network on, IPC between the command’s own processes still works (socketpair)', async () => {
    fs.writeFileSync(
      path.join(s.ws, 'ipc-net.cjs'),
      "const cp = require('child_process');\n" +
        "if (process.argv[2] === 'child') process.on('message', (m) => process.send(m + 1));\n" +
        "else { const c = cp.fork(__filename, ['child']); c.on('message', (m) => { console.log('got', m); c.kill(); }); c.send(1); }\n",
    );
    const r = await runSandboxed(wwNet, `${NODE} ipc-net.cjs`);
    expect(r).toMatchObject({ code: 0, stdout: 'got 2\n' });
  });

  it('files inside a nested .rig stay readable', async () => {
    const r = await runSandboxed(ww, 'cat sub/.rig/config.toml');
    expect(r).toMatchObject({ code: 0, stdout: 'sandbox_mode = "read-only"\n' });
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
