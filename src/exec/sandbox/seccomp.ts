// A seccomp filter for sandboxed commands whose network is off. The network namespace already
// cuts TCP/UDP to the host, but path-named UNIX sockets live in the file system and stay reachable
// through a read-only mount (connect() only needs the name): /var/run/docker.sock would be a full
// escape. So with the network off: connect() fails, socket() works only for AF_UNIX (socketpair-based
// IPC between the command's own processes keeps working), sendto() to an explicit
// address fails, and io_uring (which can open sockets without socket()) is unavailable.
// Not covered: sendmsg()/sendmmsg() with a destination name to a datagram UNIX socket outside
// (e.g. /dev/log); denying sendmsg would break descriptor passing in ordinary programs. Also
// failing: getifaddrs() (netlink needs sendto with an address), e.g. Node's os.networkInterfaces().
//
// The program is classic BPF, assembled here and handed to bwrap through `--seccomp <fd>`.
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

/** The filter for this CPU, or undefined where we have no syscall table (then no filter is used). */
export function networkOffSeccompProgram(cpu: string = process.arch): Buffer | undefined {
  const table = ARCHES[cpu];
  return table === undefined ? undefined : assemble(networkOffProgram(table));
}

export interface SeccompFile {
  /** Directory holding the program; bound read-only into every sandbox that could write it. */
  dir: string;
  file: string;
}

let cached: (SeccompFile & { ino: number; size: number }) | undefined;

/**
 * The program written once per process into a private directory. Checked by inode and size on each
 * use so that a file replaced behind our back (by an unsandboxed command) is written again.
 */
export function networkOffSeccompFile(): SeccompFile | undefined {
  const program = networkOffSeccompProgram();
  if (program === undefined) return undefined;
  if (cached !== undefined) {
    try {
      const stat = fs.statSync(cached.file);
      if (stat.ino === cached.ino && stat.size === cached.size) return { dir: cached.dir, file: cached.file };
    } catch {
      // Removed (tmp cleaner, rm -rf /tmp/*): write it again below.
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-seccomp-'));
  const file = path.join(dir, 'network-off.bpf');
  fs.writeFileSync(file, program, { mode: 0o400 });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const stat = fs.statSync(file);
  cached = { dir, file, ino: stat.ino, size: stat.size };
  return { dir, file };
}
