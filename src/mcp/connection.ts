// One configured server: start (spawn or connect, initialize, first tools/list within
// startup_timeout), its tool list kept current on tools/list_changed, calls with the configured
// timeout, and a crash noticed, reported and repaired by a restart on the next call (with
// exponential backoff). Outcomes of calls are values, never exceptions, with messages for the model.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpStdioServer, ResolvedMcpServer } from '../config/index.js';
import { httpServerHeaders, stdioServerEnv } from './env.js';
import { formatDuration, requestOptions, requestSignal } from './request-options.js';
import type { McpSdk } from './sdk.js';
import { StdioProcessTransport } from './stdio-transport.js';
import type {
  McpCallOptions,
  McpCallOutcome,
  McpCallToolResult,
  McpElicitationHandler,
  McpEvent,
  McpServerState,
  McpServerStatus,
  McpToolInfo,
} from './types.js';

/** What the owner of the servers wants of their processes: an environment marker, and their pids. */
export interface ProcessHooks {
  /** Added to every stdio server's environment (e.g. the thread's process-scope marker). */
  env?: Record<string, string>;
  /** Told each stdio server's pid (its process group) when it starts. */
  onSpawn?: (pid: number) => void;
}

/**
 * The protocol version the SDK's client asks for (its LATEST_PROTOCOL_VERSION; a test keeps the
 * two equal). Known here without loading the SDK, so the transport can send initialize early.
 */
export const MCP_CLIENT_PROTOCOL_VERSION = '2025-11-25';

/** What rig's client declares it can do. */
export const MCP_CLIENT_CAPABILITIES = { elicitation: {} };

/** The params of the client's initialize, exactly as the SDK's Client sends them. */
export function initializeParams(clientInfo: { name: string; version: string }): Record<string, unknown> {
  return { protocolVersion: MCP_CLIENT_PROTOCOL_VERSION, capabilities: MCP_CLIENT_CAPABILITIES, clientInfo };
}

/** The transport of a stdio server, not yet started (see StdioProcessTransport.spawnNow). */
export function stdioTransportFor(
  server: McpStdioServer,
  where: { cwd: string; env: NodeJS.ProcessEnv; processHooks?: ProcessHooks; clientInfo: { name: string; version: string } },
): StdioProcessTransport {
  return new StdioProcessTransport({
    earlyInitialize: initializeParams(where.clientInfo),
    command: server.command,
    args: server.args,
    env: { ...stdioServerEnv(server, where.env), ...where.processHooks?.env },
    cwd: server.cwd ?? where.cwd,
    ...(where.processHooks?.onSpawn ? { onSpawn: where.processHooks.onSpawn } : {}),
  });
}

export interface ConnectionContext {
  sdk: McpSdk;
  /** Default working folder of stdio servers (the session's cwd). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  processHooks?: ProcessHooks;
  clientInfo: { name: string; version: string };
  emit: (event: McpEvent) => void;
  onElicitation?: McpElicitationHandler;
  restartBackoff: { initialMs: number; maxMs: number };
}

/** Most pages of tools/list read (Codex reads at most 100). */
const MAX_LIST_PAGES = 100;

export class McpServerConnection {
  status: McpServerStatus = 'starting';
  reason: string | undefined;
  tools: McpToolInfo[] = [];
  startupMs: number | undefined;
  serverInfo: { name: string; version: string } | undefined;
  instructions: string | undefined;

  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private closed = false;
  private failures = 0;
  private lastFailureAt = 0;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;

  constructor(
    readonly name: string,
    readonly config: ResolvedMcpServer,
    private readonly ctx: ConnectionContext,
    /** A stdio server's process, launched before the SDK was loaded; used by the first start. */
    private prelaunched?: StdioProcessTransport,
  ) {}

  state(): McpServerState {
    return {
      server: this.name,
      transport: this.config.transport,
      status: this.status,
      required: this.config.required,
      toolCount: this.tools.length,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.startupMs !== undefined ? { startupMs: this.startupMs } : {}),
      ...(this.serverInfo ? { serverInfo: this.serverInfo } : {}),
      ...(this.instructions ? { instructions: this.instructions } : {}),
    };
  }

  /** Starts the server; resolves when it is ready or has failed (see `status`). Never rejects. */
  start(): Promise<void> {
    this.starting ??= this.startOnce().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    this.setStatus('starting');
    const began = performance.now();
    const budget = this.config.startup_timeout_ms;
    try {
      const { client, transport } = this.createClient();
      this.client = client;
      this.transport = transport;
      await client.connect(transport, requestOptions({ timeoutMs: budget }));
      const info = client.getServerVersion();
      this.serverInfo = info ? { name: info.name, version: info.version } : undefined;
      this.instructions = client.getInstructions();
      const left = Math.max(1, budget - (performance.now() - began));
      this.tools = await this.listAllTools(client, left);
      if (this.closed) return;
      this.startupMs = performance.now() - began;
      this.reason = undefined;
      this.setStatus('ready');
      this.ctx.emit({ type: 'tools_changed', server: this.name, toolCount: this.tools.length });
    } catch (error) {
      await this.fail(`failed to start: ${this.describeStartError(error, budget)}`);
    }
  }

