// Seccomp filters for sandboxed commands, assembled here as classic BPF and handed to bwrap
// through `--seccomp <fd>`.
//
// network off: the network namespace already cuts TCP/UDP to the host, but path-named UNIX
// sockets live in the file system and stay reachable through a read-only mount (connect() only
// needs the name): /var/run/docker.sock would be a full escape. So connect() fails, socket() works
// only for AF_UNIX (socketpair-based IPC between the command's own processes keeps working),
// sendto() to an explicit address fails, and io_uring (which can open sockets without socket())
// is unavailable. Not covered: sendmsg()/sendmmsg() with a destination name to a datagram UNIX
// socket outside (e.g. /dev/log); denying sendmsg would break descriptor passing in ordinary
// programs. Also failing: getifaddrs() (netlink needs sendto with an address).
//
// host sockets off (network on): the command shares the host's network namespace, and with it
// the abstract UNIX socket namespace (X11, D-Bus, containerd shims listen there) that no mount can
// hide; seccomp cannot read the address a connect() names, so the only kernel-enforced line is
// refusing to create AF_UNIX sockets at all: socket(AF_UNIX, ...) fails with EPERM while
// socketpair() (pipes between the command's own processes) and every other family work. What this
// breaks inside the sandbox: clients of host daemons over UNIX sockets (ssh-agent, gpg-agent, the
// D-Bus session bus, a local PostgreSQL socket, git's credential-cache) and tools that talk to a
// server of their own over a named socket. `sandbox_workspace_write.allow_unix_sockets = true`
// (user config only) turns the filter off; the daemon sockets masked in bwrap.ts stay hidden.
//
// Each filter is written into an unnamed file (O_TMPFILE), one per kind for the rig process (see
// defaultSeccomp in index.ts), and read by the trampoline through /proc/<rig pid>/fd/<n>, so no
// path another process could rewrite is ever used; the file disappears with its last descriptor.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;

interface ArchTable {
  auditArch: number;
  socket: number;
  connect: number;
  sendto: number;
  ioUringSetup: number;
  rejectX32: boolean;
}

const ARCHES: Record<string, ArchTable> = {
  x64: { auditArch: 0xc000003e, socket: 41, connect: 42, sendto: 44, ioUringSetup: 425, rejectX32: true },
  arm64: { auditArch: 0xc00000b7, socket: 198, connect: 203, sendto: 206, ioUringSetup: 425, rejectX32: false },
};

type Insn =
  | { op: 'ld'; offset: number }
  | { op: 'jeq' | 'jge'; k: number; ifTrue: string | null; ifFalse: string | null }
  | { op: 'ret'; k: number }
  | { op: 'label'; name: string };

const nr = 0;
const arch = 4;
const argLow = (i: number): number => 16 + 8 * i;
const argHigh = (i: number): number => 16 + 8 * i + 4;

function networkOffProgram(table: ArchTable): Insn[] {
  const insns: Insn[] = [
    { op: 'ld', offset: arch },
    // Any other ABI (i386 via int 0x80 has socketcall()) would bypass the numbers below.
    { op: 'jeq', k: table.auditArch, ifTrue: null, ifFalse: 'deny' },
    { op: 'ld', offset: nr },
  ];
  if (table.rejectX32) insns.push({ op: 'jge', k: X32_SYSCALL_BIT, ifTrue: 'deny', ifFalse: null });
  insns.push(
    { op: 'jeq', k: table.connect, ifTrue: 'deny', ifFalse: null },
    { op: 'jeq', k: table.ioUringSetup, ifTrue: 'deny', ifFalse: null },
    { op: 'jeq', k: table.socket, ifTrue: 'socket', ifFalse: null },
    { op: 'jeq', k: table.sendto, ifTrue: 'sendto', ifFalse: 'allow' },
    { op: 'label', name: 'socket' },
    { op: 'ld', offset: argLow(0) },
    { op: 'jeq', k: AF_UNIX, ifTrue: 'allow', ifFalse: 'deny' },
    { op: 'label', name: 'sendto' },
    { op: 'ld', offset: argLow(4) },
    { op: 'jeq', k: 0, ifTrue: null, ifFalse: 'deny' },
    { op: 'ld', offset: argHigh(4) },
    { op: 'jeq', k: 0, ifTrue: 'allow', ifFalse: 'deny' },
    { op: 'label', name: 'allow' },
    { op: 'ret', k: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'deny' },
    { op: 'ret', k: SECCOMP_RET_ERRNO | EPERM },
  );
  return insns;
}

/** network on: refuse only socket(AF_UNIX, ...) (and the ABIs and io_uring that would bypass it). */
function hostSocketsOffProgram(table: ArchTable): Insn[] {
  const insns: Insn[] = [
    { op: 'ld', offset: arch },
    { op: 'jeq', k: table.auditArch, ifTrue: null, ifFalse: 'deny' },
    { op: 'ld', offset: nr },
  ];
  if (table.rejectX32) insns.push({ op: 'jge', k: X32_SYSCALL_BIT, ifTrue: 'deny', ifFalse: null });
  insns.push(
    { op: 'jeq', k: table.ioUringSetup, ifTrue: 'deny', ifFalse: null },
    { op: 'jeq', k: table.socket, ifTrue: null, ifFalse: 'allow' },
    { op: 'ld', offset: argLow(0) },
    { op: 'jeq', k: AF_UNIX, ifTrue: 'deny', ifFalse: 'allow' },
    { op: 'label', name: 'allow' },
    { op: 'ret', k: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'deny' },
    { op: 'ret', k: SECCOMP_RET_ERRNO | EPERM },
  );
  return insns;
}

