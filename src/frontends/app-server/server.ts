// `rig app-server`: Codex's app-server protocol (v2) over one JSON-RPC connection, as a thin
// adapter over the engine. It owns the handshake (initialize, then the `initialized`
// notification), validates params against the protocol's schemas, dispatches to the method
// handlers, and writes the engine's events out as notifications. Responses go out before the
// notifications their request caused (thread/started after thread/start's result, turn/started
// after turn/start's), as Codex orders them.
import { platform } from 'node:os';
import type { Engine } from '../../core/engine.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { rigVersion } from '../../core/version.js';
import { readThreadNames } from '../../core/thread-names.js';
import { CLIENT_REQUESTS, ERROR_CODES, type ClientRequestMethod, type NotificationParams, type ResultOf, type ServerNotificationMethod, type Thread } from '../../protocol/app-server/index.js';
import { JsonLineConnection, RpcError, type IncomingRequest } from './connection.js';
import { EventBridge } from './events.js';
import { factsFromHandle, toThread } from './thread-view.js';
import { THREAD_METHODS } from './thread-methods.js';
import { TURN_METHODS } from './turn-methods.js';
import { INFO_METHODS } from './info-methods.js';
import { REVIEW_METHODS } from './review-methods.js';
import { GOAL_METHODS } from './goal-methods.js';

export interface ServerContext {
  engine: Engine;
  env: NodeJS.ProcessEnv;
  /** The directory relative `cwd`s are resolved against (the server's working directory). */
  cwd: string;
  /** `rig app-server -c key=value`: applied to every thread, before the client's config map. */
  config: readonly string[];
  bridge: EventBridge;
  notify<M extends ServerNotificationMethod>(method: M, params: NotificationParams<M>): void;
  /** The protocol view of a loaded thread. */
  threadOf(handle: ThreadHandle, turns?: Thread['turns']): Thread;
  /** A loaded thread, or -32600 naming the id. */
  loaded(threadId: string): ThreadHandle;
  /** Remember when and with what prompt a loaded thread began (for its view). */
  noteLoaded(handle: ThreadHandle, preview: string, createdAtMs?: number): void;
  names(): Map<string, string>;
}

export type MethodHandler = (params: never, context: ServerContext) => Promise<unknown> | unknown;

const HANDLERS: Record<string, MethodHandler> = { ...THREAD_METHODS, ...TURN_METHODS, ...INFO_METHODS, ...REVIEW_METHODS, ...GOAL_METHODS };

export interface AppServerOptions {
  engine: Engine;
  env: NodeJS.ProcessEnv;
  cwd: string;
  config?: string[];
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  maxPendingRequests?: number;
}

interface LoadedFacts {
  createdAtMs: number;
  preview: string;
}

export class AppServer {
  private readonly connection: JsonLineConnection;
  private readonly bridge: EventBridge;
  private readonly context: ServerContext;
  private phase: 'new' | 'initialized' = 'new';
  private optOut = new Set<string>();
  /** Requests whose response must precede the notifications they cause. */
  private holding = 0;
  private held: (() => void)[] = [];
  private readonly loadedFacts = new Map<string, LoadedFacts>();
  private closedResolve!: () => void;
  /** Resolves when the client has gone and every thread is closed (interrupted and saved). */
  readonly closed = new Promise<void>((resolve) => (this.closedResolve = resolve));