  /** How a stdio server ended, if it has: "exited with code 1", "was killed by SIGKILL". */
  private exitText(): string | undefined {
    const exit = this.transport instanceof StdioProcessTransport ? this.transport.exit : undefined;
    if (!exit) return undefined;
    return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  }

  private createClient(): { client: Client; transport: Transport } {
    const { sdk } = this.ctx;
    const client = new sdk.Client(this.ctx.clientInfo, { capabilities: MCP_CLIENT_CAPABILITIES });
    client.setRequestHandler(sdk.types.ElicitRequestSchema, async (request, extra) => {
      const handler = this.ctx.onElicitation;
      if (!handler) return { action: 'cancel' };
      const params = request.params as { mode?: string; message: string; requestedSchema?: Record<string, unknown>; url?: string; elicitationId?: string };
      try {
        const answer = await handler(
          {
            server: this.name,
            mode: params.mode === 'url' ? 'url' : 'form',
            message: params.message,
            ...(params.requestedSchema ? { requestedSchema: params.requestedSchema } : {}),
            ...(params.url !== undefined ? { url: params.url } : {}),
            ...(params.elicitationId !== undefined ? { elicitationId: params.elicitationId } : {}),
          },
          extra.signal,
        );
        return answer;
      } catch {
        return { action: 'cancel' };
      }
    });
    client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, () => this.refreshTools());
    client.onclose = () => void this.onDisconnected(client);
    let transport: Transport;
    if (this.config.transport === 'stdio') {
      transport = this.prelaunched ?? stdioTransportFor(this.config, this.ctx);
      this.prelaunched = undefined;
    } else {
      let url: URL;
      try {
        url = new URL(this.config.url);
      } catch {
        throw new Error(`url ${JSON.stringify(this.config.url)} is not a valid URL`);
      }
      const headers = httpServerHeaders(this.name, this.config, this.ctx.env);
      transport = new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers } });
    }
    return { client, transport };
  }

  private async listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : {}, requestOptions({ timeoutMs }));
      for (const tool of result.tools) {
        out.push({
          server: this.name,
          name: tool.name,
          ...(tool.title !== undefined ? { title: tool.title } : {}),
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as Record<string, unknown>,
          ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
          ...(tool.annotations ? { annotations: tool.annotations } : {}),
        });
      }
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return this.filterTools(out);
  }

  private filterTools(tools: McpToolInfo[]): McpToolInfo[] {
    const allow = this.config.enabled_tools ? new Set(this.config.enabled_tools) : undefined;
    const deny = new Set(this.config.disabled_tools ?? []);
    return tools.filter((t) => (!allow || allow.has(t.name)) && !deny.has(t.name));
  }

  /** tools/list_changed: list again (one refresh at a time; a change during one runs another). */
  private refreshTools(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        const client = this.client;
        if (!client || this.status !== 'ready') return;
        try {
          this.tools = await this.listAllTools(client, this.config.startup_timeout_ms);
          this.ctx.emit({ type: 'tools_changed', server: this.name, toolCount: this.tools.length });
        } catch {
          // The next list_changed (or a restart) tries again; the old list stays meanwhile.
        }
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async onDisconnected(client: Client): Promise<void> {
    // While starting, the start itself fails and says why.
    if (this.closed || client !== this.client || this.status === 'starting') return;
    const how = this.exitText() ?? 'closed the connection';
    // The tools stay offered: the next call restarts the server.
    await this.fail(`${how}; rig restarts it on the next call`);
  }

  private async fail(reason: string): Promise<void> {
    const tail = this.transport instanceof StdioProcessTransport ? this.transport.stderrTail() : '';
    this.reason = tail ? `${reason}\nlast stderr of the server:\n${tail}` : reason;
    this.failures++;
    this.lastFailureAt = performance.now();
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    await transport?.close().catch(() => undefined);
    if (this.closed) return;
    this.setStatus('failed');
  }

  private describeStartError(error: unknown, budget: number): string {
    const { McpError, ErrorCode } = this.ctx.sdk.types;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `no answer within ${formatDuration(budget)} (startup_timeout_sec); raise it if the server is slow to start`;
    }
    const exited = this.exitText();
    if (exited && error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return `the server ${exited} before it was ready`;
    return error instanceof Error ? error.message : String(error);
  }

  private setStatus(status: McpServerStatus): void {
    this.status = status;
    this.ctx.emit({
      type: 'server_status',
      server: this.name,
      status,
      ...(status === 'failed' && this.reason ? { reason: this.reason } : {}),
      ...(status === 'ready' ? { toolCount: this.tools.length } : {}),
    });
  }

  /** Milliseconds to wait before the next restart (1 s, 2 s, 4 s, ... up to the maximum). */
  restartDelayMs(now = performance.now()): number {
    if (this.failures === 0) return 0;
    const { initialMs, maxMs } = this.ctx.restartBackoff;
    const backoff = Math.min(maxMs, initialMs * 2 ** Math.min(this.failures - 1, 16));
    return Math.max(0, this.lastFailureAt + backoff - now);
  }

  /** A client for a request: starts or restarts the server as needed. */
  private async ready(signal: AbortSignal | undefined): Promise<Client | string> {
    if (this.status === 'starting') await this.start();
    if (this.status === 'failed') {
      const wait = this.restartDelayMs();
      if (wait > 0 && !(await sleep(wait, signal))) return 'cancelled';
      await this.start();
    }
    return this.client && this.status === 'ready' ? this.client : `MCP server "${this.name}" is not available: ${this.reason ?? 'not started'}`;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpCallOutcome> {
    const began = performance.now();
    const took = () => performance.now() - began;
    if (!this.tools.some((t) => t.name === tool) && this.status === 'ready') {
      return { ok: false, kind: 'unknown_tool', message: `MCP server "${this.name}" has no tool "${tool}"`, durationMs: took() };
    }
    const client = await this.ready(options.signal);
    if (client === 'cancelled') return { ok: false, kind: 'cancelled', message: 'the call was cancelled', durationMs: took() };
    if (typeof client === 'string') return { ok: false, kind: 'unavailable', message: client, durationMs: took() };
    const timeoutMs = options.timeoutMs ?? this.config.tool_timeout_ms;
    const scoped = requestSignal(options.signal);
    try {
      const result = (await client.callTool(
        { name: tool, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) },
        undefined,
        requestOptions({ timeoutMs, ...(scoped.signal ? { signal: scoped.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
      )) as McpCallToolResult;
      this.failures = 0;
      // A server announces a tool-list change it makes during a call before the call's result, so
      // finishing the re-list here puts the new tools into the very next request.
      if (this.refreshing) await this.refreshing;
      return { ok: true, result, durationMs: took() };
    } catch (error) {
      return { ok: false, ...this.describeCallError(error, tool, timeoutMs, options.signal), durationMs: took() };
    } finally {
      scoped.release();
    }
  }

  private describeCallError(error: unknown, tool: string, timeoutMs: number, signal: AbortSignal | undefined): { kind: Exclude<McpCallOutcome, { ok: true }>['kind']; message: string } {
    const { McpError, ErrorCode } = this.ctx.sdk.types;
    const text = error instanceof Error ? error.message : String(error);
    if (signal?.aborted) return { kind: 'cancelled', message: `the call to ${this.name}.${tool} was cancelled` };
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const setting = timeoutMs === this.config.tool_timeout_ms ? ' (tool_timeout_sec of this server)' : '';
      return {
        kind: 'timeout',
        message: `MCP tool ${this.name}.${tool} timed out: no result and no progress for ${formatDuration(timeoutMs)}${setting}; it may still be running on the server`,
      };
    }
    const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    if (closed || this.status === 'failed') {
      return { kind: 'crashed', message: `MCP server "${this.name}" stopped during the call to ${tool}: ${this.reason ?? 'connection closed'}` };
    }
    if (error instanceof McpError) return { kind: 'protocol', message: `MCP server "${this.name}" refused the call to ${tool}: ${text}` };
    // Not an MCP error: the transport broke (network error, dead pipe). Reconnect on the next call.
    void this.fail(`connection error: ${text}; rig reconnects on the next call`);
    return { kind: 'crashed', message: `MCP server "${this.name}" could not be reached for ${tool}: ${text}` };
  }

  /** Any other request (resources): same timeout, restart and error rules as calls. */
  async request<T>(what: string, send: (client: Client, options: ReturnType<typeof requestOptions>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const client = await this.ready(signal);
    if (client === 'cancelled') throw new Error(`${what} was cancelled`);
    if (typeof client === 'string') throw new Error(client);
    const timeoutMs = this.config.tool_timeout_ms;
    const scoped = requestSignal(signal);
    try {
      return await send(client, requestOptions({ timeoutMs, ...(scoped.signal ? { signal: scoped.signal } : {}) }));
    } catch (error) {
      throw new Error(`${what} failed: ${this.describeCallError(error, what, timeoutMs, signal).message}`);
    } finally {
      scoped.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.prelaunched?.close();
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    if (transport && 'terminateSession' in transport) {
      // An HTTP session is ended politely, but not waited on for long.
      await Promise.race([(transport as { terminateSession(): Promise<void> }).terminateSession().catch(() => undefined), sleep(1000)]);
    }
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }
}

/** Resolves true after `ms`, false as soon as `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
