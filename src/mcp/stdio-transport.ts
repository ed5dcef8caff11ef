// A stdio MCP transport of rig's own (the SDK's spawns the server in rig's process group and
// kills only the direct child, which orphans whatever `npx` or a shell wrapper started). The
// server leads a process group of its own; closing ends stdin, then signals the whole group
// (TERM, then KILL), so nothing it started outlives it. Its stderr is kept as a tail for the
// messages that say why it failed.
//
// It needs nothing from the SDK: messages are newline-delimited JSON (the stdio transport of the
// spec), framed here, so a server can be launched while the SDK (~150 ms to import) still loads,
// and its boot overlaps rig's own start. Whatever the server writes before a client listens is
// kept and delivered when one does.
//
// For the same reason it sends `initialize` itself, the moment the process is spawned: a server
// then boots and initializes while rig is still loading the SDK and building the thread, instead
// of waiting for the SDK's client to ask. When the client later sends its own initialize (the same
// params: see EarlyInitialize), the transport does not send it again but answers it with the
// server's reply to the early one, under the client's request id.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const STDERR_TAIL_BYTES = 8 * 1024;
const STDERR_TAIL_LINES = 20;

/** The request id of the transport's own initialize (the SDK's client numbers its requests from 0). */
export const EARLY_INITIALIZE_ID = 'rig-early-initialize';

