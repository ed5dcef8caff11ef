// macOS Seatbelt: an SBPL profile generated from the same policy as bubblewrap, run through
// /usr/bin/sandbox-exec (only that absolute path: a PATH lookup could be hijacked). Paths enter the
// profile as parameters (-DNAME=value) rather than string literals, so no path needs SBPL escaping.
// Cannot run on Linux; the profile text is unit-tested for every policy shape.
import { isWithin, protectedPathsCreatedSince, type SandboxPolicy } from './policy.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

// Everything a command needs regardless of policy: start processes, talk to its own children,
// basic device and system information, the user directory service for getpwuid(), logging.
const BASE_PROFILE = `(version 1)
(deny default)

; processes: start programs, and see or signal only processes inside this sandbox
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))

; devices that never reach outside the command
(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))
(allow file-write-data (regex #"^/dev/fd/[0-9]+$"))
(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper"))
(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx") (literal "/dev/tty"))
(allow file-read* file-write* file-ioctl (regex #"^/dev/ttys[0-9]+$"))

; system facts runtimes ask for (CPU count, memory, OS version)
(allow sysctl-read
  (sysctl-name "hw.activecpu") (sysctl-name "hw.ncpu") (sysctl-name "hw.logicalcpu")
  (sysctl-name "hw.logicalcpu_max") (sysctl-name "hw.physicalcpu") (sysctl-name "hw.physicalcpu_max")
  (sysctl-name "hw.memsize") (sysctl-name "hw.pagesize") (sysctl-name "hw.pagesize_compat")
  (sysctl-name "hw.cachelinesize") (sysctl-name "hw.l1dcachesize") (sysctl-name "hw.l2cachesize")
  (sysctl-name "hw.machine") (sysctl-name "hw.model") (sysctl-name "hw.byteorder")
  (sysctl-name "hw.cputype") (sysctl-name "hw.cpusubtype") (sysctl-name "hw.cpufamily")
  (sysctl-name-prefix "hw.optional.") (sysctl-name-prefix "hw.perflevel")
  (sysctl-name "kern.argmax") (sysctl-name "kern.hostname") (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.ngroups") (sysctl-name "kern.osproductversion") (sysctl-name "kern.osrelease")
  (sysctl-name "kern.ostype") (sysctl-name "kern.osvariant_status") (sysctl-name "kern.osversion")
  (sysctl-name "kern.secure_kernel") (sysctl-name "kern.usrstack64") (sysctl-name "kern.version")
  (sysctl-name "kern.bootargs") (sysctl-name "sysctl.proc_cputype") (sysctl-name "vm.loadavg")
  (sysctl-name-prefix "kern.proc.pid.") (sysctl-name-prefix "net.routetable."))

; shared memory and semaphores between the command's own processes
(allow ipc-posix-sem)
(allow ipc-posix-shm-read* ipc-posix-shm-write-create ipc-posix-shm-write-data)

; user and group lookups, logging, preferences
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.logd")
  (global-name "com.apple.system.logger"))
(allow user-preference-read)

; reading is unrestricted
(allow file-read*)
`;

const NETWORK_PROFILE = `
; network access is enabled for this sandbox
(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.dnssd.service")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.networkd"))
`;

export interface SeatbeltProfile {
  profile: string;
  /** Parameter definitions, each passed as `-D<name>=<value>`. */
  params: Array<[name: string, value: string]>;
}

/** The profile and its path parameters for a policy. */
export function buildSeatbeltPolicy(policy: SandboxPolicy): SeatbeltProfile {
  const params: Array<[string, string]> = [];
  let profile = BASE_PROFILE;
  if (policy.mode === 'danger-full-access') {
    profile += '\n; full access\n(allow file-write*)\n';
  } else if (policy.mode === 'workspace-write' && policy.writableRoots.length > 0) {
    // Every protected path is carved out of every root containing it: /tmp/ws/.git must stay
    // read-only even though /tmp is a writable root too. (No reliance on SBPL rule order.)
    const allProtected = [
      ...new Set([
        ...policy.writableRoots.flatMap((r) => [...r.readOnlySubpaths, ...r.missingProtected]),
        ...protectedPathsCreatedSince(policy),
      ]),
    ];
    const protectedParams = new Map<string, string>();
    const rules = policy.writableRoots.map((root, i) => {
      const rootParam = `WRITABLE_ROOT_${i}`;
      params.push([rootParam, root.root]);
      const carveOuts = allProtected
        .filter((p) => isWithin(p, root.root))
        .map((p) => {
          let param = protectedParams.get(p);
          if (param === undefined) {
            param = `PROTECTED_${protectedParams.size}`;
            protectedParams.set(p, param);
            params.push([param, p]);
          }
          return `(require-not (subpath (param "${param}")))`;
        });
      return carveOuts.length === 0
        ? `  (subpath (param "${rootParam}"))`
        : `  (require-all (subpath (param "${rootParam}"))\n    ${carveOuts.join('\n    ')})`;
    });
    profile += `\n; writable roots, minus protected subpaths\n(allow file-write*\n${rules.join('\n')})\n`;
  }
  if (policy.networkAccess) profile += NETWORK_PROFILE;
  return { profile, params };
}

/** The profile text alone. */
export function buildSeatbeltProfile(policy: SandboxPolicy): string {
  return buildSeatbeltPolicy(policy).profile;
}

/** argv running `command` under sandbox-exec. The caller spawns it with `cwd` as working directory. */
export function buildSeatbeltArgs(policy: SandboxPolicy, command: string[], _cwd?: string): string[] {
  const { profile, params } = buildSeatbeltPolicy(policy);
  return [SANDBOX_EXEC, '-p', profile, ...params.map(([name, value]) => `-D${name}=${value}`), '--', ...command];
}
