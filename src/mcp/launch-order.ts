// Which stdio server to launch first. Node's spawn() is synchronous: each call forks rig and waits
// for the child's exec, 2-15 ms on a 2-core machine while the servers launched before it boot. So
// servers launched in config order start one after another, the last one tens of milliseconds
// after the first; when that one is also the slowest to initialize, the thread's start waits for
// the whole queue plus its boot. Launching the server that took longest last time first puts the
// longest job at the head of the queue: the others' spawns then overlap its boot instead of
// adding to it.
//
// The times are kept in $RIG_HOME/mcp/launch-times.json: per server name, the launch they were
// measured for (command and args) and a launch-to-initialized time that follows the slow starts
// (see DECAY). A server not seen before, or whose launch changed, goes first: it may be slow (`npx`
// fetching a package). The file is only a hint: a missing, unreadable or malformed one is ignored,
// and the next save replaces it.
// fs.promises is reached through fs when a save runs: importing node:fs/promises loads it (and
// the streams, readline and watcher modules it needs) with every rig start.
import fs, { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { McpStdioServer } from '../config/index.js';

/** Where a RIG_HOME keeps the servers' launch times. */
export function mcpLaunchTimesFile(home: string): string {
  return join(home, 'mcp', 'launch-times.json');
}

interface LaunchTime {
  /** The command line the time is for; another one under the same name starts unknown. */
  launch: string;
  ms: number;
  /** When it was last measured (epoch ms): the oldest go when the file is full. */
  at: number;
}

/** Servers remembered at most (the file stays a few KB). */
const MAX_ENTRIES = 256;
/**
 * A start's time decays by this factor at each later start unless measured higher again: the rank
 * follows a server's slow starts (which are what delays a thread) and forgets them over a few
 * starts. A mean would flip the order back and forth: whichever server is launched first boots
 * with less competition for the CPU, measures faster, and is launched later next time.
 */
const DECAY = 0.8;

let saves = 0;

const launchOf = (server: McpStdioServer): string => JSON.stringify([server.command, ...server.args]);

export class LaunchTimes {
  private dirty = false;
  private saving: Promise<void> | undefined;

  private constructor(
    private readonly file: string | undefined,
    private readonly times: Map<string, LaunchTime>,
  ) {}

  /** The times in `file` (none when it is undefined, missing or not what rig wrote). */
  static load(file: string | undefined): LaunchTimes {
    return new LaunchTimes(file, file ? readTimes(file) : new Map());
  }

  /** The last launch-to-initialized time of the server, if it is known for this launch. */
  knownMs(name: string, server: McpStdioServer): number | undefined {
    const known = this.times.get(name);
    return known && known.launch === launchOf(server) ? known.ms : undefined;
  }

  /** The servers in launch order: unknown ones first (in the order given), then slowest first. */
  order<T extends McpStdioServer>(servers: readonly (readonly [string, T])[]): (readonly [string, T])[] {
    const rank = (entry: readonly [string, T]) => this.knownMs(entry[0], entry[1]) ?? Number.POSITIVE_INFINITY;
    // Array.prototype.sort is stable: equal ranks keep their config order.
    return [...servers].sort((a, b) => rank(b) - rank(a));
  }

  /** A measured launch: from the spawn to the server's answer to initialize. */
  record(name: string, server: McpStdioServer, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const previous = this.knownMs(name, server);
    const kept = previous === undefined ? ms : Math.max(ms, previous * DECAY);
    this.times.set(name, { launch: launchOf(server), ms: Math.round(kept * 10) / 10, at: Date.now() });
    this.dirty = true;
  }

  /**
   * Writes the times if anything changed (through a temp file and a rename, so a concurrent rig
   * reads the old file or the new one). Never rejects: the times are a hint. RIG_HOME itself is
   * never created here (a thread whose home was removed must not bring it back).
   */
  save(): Promise<void> {
    if (!this.file || !this.dirty) return this.saving ?? Promise.resolve();
    this.dirty = false;
    const file = this.file;
    const entries = [...this.times].sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_ENTRIES);
    const text = `${JSON.stringify({ version: 1, servers: Object.fromEntries(entries) }, null, 2)}\n`;
    const previous = this.saving ?? Promise.resolve();
    this.saving = previous.then(async () => {
      // Unique per save: two threads of one process may save the same file at once.
      const temp = `${file}.tmp-${process.pid}-${++saves}`;
      try {
        await fs.promises.mkdir(dirname(file)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        await fs.promises.writeFile(temp, text);
        await fs.promises.rename(temp, file);
      } catch {
        // A home that is read-only or gone: the next thread launches in config order.
      }
    });
    return this.saving;
  }
}

function readTimes(file: string): Map<string, LaunchTime> {
  const times = new Map<string, LaunchTime>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return times;
  }
  const servers = (parsed as { servers?: unknown } | null)?.servers;
  if (typeof servers !== 'object' || servers === null) return times;
  for (const [name, value] of Object.entries(servers)) {
    const { launch, ms, at } = (value ?? {}) as Partial<LaunchTime>;
    if (typeof launch === 'string' && typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) {
      times.set(name, { launch, ms, at: typeof at === 'number' ? at : 0 });
    }
  }
  return times;
}