  constructor(private readonly options: AppServerOptions) {
    const engine = options.engine;
    this.connection = new JsonLineConnection(
      options.input as never,
      options.output as never,
      {
        request: (request) => this.dispatch(request),
        notification: (method) => {
          if (method === 'initialized') return;
        },
        closed: () => void this.shutdown(),
      },
      options.maxPendingRequests,
    );
    this.bridge = new EventBridge({
      notify: (method, params) => this.notify(method, params),
      request: (method, params) => {
        const prepared = this.connection.prepareRequest(method, params);
        this.out(prepared.send);
        return { id: prepared.id, result: prepared.result };
      },
      threadView: (handle) => this.threadOf(handle),
      handle: (threadId) => engine.thread(threadId),
    });
    this.context = {
      engine,
      env: options.env,
      cwd: options.cwd,
      config: options.config ?? [],
      bridge: this.bridge,
      notify: (method, params) => this.notify(method, params),
      threadOf: (handle, turns) => this.threadOf(handle, turns),
      loaded: (threadId) => {
        const handle = engine.thread(threadId);
        if (!handle) throw new RpcError(ERROR_CODES.invalidRequest, `thread not loaded: ${threadId}; call thread/resume first`);
        return handle;
      },
      noteLoaded: (handle, preview, createdAtMs) => {
        const known = this.loadedFacts.get(handle.id);
        this.loadedFacts.set(handle.id, { createdAtMs: known?.createdAtMs ?? createdAtMs ?? Date.now(), preview: known?.preview || preview });
      },
      names: () => readThreadNames(engine.home),
    };
    engine.subscribe((envelope) => this.bridge.handle(envelope));
  }

  start(): void {
    this.connection.start();
  }

  private async dispatch(request: IncomingRequest): Promise<unknown> {
    if (request.method === 'initialize') return this.initialize(request.params);
    if (this.phase !== 'initialized') throw new RpcError(ERROR_CODES.invalidRequest, 'Not initialized');
    const spec = (CLIENT_REQUESTS as Record<string, (typeof CLIENT_REQUESTS)[ClientRequestMethod]>)[request.method];
    const handler = HANDLERS[request.method];
    if (!spec || !handler) throw new RpcError(ERROR_CODES.methodNotFound, `method not found: ${request.method} (rig app-server implements ${Object.keys(CLIENT_REQUESTS).join(', ')})`);
    const parsed = spec.params.safeParse(request.params ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`).join('; ');
      throw new RpcError(ERROR_CODES.invalidParams, `Invalid params for ${request.method}: ${problems}`);
    }
    this.holding++;
    try {
      return await handler(parsed.data as never, this.context);
    } finally {
      // Released once the connection has written the response (next turn of the event loop).
      setImmediate(() => this.release());
    }
  }

  private initialize(params: unknown): ResultOf<'initialize'> {
    if (this.phase === 'initialized') throw new RpcError(ERROR_CODES.invalidRequest, 'Already initialized');
    const parsed = CLIENT_REQUESTS.initialize.params.safeParse(params ?? {});
    if (!parsed.success) {
      throw new RpcError(ERROR_CODES.invalidParams, `Invalid params for initialize: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    this.optOut = new Set(parsed.data.capabilities?.optOutNotificationMethods ?? []);
    this.phase = 'initialized';
    const os = platform();
    return {
      userAgent: `rig/${rigVersion()} (${os}; ${process.arch}) ${parsed.data.clientInfo.name}/${parsed.data.clientInfo.version}`,
      codexHome: this.options.engine.home,
      platformFamily: os === 'win32' ? 'windows' : 'unix',
      platformOs: os === 'darwin' ? 'macos' : os === 'win32' ? 'windows' : os,
    };
  }

  private notify<M extends ServerNotificationMethod>(method: M, params: NotificationParams<M>): void {
    if (this.optOut.has(method)) return;
    this.out(() => this.connection.notify(method, params));
  }

  private out(send: () => void): void {
    if (this.holding > 0) this.held.push(send);
    else send();
  }

  private release(): void {
    this.holding--;
    if (this.holding > 0) return;
    for (const send of this.held.splice(0)) send();
  }

  private threadOf(handle: ThreadHandle, turns: Thread['turns'] = []): Thread {
    const facts = this.loadedFacts.get(handle.id) ?? { createdAtMs: Date.now(), preview: '' };
    const name = this.context.names().get(handle.id);
    return toThread(
      factsFromHandle(handle, { createdAtMs: facts.createdAtMs, preview: facts.preview, ...(name ? { name } : {}), status: this.bridge.status(handle.id) }),
      turns,
    );
  }

  private shutting: Promise<void> | undefined;

  /** The client went away: interrupt every running turn and close every thread, so each is saved. */
  shutdown(): Promise<void> {
    this.shutting ??= (async () => {
      await this.options.engine.close();
      this.closedResolve();
    })();
    return this.shutting;
  }
}
