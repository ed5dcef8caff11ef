// A thread's MCP servers: started when the thread loads (all at once, stdio ones before the SDK
// has even loaded), owned by the thread and closed with it. Each server's processes are tracked in
// the thread's process scope and carry its marker, so nothing outlives the thread, not even when
// rig is killed (the watchdog knows them). Status changes become thread events; until the thread
// exists they are held and handed over in order. The session also keeps what the person decided
// about the servers' tools (for this session, and for good), and routes a server's elicitation to
// the person through the call that is running on that server.
//
// Servers belong to their thread rather than being shared by the engine: two threads never see
// each other's server state (a server's resources, subscriptions or session cookies), a thread's
// cwd is the servers' cwd, and closing a thread ends exactly its processes.
import type { ResolvedMcpServer } from '../../config/index.js';
import type { ProcessScope } from '../../exec/process-groups.js';
import {
  approvalModeFor,
  createMcpManager,
  mcpLaunchTimesFile,
  persistToolApproval,
  type McpConnectionManager,
  type McpElicitationRequest,
  type McpElicitationResponse,
  type McpEvent,
  type McpStartupSummary,
  type McpToolInfo,
  type PersistOutcome,
} from '../../mcp/index.js';
import type { McpApprovalMode } from '../../config/index.js';
import type { ApprovalAnswer, ThreadEvent } from '../../protocol/index.js';
import type { TurnServices } from '../spec.js';

export interface ThreadMcpOptions {
  servers: Record<string, ResolvedMcpServer>;
  /** The thread's directory: stdio servers without `cwd` run there. */
  cwd: string;
  /** Where server environments and header variables come from. */
  env: NodeJS.ProcessEnv;
  /** The config files the thread loaded, lowest precedence first ("don't ask again" edits one). */
  configFiles: readonly string[];
  /** The thread's processes: every stdio server's group is tracked there. */
  scope?: ProcessScope;
  clientInfo?: { name: string; version: string };
  optionalStartupGraceMs?: number;
  restartBackoff?: { initialMs: number; maxMs: number };
  /** RIG_HOME: the servers' launch times of earlier starts are kept there (slowest launched first). */
  home?: string;
}

/** A tool call in flight, for routing the server's questions to whoever can answer them. */
export interface ActiveMcpCall {
  server: string;
  itemId: string;
  services: TurnServices;
  /** What the model should be told besides the result (e.g. a question nobody could answer). */
  notes: string[];
}

const key = (server: string, tool: string) => `${server}\u0000${tool}`;

export class ThreadMcp {
  /** Resolves once required servers are up and optional ones had their grace; rejects with McpStartupError. */
  readonly started: Promise<McpStartupSummary>;
  /** Increases whenever a server's tool list changes (tool sets rebuild their names then). */
  version = 0;
  private manager: McpConnectionManager | undefined;
  private emitter: ((event: ThreadEvent) => void) | undefined;
  private held: ThreadEvent[] = [];
  private readonly sessionApproved = new Set<string>();
  private readonly alwaysApproved = new Set<string>();
  private readonly calls: ActiveMcpCall[] = [];
  private closed = false;
  private readonly creating: Promise<McpConnectionManager>;

  constructor(private readonly options: ThreadMcpOptions) {
    const scope = options.scope;
    // Servers start at once; the watchdog must know the marker before their processes run.
    scope?.arm();
    const creating = (this.creating = createMcpManager({
      servers: options.servers,
      cwd: options.cwd,
      env: options.env,
      ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      ...(options.optionalStartupGraceMs !== undefined ? { optionalStartupGraceMs: options.optionalStartupGraceMs } : {}),
      ...(options.restartBackoff ? { restartBackoff: options.restartBackoff } : {}),
      ...(options.home ? { launchTimesFile: mcpLaunchTimesFile(options.home) } : {}),
      onElicitation: (request, signal) => this.elicit(request, signal),
      // initialize goes out while the engine builds the rest of the thread.
      startNow: true,
      onEvent: (event) => this.onManagerEvent(event),
      ...(scope
        ? {
            processHooks: {
              ...(scope.marker ? { env: { [scope.marker.name]: scope.marker.value } } : {}),
              onSpawn: (pid: number) => scope.register(pid),
            },
          }
        : {}),
    }));
    this.creating.catch(() => undefined);
    this.started = creating.then(async (manager) => {
      this.manager = manager;
      if (this.closed) {
        await manager.close();
        return { ready: [], failed: [], pending: [] };
      }
      return manager.start();
    });
    // The engine awaits `started`; nobody else must see an unhandled rejection.
    this.started.catch(() => undefined);
  }

  /** Whether any enabled server is configured (resource tools are offered then). */
  get hasServers(): boolean {
    return Object.values(this.options.servers).some((server) => server.enabled);
  }

  /** The manager, once the SDK has loaded (undefined before `started` settles). */
  get connections(): McpConnectionManager | undefined {
    return this.manager;
  }

  /** Thread events from now on go to `emit`; those held so far are emitted first, in order. */
  attach(emit: (event: ThreadEvent) => void): void {
    this.emitter = emit;
    for (const event of this.held.splice(0)) emit(event);
  }

  private publish(event: ThreadEvent): void {
    if (this.emitter) this.emitter(event);
    else this.held.push(event);
  }

