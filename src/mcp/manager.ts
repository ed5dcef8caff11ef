// All MCP servers of a thread (or of the engine, shared): started concurrently, required ones
// awaited, optional ones given a short shared grace and joining later ("tools_changed"), calls
// routed by server, and everything closed together. The SDK is loaded only when at least one
// server is enabled.
import type { McpStdioServer, ResolvedMcpServer } from '../config/index.js';
import { LaunchTimes } from './launch-order.js';
import { McpServerConnection, stdioTransportFor, type ConnectionContext, type ProcessHooks } from './connection.js';
import type { StdioProcessTransport } from './stdio-transport.js';
import { loadMcpSdk } from './sdk.js';
import type {
  McpCallOptions,
  McpCallOutcome,
  McpElicitationHandler,
  McpEvent,
  McpServerState,
  McpToolInfo,
} from './types.js';

/** Codex waits this long for optional servers still starting when it builds a tool list. */
export const DEFAULT_OPTIONAL_STARTUP_GRACE_MS = 1000;
const DEFAULT_CLIENT_INFO = { name: 'rig', version: '0' };
export const DEFAULT_RESTART_BACKOFF = { initialMs: 1000, maxMs: 30_000 };

export interface McpManagerOptions {
  /** RigConfig.mcp_servers; disabled servers are listed but never started. */
  servers: Record<string, ResolvedMcpServer>;
  /** Working folder of stdio servers without `cwd`. */
  cwd: string;
  /** Source of server environments and header variables (default process.env). */
  env?: NodeJS.ProcessEnv;
  clientInfo?: { name: string; version: string };
  optionalStartupGraceMs?: number;
  onElicitation?: McpElicitationHandler;
  restartBackoff?: { initialMs: number; maxMs: number };
  /** An environment marker for stdio servers and a callback with each one's pid (process tracking). */
  processHooks?: ProcessHooks;
  /**
   * Launch stdio servers at once, while the SDK is still loading (default true): their boot
   * overlaps rig's. start() then finds them running.
   */
  prelaunch?: boolean;
  /**
   * Begin every server's start (initialize, first tools/list) as soon as the manager exists, not
   * when start() is called: the owner's own set-up then runs while the servers answer. start()
   * joins the starts already running. Use with `onEvent`, or the first status events are missed.
   */
  startNow?: boolean;
  /** A listener attached before anything starts (see onEvent). */
  onEvent?: (event: McpEvent) => void;
  /**
   * The servers' launch times from earlier starts (mcpLaunchTimesFile(home)): the slowest are
   * launched first, and this start's times are saved there. Without it, config order.
   */
  launchTimesFile?: string;
}

export interface McpStartupSummary {
  ready: string[];
  failed: { server: string; reason: string }[];
  /** Optional servers still starting when the grace ran out; they join with "tools_changed". */
  pending: string[];
}

/** A required server could not start: the thread must not start without it. */
export class McpStartupError extends Error {
  override readonly name = 'McpStartupError';
  constructor(readonly failures: { server: string; reason: string }[]) {
    super(
      failures.map((f) => `required MCP server "${f.server}" ${f.reason}`).join('\n') +
        '\n(set required = false for it in config.toml to start without it)',
    );
  }
}

