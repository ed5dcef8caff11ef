// One JSON-RPC connection over newline-delimited JSON (Codex's app-server framing: no `jsonrpc`
// member). Parses each line on its own, so a malformed line is answered with an error and the
// connection goes on; sends requests to the peer and routes their responses back; bounds the
// requests being worked on (over the bound: -32001, as Codex's bounded ingress queue does).
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ERROR_CODES, type JsonRpcErrorBody, type RequestId } from '../../protocol/app-server/index.js';

/** Codex's ingress queue holds 128 requests. */
export const DEFAULT_MAX_PENDING_REQUESTS = 128;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface IncomingRequest {
  id: RequestId;
  method: string;
  params: unknown;
}

export interface ConnectionHandlers {
  /** Answer a request; a thrown RpcError becomes that error, anything else -32603. */
  request(request: IncomingRequest): Promise<unknown>;
  notification(method: string, params: unknown): void;
  /** The peer went away (end of input). */
  closed(): void;
}

type Pending = { resolve: (result: unknown) => void; reject: (error: RpcError) => void };

export class JsonLineConnection {
  private pendingRequests = 0;
  private nextOutgoingId = 0;
  private readonly outgoing = new Map<RequestId, Pending>();
  private writable = true;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly handlers: ConnectionHandlers,
    private readonly maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS,
  ) {
    // A client that closes its end mid-write must not crash the server: later writes are dropped.
    output.on('error', () => {
      this.writable = false;
    });
  }

  start(): void {
    const lines = createInterface({ input: this.input, crlfDelay: Infinity });
    lines.on('line', (line) => this.receive(line));
    lines.on('close', () => {
      for (const pending of this.outgoing.values()) pending.reject(new RpcError(ERROR_CODES.internalError, 'the client disconnected'));
      this.outgoing.clear();
      this.handlers.closed();
    });
  }

  send(message: Record<string, unknown>): void {
    if (!this.writable) return;
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /**
   * A request to the client, registered now and written when `send` is called (a server holding
   * its notifications until a response is out holds its requests too, in the same order).
   * `result` resolves with the client's result and rejects with its error.
   */
  prepareRequest(method: string, params: unknown): { id: RequestId; result: Promise<unknown>; send: () => void } {
    const id = this.nextOutgoingId++;
    const result = new Promise<unknown>((resolve, reject) => this.outgoing.set(id, { resolve, reject }));
    return { id, result, send: () => this.send({ id, method, params }) };
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.replyError(null, ERROR_CODES.parseError, `Parse error: ${(error as Error).message}; each line must be one JSON-RPC message`);
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.replyError(null, ERROR_CODES.invalidRequest, 'Invalid request: a message must be a JSON object (batches are not supported)');
      return;
    }
    const record = message as Record<string, unknown>;
    const id = record['id'];
    const hasId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
    if (id !== undefined && id !== null && !hasId) {
      this.replyError(null, ERROR_CODES.invalidRequest, 'Invalid request: `id` must be a string or an integer');
      return;
    }
    const method = record['method'];
    if (method === undefined) {
      if (hasId && ('result' in record || 'error' in record)) return this.settleOutgoing(id as RequestId, record);
      this.replyError(hasId ? (id as RequestId) : null, ERROR_CODES.invalidRequest, 'Invalid request: no `method`');
      return;
    }
    if (typeof method !== 'string') {
      this.replyError(hasId ? (id as RequestId) : null, ERROR_CODES.invalidRequest, 'Invalid request: `method` must be a string');
      return;
    }
    if (!hasId) {
      this.handlers.notification(method, record['params']);
      return;
    }
    if (this.pendingRequests >= this.maxPendingRequests) {
      this.replyError(id as RequestId, ERROR_CODES.overloaded, 'Server overloaded; retry later.');
      return;
    }
    this.pendingRequests++;
    void this.handlers
      .request({ id: id as RequestId, method, params: record['params'] })
      .then(
        (result) => this.send({ id, result: result ?? {} }),
        (error: unknown) => {
          const rpc = error instanceof RpcError ? error : new RpcError(ERROR_CODES.internalError, error instanceof Error ? error.message : String(error));
          this.replyError(id as RequestId, rpc.code, rpc.message, rpc.data);
        },
      )
      .finally(() => this.pendingRequests--);
  }

  private settleOutgoing(id: RequestId, record: Record<string, unknown>): void {
    const pending = this.outgoing.get(id);
    if (!pending) return;
    this.outgoing.delete(id);
    const error = record['error'] as Partial<JsonRpcErrorBody> | undefined;
    if (error && typeof error === 'object') pending.reject(new RpcError(error.code ?? ERROR_CODES.internalError, error.message ?? 'error', error.data));
    else pending.resolve(record['result']);
  }

  private replyError(id: RequestId | null, code: number, message: string, data?: unknown): void {
    this.send({ id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
  }
}
