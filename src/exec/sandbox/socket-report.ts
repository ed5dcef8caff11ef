// What host UNIX sockets a sandboxed command can still reach under a policy, for `rig doctor`.
// Listening sockets are read from /proc/net/unix (this network namespace's table: abstract names
// start with "@"); masked daemon sockets and socket directories are subtracted.
import fs from 'node:fs';
import { privilegedSockets, socketDirectories } from './bwrap.js';
import { isWithin, type SandboxPolicy } from './policy.js';
import { seccompProgram } from './seccomp.js';

const LISTENING = 0x00010000; // __SO_ACCEPTCON in the Flags column

export interface ListeningSockets {
  abstract: string[];
  paths: string[];
}

/** Listening UNIX sockets of this network namespace; undefined where /proc/net/unix is unreadable. */
export function listeningUnixSockets(table?: string): ListeningSockets | undefined {
  let text = table;
  if (text === undefined) {
    try {
      text = fs.readFileSync('/proc/net/unix', 'utf8');
    } catch {
      return undefined;
    }
  }
  const found: ListeningSockets = { abstract: [], paths: [] };
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8) continue;
    if ((parseInt(fields[3] as string, 16) & LISTENING) === 0) continue;
    const name = fields.slice(7).join(' ');
    if (name.startsWith('@')) found.abstract.push(name);
    else found.paths.push(name);
  }
  found.abstract = [...new Set(found.abstract)].sort();
  found.paths = [...new Set(found.paths)].sort();
  return found;
}

function sample(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown}, … (${names.length} in all)` : shown;
}

/** Lines for `rig doctor`: which host UNIX sockets a command under `policy` can connect to. */
export function unixSocketReport(policy: SandboxPolicy, table?: string, platform: NodeJS.Platform = process.platform): string[] {
  if (policy.mode === 'danger-full-access') return ['  host UNIX sockets: all reachable (danger-full-access: no sandbox)'];
  if (platform !== 'linux') return [];
  if (!policy.networkAccess) {
    return seccompProgram('network-off') === undefined
      ? ['  host UNIX sockets: path-named ones reachable (no seccomp filter for this CPU); abstract ones not (own network namespace)']
      : ['  host UNIX sockets: none reachable (own network namespace; seccomp refuses connect())'];
  }
  if (!policy.allowUnixSockets && seccompProgram('host-sockets-off') !== undefined) {
    return [
      '  host UNIX sockets: none reachable (network on; seccomp refuses new AF_UNIX sockets, so ssh-agent, ' +
        'D-Bus and local database sockets are unreachable too; sandbox_workspace_write.allow_unix_sockets = true in your own config re-enables them)',
    ];
  }
  const listening = listeningUnixSockets(table);
  if (listening === undefined) return ['  host UNIX sockets: reachable (network on, AF_UNIX allowed); /proc/net/unix unreadable, cannot list them'];
  const masked = new Set(privilegedSockets());
  const maskedDirs = socketDirectories();
  const paths = listening.paths.filter((p) => !masked.has(p) && !maskedDirs.some((dir) => isWithin(p, dir)));
  const lines = [`  host UNIX sockets: reachable (network on, allow_unix_sockets = true); daemon sockets and tmux/screen/X11 directories stay hidden`];
  lines.push(`    abstract: ${listening.abstract.length === 0 ? 'none listening' : sample(listening.abstract)}`);
  lines.push(`    by path: ${paths.length === 0 ? 'none listening' : sample(paths)}`);
  return lines;
}