export class McpConnectionManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly listeners = new Set<(event: McpEvent) => void>();
  private closing: Promise<void> | undefined;
  /** Starts begun at creation (startNow): start() waits for these rather than starting again. */
  private readonly early = new Map<string, Promise<void>>();

  private constructor(
    private readonly options: McpManagerOptions,
    ctx: Omit<ConnectionContext, 'emit'> | undefined,
    prelaunched: ReadonlyMap<string, StdioProcessTransport> = new Map(),
    private readonly launchTimes?: LaunchTimes,
  ) {
    if (options.onEvent) this.listeners.add(options.onEvent);
    if (!ctx) return;
    for (const [name, server] of Object.entries(options.servers)) {
      if (!server.enabled) continue;
      this.connections.set(name, new McpServerConnection(name, server, { ...ctx, emit: (e) => this.emit(e) }, prelaunched.get(name)));
    }
  }

  static async create(options: McpManagerOptions): Promise<McpConnectionManager> {
    const enabled = Object.entries(options.servers).filter(([, s]) => s.enabled);
    if (enabled.length === 0) return new McpConnectionManager(options, undefined);
    const env = options.env ?? process.env;
    const prelaunched = new Map<string, StdioProcessTransport>();
    const stdio = options.prelaunch === false ? [] : enabled.filter((entry): entry is [string, McpStdioServer] => entry[1].transport === 'stdio');
    const launchTimes = LaunchTimes.load(stdio.length > 0 ? options.launchTimesFile : undefined);
    let answered = 0;
    for (const [name, server] of launchTimes.order(stdio)) {
      const transport = stdioTransportFor(server, {
        cwd: options.cwd,
        env,
        clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
        ...(options.processHooks ? { processHooks: options.processHooks } : {}),
      });
      const launchedAt = performance.now();
      // A failure to launch is reported by the server's start.
      void transport.spawnNow().catch(() => undefined);
      void transport.earlyInitializeAnswered.then(() => {
        launchTimes.record(name, server, performance.now() - launchedAt);
        // Written once every server has answered, off the start's path; close() saves the rest.
        if (++answered === stdio.length) void launchTimes.save();
      });
      prelaunched.set(name, transport);
    }
    let sdk: Awaited<ReturnType<typeof loadMcpSdk>>;
    try {
      sdk = await loadMcpSdk();
    } catch (error) {
      await Promise.all([...prelaunched.values()].map((t) => t.close()));
      throw error;
    }
    const manager = new McpConnectionManager(
      options,
      {
        sdk,
        cwd: options.cwd,
        env,
        clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
        ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
        ...(options.processHooks ? { processHooks: options.processHooks } : {}),
        restartBackoff: options.restartBackoff ?? DEFAULT_RESTART_BACKOFF,
      },
      prelaunched,
      launchTimes,
    );
    if (options.startNow) for (const connection of manager.connections.values()) manager.early.set(connection.name, connection.start());
    return manager;
  }

  /** Listens to status, tool-list and progress events; returns the unsubscribe. */
  onEvent(listener: (event: McpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: McpEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Starts every enabled server at once. Resolves when each required server is ready and each
   * optional one is ready, failed, or still starting when the shared grace ends (counted from
   * this call). Rejects with McpStartupError if a required server fails (the others keep running
   * until close()).
   */
  async start(): Promise<McpStartupSummary> {
    const graceMs = this.options.optionalStartupGraceMs ?? DEFAULT_OPTIONAL_STARTUP_GRACE_MS;
    const starts = [...this.connections.values()].map((c) => ({ c, done: this.early.get(c.name) ?? c.start() }));
    this.early.clear();
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.all(starts.map(({ c, done }) => (c.config.required ? done : Promise.race([done, grace]))));
    const required = starts.filter(({ c }) => c.config.required && c.status === 'failed');
    if (required.length > 0) throw new McpStartupError(required.map(({ c }) => ({ server: c.name, reason: c.reason ?? 'failed' })));
    return this.summary();
  }

  /** Waits until no server is starting (doctor, tests). */
  async settled(): Promise<McpStartupSummary> {
    await Promise.all([...this.connections.values()].map((c) => (c.status === 'starting' ? c.start() : undefined)));
    return this.summary();
  }

  private summary(): McpStartupSummary {
    const out: McpStartupSummary = { ready: [], failed: [], pending: [] };
    for (const c of this.connections.values()) {
      if (c.status === 'ready') out.ready.push(c.name);
      else if (c.status === 'failed') out.failed.push({ server: c.name, reason: c.reason ?? 'failed' });
      else out.pending.push(c.name);
    }
    return out;
  }

  /** Every configured server (disabled ones too), in name order. */
  states(): (McpServerState | { server: string; transport: McpServerState['transport']; status: 'disabled'; required: boolean; toolCount: 0 })[] {
    return Object.entries(this.options.servers)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, config]) => this.connections.get(name)?.state() ?? { server: name, transport: config.transport, status: 'disabled' as const, required: config.required, toolCount: 0 as const });
  }

  /**
   * The tools to offer now: those of ready servers, and of servers that crashed after listing
   * (their next call restarts them). Servers still starting join later with "tools_changed".
   */
  tools(): McpToolInfo[] {
    return [...this.connections.values()].flatMap((c) => (c.status === 'starting' && c.startupMs === undefined ? [] : c.tools));
  }

  /** The server's config (approval modes, parallel calls), or undefined. */
  serverConfig(server: string): ResolvedMcpServer | undefined {
    return this.options.servers[server];
  }

  async callTool(server: string, tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpCallOutcome> {
    const connection = this.connections.get(server);
    if (!connection) return { ok: false, kind: 'unavailable', message: this.unknownServer(server), durationMs: 0 };
    return connection.callTool(tool, args, options);
  }

  /** The connection of a server, for resource requests (resources.ts). */
  connection(server: string): McpServerConnection {
    const connection = this.connections.get(server);
    if (!connection) throw new Error(this.unknownServer(server));
    return connection;
  }

  /** Servers that are up (or came up once), for "all servers" resource listings. */
  serverNames(): string[] {
    return [...this.connections.values()].filter((c) => c.startupMs !== undefined).map((c) => c.name).sort();
  }

  private unknownServer(server: string): string {
    const config = this.options.servers[server];
    if (config && !config.enabled) return `MCP server "${server}" is disabled (enabled = false in config.toml)`;
    const known = [...this.connections.keys()].sort();
    return `unknown MCP server "${server}"${known.length > 0 ? ` (configured: ${known.join(', ')})` : ' (no MCP servers are configured)'}`;
  }

  /** Closes every server (and its process tree). Idempotent. */
  close(): Promise<void> {
    this.closing ??= Promise.all([...this.connections.values()].map((c) => c.close())).then(() => this.launchTimes?.save());
    return this.closing;
  }
}

/** Creates the manager; with no enabled server the SDK is never loaded. */
export function createMcpManager(options: McpManagerOptions): Promise<McpConnectionManager> {
  return McpConnectionManager.create(options);
}