/** The params of the initialize the client will send (protocol version, capabilities, client info). */
export type EarlyInitialize = Record<string, unknown>;

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** After stdin is closed, how long the server may take to exit before it is signalled. */
  exitGraceMs?: number;
  /** Told the server's pid (= its process group) once it runs, e.g. to track it for cleanup. */
  onSpawn?: (pid: number) => void;
  /** Sent as `initialize` as soon as the process runs; the client's own initialize is answered with its reply. */
  earlyInitialize?: EarlyInitialize;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  /** The server's process group (its pid), kept after it exits to end what it left running. */
  private pgid: number | undefined;
  private pending = '';
  /** Messages (and a close) that arrived before a client attached. */
  private early: JSONRPCMessage[] = [];
  private earlyClose = false;
  private attached = false;
  private stderrTailText = '';
  private exitInfo: ExitInfo | undefined;
  private closing = false;
  private exited: Promise<void> | undefined;
  private launched: Promise<void> | undefined;
  /** The server's reply to the early initialize, until the client asks for it. */
  private earlyReply: JSONRPCMessage | undefined;
  /** The id of the client's initialize, while it waits for the early reply. */
  private clientInitializeId: string | number | undefined;
  /** Whether the client's initialize params differed from the early ones (tests check it never does). */
  earlyInitializeMismatch = false;
  private earlyReplied!: () => void;
  /** Settles when the server has answered the early initialize (never, without one). */
  readonly earlyInitializeAnswered = new Promise<void>((resolve) => (this.earlyReplied = resolve));

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.pgid;
  }

  /** How the process ended, once it has (undefined while running). */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    const lines = this.stderrTailText.split('\n');
    return lines.slice(-STDERR_TAIL_LINES - 1).join('\n').trim();
  }

  /** Starts the process now (before any client connects); idempotent. Rejects if it cannot run. */
  spawnNow(): Promise<void> {
    this.launched ??= new Promise<void>((resolve, reject) => {
      const child = spawn(this.launch.command, this.launch.args, {
        cwd: this.launch.cwd,
        env: this.launch.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      this.pgid = child.pid;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error: NodeJS.ErrnoException) => {
        const hint = error.code === 'ENOENT' ? ` (no such program: check \`command\`, and that it is on PATH)` : '';
        const wrapped = new Error(`cannot start \`${this.launch.command}\`: ${error.message}${hint}`);
        reject(wrapped);
        this.onerror?.(wrapped);
      });
      // A pid means the process runs (Node reports a failed spawn with an 'error' event and no
      // pid): the client may write to it at once, without waiting a turn of the event loop for
      // 'spawn', which a busy loop (the rest of the thread being built) delays.
      if (child.pid !== undefined) {
        this.launch.onSpawn?.(child.pid);
        if (this.launch.earlyInitialize) this.write({ jsonrpc: '2.0', id: EARLY_INITIALIZE_ID, method: 'initialize', params: this.launch.earlyInitialize } as JSONRPCMessage);
        resolve();
      }
      child.once('exit', (code, signal) => (this.exitInfo = { code, signal }));
      child.once('close', () => {
        this.child = undefined;
        if (this.attached) this.onclose?.();
        else this.earlyClose = true;
      });
      child.stdout!.setEncoding('utf8').on('data', (text: string) => this.receive(text));
      child.stderr!.setEncoding('utf8').on('data', (text: string) => {
        this.stderrTailText = (this.stderrTailText + text).slice(-STDERR_TAIL_BYTES);
      });
      // A server that exits while rig writes to it: the exit is reported through onclose.
      child.stdin!.on('error', () => undefined);
    });
    // Nobody may be listening yet; start() reports the failure.
    this.launched.catch(() => undefined);
    return this.launched;
  }

  /** Called by the SDK's client on connect: the process is (or was already) started. */
  async start(): Promise<void> {
    await this.spawnNow();
    this.attached = true;
    for (const message of this.early.splice(0)) this.onmessage?.(message);
    if (this.earlyClose) this.onclose?.();
  }

  /** One JSON-RPC message per line; a line that is not one is reported, not fatal. */
  private receive(text: string): void {
    this.pending += text;
    for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, end).replace(/\r$/, '');
      this.pending = this.pending.slice(end + 1);
      if (line.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.onerror?.(new Error(`the server wrote a line that is not JSON to stdout: ${line.slice(0, 200)}`));
        continue;
      }
      if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
        this.onerror?.(new Error(`the server wrote a line that is not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`));
        continue;
      }
      if ((message as { id?: unknown }).id === EARLY_INITIALIZE_ID && this.launch.earlyInitialize) {
        this.earlyReply = message as JSONRPCMessage;
        this.earlyReplied();
        this.answerClientInitialize();
        continue;
      }
      if (this.attached) this.onmessage?.(message as JSONRPCMessage);
      else this.early.push(message as JSONRPCMessage);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const request = message as { method?: string; id?: string | number; params?: unknown };
    if (this.launch.earlyInitialize && request.method === 'initialize' && request.id !== undefined && this.clientInitializeId === undefined) {
      if (JSON.stringify(request.params) !== JSON.stringify(this.launch.earlyInitialize)) this.earlyInitializeMismatch = true;
      this.clientInitializeId = request.id;
      if (!this.child?.stdin || this.child.stdin.destroyed) return Promise.reject(new Error('the server process is not running'));
      this.answerClientInitialize();
      return Promise.resolve();
    }
    return this.write(message);
  }

  /** The early reply, once both it and the client's initialize are there, under the client's id. */
  private answerClientInitialize(): void {
    const reply = this.earlyReply;
    const id = this.clientInitializeId;
    if (!reply || id === undefined) return;
    this.earlyReply = undefined;
    // Delivered on a later tick, as a reply read from the pipe would be (the client's send resolves first).
    queueMicrotask(() => this.onmessage?.({ ...reply, id } as JSONRPCMessage));
  }

  private write(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin, waits `exitGraceMs`, then TERM and KILL to the server's whole process group. */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    this.closing = true;
    const child = this.child;
    const pgid = this.pgid;
    if (child && pgid !== undefined) {
      child.stdin?.end();
      const grace = this.launch.exitGraceMs ?? 1000;
      if (!(await settlesWithin(this.exited!, grace))) {
        signalGroup(pgid, 'SIGTERM');
        if (!(await settlesWithin(this.exited!, 2000))) signalGroup(pgid, 'SIGKILL');
      }
      await this.exited;
    }
    // The leader is gone; anything it started that still runs is ended too.
    if (pgid !== undefined && groupAlive(pgid)) {
      signalGroup(pgid, 'SIGTERM');
      for (let i = 0; i < 20 && groupAlive(pgid); i++) await delay(50);
      if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    }
  }

  /** True while close() has been asked for (an exit then is not a crash). */
  get isClosing(): boolean {
    return this.closing;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether a process of the group still runs (zombies waiting to be reaped do not count). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    }
    return false;
  } catch {
    return true;
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
