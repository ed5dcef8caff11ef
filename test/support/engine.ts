// Threads started through the engine API, in-process, for tests where the process boundary is not
// the point: a real engine (config, harness, safety, orchestrator, rollouts under a temp RIG_HOME)
// whose model client is injected (a ScriptedClient, or a real client pointed at the loopback mock).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, type ThreadStartRequest } from '../../src/core/engine.js';
import type { ThreadHandle } from '../../src/core/thread-handle.js';
import type { ModelClient } from '../../src/model/types.js';
import type { EventEnvelope, ThreadEvent } from '../../src/protocol/index.js';

export const TEST_KEY_VAR = 'MOCK_API_KEY';
export const TEST_KEY_VALUE = 'sk-mock-secret-do-not-leak-5f1e2d3c';

/** Writes a RIG_HOME whose provider is `mock` (never contacted when a client is injected). */
export function writeTestHome(home: string, extra = '', baseUrl = 'http://127.0.0.1:9/v1'): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model_provider = "mock"',
      'model = "mock-model"',
      '',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
      `env_key = "${TEST_KEY_VAR}"`,
      extra,
    ].join('\n'),
  );
}

/** The environment a test engine runs with: PATH, a home, the mock's key; nothing of the user's. */
export function testEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, [TEST_KEY_VAR]: TEST_KEY_VALUE, ...extra };
}

export interface TestEngineOptions {
  home: string;
  env?: NodeJS.ProcessEnv;
  /** The model every thread of this engine talks to; default: the provider's real client. */
  client?: ModelClient | ((threadIndex: number) => ModelClient);
  source?: string;
}

/** An engine over a temp RIG_HOME. Close it (or each thread) when done: that kills their processes. */
export function testEngine(options: TestEngineOptions): Engine {
  let built = 0;
  const client = options.client;
  return new Engine({
    env: testEnv(options.home, options.env),
    home: options.home,
    source: options.source ?? 'test',
    ...(client ? { modelClient: () => (typeof client === 'function' ? client(built++) : client) } : {}),
  });
}

export interface TestThread {
  engine: Engine;
  thread: ThreadHandle;
  /** Every event of this thread since it was started, enveloped. */
  envelopes: EventEnvelope[];
  /** The bare events, in order. */
  events(): ThreadEvent[];
  /** Resolves with the next event of this type (emitted from now on) that matches. */
  next<T extends ThreadEvent['type']>(type: T, match?: (event: Extract<ThreadEvent, { type: T }>) => boolean): Promise<Extract<ThreadEvent, { type: T }>>;
  close(): Promise<void>;
}

export interface StartTestThreadOptions extends TestEngineOptions {
  cwd: string;
  /** Fields of the start request (overrides, ephemeral, canAskApproval, ...). */
  request?: Omit<ThreadStartRequest, 'cwd'>;
  /** Start the thread on this engine instead of a new one. */
  engine?: Engine;
  /** Resume this thread id instead of starting one. */
  resume?: string;
}

/** Starts (or resumes) one thread through the engine API and records its events. */
export async function startTestThread(options: StartTestThreadOptions): Promise<TestThread> {
  const engine = options.engine ?? testEngine(options);
  const envelopes: EventEnvelope[] = [];
  const waiters = new Set<(envelope: EventEnvelope) => void>();
  // Engine-wide, then filtered: thread.started is emitted before startThread returns.
  let id: string | undefined;
  const early: EventEnvelope[] = [];
  const unsubscribe = engine.subscribe((envelope) => {
    if (id === undefined) {
      early.push(envelope);
      return;
    }
    if (envelope.thread_id !== id) return;
    envelopes.push(envelope);
    for (const waiter of [...waiters]) waiter(envelope);
  });
  const request: ThreadStartRequest = { cwd: options.cwd, ephemeral: true, ...options.request };
  const thread = options.resume ? await engine.resumeThread(options.resume, request) : await engine.startThread(request);
  id = thread.id;
  envelopes.push(...early.filter((envelope) => envelope.thread_id === id));
  return {
    engine,
    thread,
    envelopes,
    events: () => envelopes.map((envelope) => envelope.event),
    next: (type, match) =>
      new Promise((resolve) => {
        const waiter = (envelope: EventEnvelope) => {
          const event = envelope.event;
          if (event.type !== type) return;
          if (match && !match(event as never)) return;
          waiters.delete(waiter);
          resolve(event as never);
        };
        waiters.add(waiter);
      }),
    close: async () => {
      await thread.close();
      unsubscribe();
      if (!options.engine) await engine.close();
    },
  };
}