function assemble(insns: Insn[]): Buffer {
  const labels = new Map<string, number>();
  let index = 0;
  for (const insn of insns) {
    if (insn.op === 'label') labels.set(insn.name, index);
    else index++;
  }
  const out = Buffer.alloc(index * 8);
  index = 0;
  const jump = (target: string | null, from: number): number => {
    if (target === null) return 0;
    const to = labels.get(target);
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`bad seccomp jump to ${target}`);
    return to - from - 1;
  };
  for (const insn of insns) {
    if (insn.op === 'label') continue;
    const at = index * 8;
    if (insn.op === 'ld') {
      out.writeUInt16LE(LD_W_ABS, at);
      out.writeUInt32LE(insn.offset, at + 4);
    } else if (insn.op === 'ret') {
      out.writeUInt16LE(RET_K, at);
      out.writeUInt32LE(insn.k >>> 0, at + 4);
    } else {
      out.writeUInt16LE(insn.op === 'jeq' ? JEQ_K : JGE_K, at);
      out.writeUInt8(jump(insn.ifTrue, index), at + 2);
      out.writeUInt8(jump(insn.ifFalse, index), at + 3);
      out.writeUInt32LE(insn.k >>> 0, at + 4);
    }
    index++;
  }
  return out;
}

export type SeccompKind = 'network-off' | 'host-sockets-off';

/** The filter for this CPU, or undefined where we have no syscall table (then no filter is used). */
export function seccompProgram(kind: SeccompKind, cpu: string = process.arch): Buffer | undefined {
  const table = ARCHES[cpu];
  if (table === undefined) return undefined;
  return assemble(kind === 'network-off' ? networkOffProgram(table) : hostSocketsOffProgram(table));
}

export function networkOffSeccompProgram(cpu: string = process.arch): Buffer | undefined {
  return seccompProgram('network-off', cpu);
}

export interface SeccompDescriptor {
  /** What the trampoline opens: /proc/<rig pid>/fd/<n>, an unnamed read-only file. */
  path: string;
  /** Closes rig's descriptor (after the command exited). Idempotent. */
  close(): void;
}

const O_TMPFILE = 0o20000000 | fs.constants.O_DIRECTORY;

/**
 * A fresh unnamed file holding `program`, opened read-only. Tries O_TMPFILE in the temp directory
 * and /dev/shm; where neither supports it, a file created in a private directory and unlinked at
 * once (named for microseconds, in a directory only this user can list).
 */
export function openSeccompDescriptor(program: Buffer): SeccompDescriptor {
  // After this turn of the event loop: its first use of fs.promises loads that module (~2-4 ms),
  // which would otherwise delay the first command's spawn; now it overlaps the command's run.
  if (staleRemoval === undefined) setImmediate(() => void removeStaleSeccompDirs());
  const fd = unnamedReadOnlyFile(program);
  let open = true;
  return {
    path: `/proc/${process.pid}/fd/${fd}`,
    close() {
      if (!open) return;
      open = false;
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    },
  };
}

function unnamedReadOnlyFile(program: Buffer): number {
  for (const dir of [os.tmpdir(), '/dev/shm']) {
    let writable: number | undefined;
    try {
      writable = fs.openSync(dir, O_TMPFILE | fs.constants.O_RDWR, 0o400);
      fs.writeSync(writable, program);
      // A read-only descriptor of the same inode: nothing handed on can write through it.
      return fs.openSync(`/proc/self/fd/${writable}`, fs.constants.O_RDONLY);
    } catch {
      // No O_TMPFILE on this file system: next candidate.
    } finally {
      if (writable !== undefined) fs.closeSync(writable);
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-seccomp-'));
  const file = path.join(dir, 'filter.bpf');
  try {
    fs.writeFileSync(file, program, { mode: 0o400, flag: 'wx' });
    return fs.openSync(file, fs.constants.O_RDONLY);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let staleRemoval: Promise<void> | undefined;

/**
 * Earlier versions kept the program in `$TMPDIR/rig-seccomp-*` directories, left behind when rig
 * was killed. Removed once per process: only directories of that name holding nothing but the
 * program file. In the background: listing a temp dir that holds ~40,000 entries took 50 ms of
 * the first command's time, and nothing the command does depends on it. A process that ends by
 * itself waits for it (pending file-system work keeps Node running).
 */
export function removeStaleSeccompDirs(tmp: string = os.tmpdir()): Promise<void> {
  staleRemoval ??= removeStale(tmp).catch(() => {
    // Best effort: the next run tries again.
  });
  return staleRemoval;
}

async function removeStale(tmp: string): Promise<void> {
  const names = (await fs.promises.readdir(tmp)).filter((name) => name.startsWith('rig-seccomp-'));
  for (const name of names) {
    const dir = path.join(tmp, name);
    try {
      const stat = await fs.promises.lstat(dir);
      if (!stat.isDirectory() || stat.uid !== process.getuid?.()) continue;
      const inside = await fs.promises.readdir(dir);
      if (inside.some((entry) => entry !== 'network-off.bpf' && entry !== 'filter.bpf')) continue;
      await fs.promises.rm(dir, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
}