  private onManagerEvent(event: McpEvent): void {
    if (event.type === 'server_status') {
      const config = this.options.servers[event.server];
      const state = event.status === 'ready' ? this.manager?.states().find((s) => s.server === event.server) : undefined;
      const startupMs = state && 'startupMs' in state ? state.startupMs : undefined;
      this.publish({
        type: 'mcp.server_status',
        server: event.server,
        status: event.status,
        required: config?.required ?? false,
        ...(event.reason !== undefined ? { error: event.reason } : {}),
        ...(event.toolCount !== undefined ? { tool_count: event.toolCount } : {}),
        ...(startupMs !== undefined ? { startup_ms: Math.round(startupMs) } : {}),
      });
    } else if (event.type === 'tools_changed') {
      this.version++;
      this.publish({ type: 'mcp.tools_changed', server: event.server, tool_count: event.toolCount });
    }
  }

  /** The tools of ready servers (and of crashed ones, which restart on their next call). */
  tools(): McpToolInfo[] {
    return this.manager?.tools() ?? [];
  }

  tool(server: string, tool: string): McpToolInfo | undefined {
    return this.tools().find((t) => t.server === server && t.name === tool);
  }

  serverConfig(server: string): ResolvedMcpServer | undefined {
    return this.options.servers[server];
  }

  /** The tool's approval mode: "don't ask again" given in this thread, its own, the server's default, auto. */
  approvalMode(server: string, tool: string): McpApprovalMode {
    if (this.alwaysApproved.has(key(server, tool))) return 'approve';
    const config = this.options.servers[server];
    return config ? approvalModeFor(config, tool) : 'auto';
  }

  isApprovedForSession(server: string, tool: string): boolean {
    return this.sessionApproved.has(key(server, tool));
  }

  approveForSession(server: string, tool: string): void {
    this.sessionApproved.add(key(server, tool));
  }

  /** "Allow and don't ask again": written to the config file that defines the server; always true for this thread. */
  approveAlways(server: string, tool: string): PersistOutcome {
    this.alwaysApproved.add(key(server, tool));
    return persistToolApproval(this.options.configFiles, server, tool);
  }

  /** Registers a call in flight; the returned function ends it. */
  beginCall(call: ActiveMcpCall): () => void {
    this.calls.push(call);
    return () => {
      const index = this.calls.indexOf(call);
      if (index >= 0) this.calls.splice(index, 1);
    };
  }

  /**
   * A server asks the user something. It is asked through the turn whose call is running on that
   * server (the latest one); with nobody to ask (rig exec, a headless client) it is cancelled and
   * the model is told why with the call's result. Outside a call there is nobody to ask either.
   */
  private async elicit(request: McpElicitationRequest, signal: AbortSignal): Promise<McpElicitationResponse> {
    const call = [...this.calls].reverse().find((c) => c.server === request.server);
    if (!call) return { action: 'cancel' };
    if (!call.services.canAskApproval) {
      call.notes.push(
        `The MCP server "${request.server}" asked the user: ${JSON.stringify(request.message)}. This session has no one to answer ` +
          '(a non-interactive run), so rig cancelled the question; the tool result above is what the server returned after the cancel.',
      );
      return { action: 'cancel' };
    }
    const asked = call.services.askApproval({
      kind: 'mcp_elicitation',
      server: request.server,
      mode: request.mode,
      message: request.message,
      ...(request.requestedSchema ? { requested_schema: request.requestedSchema } : {}),
      ...(request.url !== undefined ? { url: request.url } : {}),
      item_id: call.itemId,
    });
    const answer = await Promise.race([asked, aborted(signal)]);
    // A front end that could not put the question to a person says why; the model reads it.
    if (answer.decision === 'deny' && answer.feedback) call.notes.push(`The MCP server "${request.server}" asked the user: ${JSON.stringify(request.message)}. ${answer.feedback}`);
    return elicitationResponse(answer, request.mode);
  }

  /** Ends every server's processes; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    // Closing does not wait for a slow start: ending the servers ends their starts too.
    const manager = this.manager ?? (await this.creating.catch(() => undefined));
    await manager?.close();
  }
}

function aborted(signal: AbortSignal): Promise<ApprovalAnswer> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ decision: 'abort' });
    signal.addEventListener('abort', () => resolve({ decision: 'abort' }), { once: true });
  });
}

/** approve -> accept (with the form's answers); deny -> decline; abort -> cancel. */
export function elicitationResponse(answer: ApprovalAnswer, mode: 'form' | 'url'): McpElicitationResponse {
  switch (answer.decision) {
    case 'approve':
    case 'approve_for_session':
    case 'approve_always':
      return mode === 'form' ? { action: 'accept', content: (answer.content ?? {}) as Record<string, string | number | boolean | string[]> } : { action: 'accept' };
    case 'deny':
      return { action: 'decline' };
    case 'abort':
      return { action: 'cancel' };
  }
}

/** The thread's MCP servers, started now; undefined when no server is enabled (the SDK is then never loaded). */
export function openThreadMcp(options: ThreadMcpOptions): ThreadMcp | undefined {
  if (!Object.values(options.servers).some((server) => server.enabled)) return undefined;
  return new ThreadMcp(options);
}
