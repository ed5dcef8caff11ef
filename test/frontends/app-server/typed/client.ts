// A client of the app-server protocol typed only with what Codex itself generates
// (`codex app-server generate-ts`): request params, responses, notifications and server requests
// all come from Codex's types, so a rig message shape Codex's clients could not handle, or a call
// rig needs that Codex's clients cannot express, fails the type check. The test generates the
// types into a temp dir, type-checks this file against them (paths: `codex-app-server-protocol`),
// then runs it. It is excluded from the repository's own tsc run, which has no such module.
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { ClientNotification, ClientRequest, InitializeResponse, RequestId, ServerNotification, ServerRequest } from 'codex-app-server-protocol';
import type {
  CommandExecutionRequestApprovalResponse,
  FileChangeRequestApprovalResponse,
  ThreadForkResponse,
  ThreadReadResponse,
  ThreadResumeResponse,
  ThreadStartResponse,
  TurnInterruptResponse,
  TurnStartResponse,
  TurnSteerResponse,
} from 'codex-app-server-protocol/v2';

/** The responses this client asks for, by method (Codex's types pair them only by name). */
interface Responses {
  initialize: InitializeResponse;
  'thread/start': ThreadStartResponse;
  'thread/resume': ThreadResumeResponse;
  'thread/fork': ThreadForkResponse;
  'thread/read': ThreadReadResponse;
  'turn/start': TurnStartResponse;
  'turn/steer': TurnSteerResponse;
  'turn/interrupt': TurnInterruptResponse;
}

type Method = keyof Responses & ClientRequest['method'];
type ParamsOf<M extends Method> = Extract<ClientRequest, { method: M }>['params'];
type Notification<M extends ServerNotification['method']> = Extract<ServerNotification, { method: M }>;
type ApprovalAnswer = CommandExecutionRequestApprovalResponse | FileChangeRequestApprovalResponse;

interface RpcError {
  code: number;
  message: string;
}

export class TypedAppServerClient {
  private nextId = 1;
  private readonly pending = new Map<RequestId, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(message: ServerNotification) => void>();
  readonly notifications: ServerNotification[] = [];
  /** The method of every request sent, by id (so a test can check the responses against Codex's schema). */
  readonly methods = new Map<RequestId, Method>();
  /** How server requests (approvals) are answered. */
  onServerRequest: (request: ServerRequest) => ApprovalAnswer = () => ({ decision: 'decline' });

  constructor(
    private readonly output: Writable,
    input: Readable,
  ) {
    createInterface({ input }).on('line', (line) => this.receive(JSON.parse(line) as Record<string, unknown>));
  }

  request<M extends Method>(method: M, params: ParamsOf<M>): Promise<Responses[M]> {
    const id = this.nextId++;
    this.methods.set(id, method);
    const message = { id, method, params } as Extract<ClientRequest, { method: M }>;
    return new Promise<Responses[M]>((resolve, reject) => {
      this.pending.set(id, { resolve: (result) => resolve(result as Responses[M]), reject });
      this.write(message);
    });
  }

  notify(message: ClientNotification): void {
    this.write(message);
  }

  /** The next notification of this method (from now on) that matches. */
  next<M extends ServerNotification['method']>(method: M, match: (message: Notification<M>) => boolean = () => true): Promise<Notification<M>> {
    return new Promise((resolve) => {
      const listener = (message: ServerNotification) => {
        if (message.method !== method || !match(message as Notification<M>)) return;
        this.listeners.delete(listener);
        resolve(message as Notification<M>);
      };
      this.listeners.add(listener);
    });
  }

  private write(message: unknown): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private receive(message: Record<string, unknown>): void {
    if ('method' in message && 'id' in message) {
      const request = message as unknown as ServerRequest;
      this.write({ id: request.id, result: this.onServerRequest(request) });
      return;
    }
    if ('method' in message) {
      const notification = message as unknown as ServerNotification;
      this.notifications.push(notification);
      for (const listener of [...this.listeners]) listener(notification);
      return;
    }
    const id = message['id'] as RequestId;
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if ('error' in message) {
      const error = message['error'] as RpcError;
      pending.reject(new Error(`${error.code}: ${error.message}`));
    } else pending.resolve(message['result']);
  }
}

export interface SessionReport {
  threadId: string;
  approvedCommand: string;
  steeredTurnId: string;
  interruptedStatus: string;
  resumedTurnStatuses: string[];
  forkedFrom: string | null;
  forkTurnCount: number;
}

const text = (value: string) => [{ type: 'text' as const, text: value, text_elements: [] }];

/**
 * A full session: start, a turn whose command is approved, a turn steered while it runs, a turn
 * interrupted, resume (in place: rig rejoins the loaded thread), fork. The model's answers are
 * scripted by the caller; `afterSteer` lets the caller release the command the steered turn waits on.
 */
export async function driveSession(client: TypedAppServerClient, hooks: { afterSteer(): void }): Promise<SessionReport> {
  const init = await client.request('initialize', { clientInfo: { name: 'typed-client', title: null, version: '0.0.1' }, capabilities: null });
  if (!init.userAgent) throw new Error('no user agent');
  client.notify({ method: 'initialized' });

  const started = await client.request('thread/start', { approvalPolicy: 'untrusted', sandbox: 'workspace-write' });
  const threadId = started.thread.id;

  // 1. A turn with a command approval round-trip.
  let approvedCommand = '';
  client.onServerRequest = (request) => {
    if (request.method === 'item/commandExecution/requestApproval') {
      approvedCommand = request.params.command ?? '';
      return { decision: 'accept' };
    }
    return { decision: 'decline' };
  };
  const first = await client.request('turn/start', { threadId, input: text('make a file') });
  await client.next('turn/completed', (message) => message.params.turn.id === first.turn.id);

  // 2. A turn steered while its command waits.
  const second = await client.request('turn/start', { threadId, input: text('wait for go'), approvalPolicy: 'never' });
  await client.next('item/commandExecution/outputDelta', (message) => message.params.turnId === second.turn.id && message.params.delta.includes('waiting'));
  const steered = await client.request('turn/steer', { threadId, expectedTurnId: second.turn.id, input: text('and say steered') });
  hooks.afterSteer();
  await client.next('turn/completed', (message) => message.params.turn.id === second.turn.id);

  // 3. A turn interrupted while its command sleeps.
  const third = await client.request('turn/start', { threadId, input: text('sleep') });
  await client.next('item/commandExecution/outputDelta', (message) => message.params.turnId === third.turn.id && message.params.delta.includes('sleeping'));
  await client.request('turn/interrupt', { threadId, turnId: third.turn.id });
  const interrupted = await client.next('turn/completed', (message) => message.params.turn.id === third.turn.id);

  // 4. Resume and fork.
  const resumed = await client.request('thread/resume', { threadId });
  const forked = await client.request('thread/fork', { threadId });
  return {
    threadId,
    approvedCommand,
    steeredTurnId: steered.turnId,
    interruptedStatus: interrupted.params.turn.status,
    resumedTurnStatuses: resumed.thread.turns.map((turn) => turn.status),
    forkedFrom: forked.thread.forkedFromId,
    forkTurnCount: forked.thread.turns.length,
  };
}
