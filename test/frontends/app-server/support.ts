// Helpers for the `rig app-server` protocol tests: the real binary as a JSON-line peer, and the
// protocol as the installed Codex generates it (JSON Schema and TypeScript, into a temp dir at
// test time, removed by each test file's afterAll; nothing of it is kept in the repository), with
// an ajv validator for every message rig sends.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, RIG_BIN, removeDir, tempDir } from '../../support/workspace.js';

/** The platform binary the `@openai/codex` dev dependency installs. */
export function codexBinary(): string {
  const scope = join(REPO_ROOT, 'node_modules', '@openai');
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const pkg = join(scope, `codex-${process.platform}-${arch}`, 'vendor');
  if (!existsSync(pkg)) throw new Error(`no Codex binary for ${process.platform}-${arch} under ${scope}; run npm ci`);
  for (const target of readdirSync(pkg)) {
    const bin = join(pkg, target, 'bin', 'codex');
    if (existsSync(bin)) return bin;
  }
  throw new Error(`no bin/codex under ${pkg}`);
}

export interface CodexProtocol {
  readonly schemaDir: string;
  readonly tsDir: string;
}

let generated: { dir: string; schema?: string; ts?: string } | undefined;
let validator: CodexValidator | undefined;

function generate(what: 'generate-json-schema' | 'generate-ts', name: 'schema' | 'ts'): string {
  if (!generated) {
    generated = { dir: tempDir('codex-protocol') };
  }
  const known = generated[name];
  if (known) return known;
  const dir = generated.dir;
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, CODEX_HOME: join(dir, 'codex-home') };
  mkdirSync(env.CODEX_HOME, { recursive: true });
  execFileSync(codexBinary(), ['app-server', what, '--out', join(dir, name)], { env, stdio: 'ignore' });
  generated[name] = join(dir, name);
  return join(dir, name);
}

/** Removes the generated files (several MB); call from the test file's afterAll. */
export function removeCodexProtocol(): void {
  if (generated) removeDir(generated.dir);
  generated = undefined;
  validator = undefined;
}

/** Codex's own protocol files, generated (each once per test file) with a throwaway CODEX_HOME. */
export function codexProtocol(): CodexProtocol {
  return {
    get schemaDir() {
      return generate('generate-json-schema', 'schema');
    },
    get tsDir() {
      return generate('generate-ts', 'ts');
    },
  };
}

type Json = Record<string, unknown>;

/** Validates what a server sends against Codex's schema: notifications, requests, responses, errors. */
export class CodexValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly responseTypes = new Map<string, string>();

  constructor(private readonly schemaDir: string) {
    const clientRequests = this.read('ClientRequest.json') as { oneOf: { properties: { method: { enum: string[] }; params?: { $ref?: string } } }[] };
    for (const branch of clientRequests.oneOf) {
      const method = branch.properties.method.enum[0]!;
      const params = branch.properties.params?.$ref?.split('/').pop();
      if (params) this.responseTypes.set(method, params.replace(/Params$/, 'Response'));
    }
  }

  private read(file: string): Json {
    return JSON.parse(readFileSync(join(this.schemaDir, file), 'utf8')) as Json;
  }

  private validator(file: string): ValidateFunction {
    let validate = this.cache.get(file);
    if (!validate) {
      validate = this.ajv.compile(this.read(file));
      this.cache.set(file, validate);
    }
    return validate;
  }

  /** Problems with one message rig sent; `methodOf` names the client request a response answers. */
  problems(message: Json, methodOf: (id: unknown) => string | undefined): string[] {
    const check = (file: string, value: unknown): string[] => {
      const validate = this.validator(file);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${file}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    };
    if ('method' in message) return check('id' in message ? 'ServerRequest.json' : 'ServerNotification.json', message);
    // An error about a line that had no usable id (unparseable, not an object) carries id null as
    // JSON-RPC 2.0 says; Codex's schema only describes errors answering a request, so only the
    // error body is checked there.
    if ('error' in message) return message['id'] === null ? check('JSONRPCErrorError.json', message['error']) : check('JSONRPCError.json', message);
    const envelope = check('JSONRPCResponse.json', message);
    const method = methodOf(message['id']);
    // rig's own extensions are not Codex's to describe.
    if (method?.startsWith('rig/')) return envelope;
    const type = method ? this.responseTypes.get(method) : undefined;
    if (!type) return [...envelope, `response to ${method ?? 'an unknown request'}: Codex has no such method`];
    const file = existsSync(join(this.schemaDir, 'v2', `${type}.json`)) ? `v2/${type}.json` : `v1/${type}.json`;
    return [...envelope, ...check(file, message['result'])];
  }
}

export interface Peer {
  child: ChildProcess;
  /** Every message the server sent, in order. */
  received: Json[];
  stderr(): string;
  send(message: Json): void;
  request(method: string, params?: unknown): Promise<Json>;
  notify(method: string, params?: unknown): void;
  /** The next message (from now on, or already received after `from`) matching `match`. */
  next(match: (message: Json) => boolean, from?: number): Promise<Json>;
  /** Method of the client request with this id (for validating responses). */
  methodOf(id: unknown): string | undefined;
  /** Records a request written raw with `child.stdin`, so its response is validated too. */
  noteRequest(id: unknown, method: string): void;
  /** Ends stdin and waits for the process to exit. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

export function spawnAppServer(options: { cwd: string; home: string; args?: string[]; env?: Record<string, string> }): Peer {
  const child = spawn(process.execPath, [RIG_BIN, 'app-server', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: options.home, RIG_HOME: options.home, MOCK_API_KEY: 'sk-mock-secret-0123456789', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const received: Json[] = [];
  const waiters = new Set<(message: Json) => boolean>();
  const methods = new Map<unknown, string>();
  let stderr = '';
  let nextId = 1000;
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.on('error', () => {});
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as Json;
    received.push(message);
    for (const waiter of [...waiters]) if (waiter(message)) waiters.delete(waiter);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const send = (message: Json) => child.stdin!.write(`${JSON.stringify(message)}\n`);
  const next = (match: (message: Json) => boolean, from = received.length): Promise<Json> => {
    const seen = received.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = (message: Json) => {
        if (!match(message)) return false;
        resolve(message);
        return true;
      };
      waiters.add(waiter);
      void exited.then(() => {
        if (waiters.delete(waiter)) reject(new Error(`rig app-server exited before the awaited message; stderr:\n${stderr}`));
      });
    });
  };
  return {
    child,
    received,
    stderr: () => stderr,
    send,
    notify: (method, params) => send({ method, ...(params === undefined ? {} : { params }) }),
    request: async (method, params) => {
      const id = nextId++;
      methods.set(id, method);
      const from = received.length;
      send({ id, method, ...(params === undefined ? {} : { params }) });
      return next((m) => m['id'] === id && !('method' in m), from);
    },
    next,
    methodOf: (id) => methods.get(id),
    noteRequest: (id, method) => void methods.set(id, method),
    close: () => {
      child.stdin!.end();
      return exited;
    },
    exited,
  };
}

export async function initialize(peer: Peer): Promise<Json> {
  const response = await peer.request('initialize', { clientInfo: { name: 'rig-test', title: null, version: '1.0.0' }, capabilities: null });
  peer.notify('initialized');
  return response;
}


/** Every problem Codex's schema finds with what this server sent so far. */
export function conformanceProblems(peer: Peer): string[] {
  validator ??= new CodexValidator(codexProtocol().schemaDir);
  const v = validator;
  return peer.received.flatMap((message, index) => v.problems(message, (id) => peer.methodOf(id)).map((problem) => `message #${index} ${JSON.stringify(message).slice(0, 300)}: ${problem}`));
}

/** The text user input Codex's clients send. */
export function text(value: string): Json[] {
  return [{ type: 'text', text: value, text_elements: [] }];
}

/** `result` of a response, or a thrown error naming the JSON-RPC error. */
export function resultOf<T = Json>(response: Json): T {
  if ('error' in response) throw new Error(`expected a result, got error ${JSON.stringify(response['error'])}`);
  return response['result'] as T;
}

/**
 * The per-test setup of the app-server tests: a mock provider per test (a failing test leaves no
 * scripted turn for the next), every peer closed and its messages checked against Codex's schema
 * after each test, temp folders and the generated protocol removed at the end. `onMock` receives
 * each test's mock; push peers and folders onto the returned lists.
 */
export function useAppServerTests(onMock: (mock: MockProvider) => void): { dirs: string[]; peers: Peer[] } {
  const dirs: string[] = [];
  const peers: Peer[] = [];
  let mock: MockProvider | undefined;
  beforeEach(async () => {
    mock = await startMockProvider();
    onMock(mock);
  });
  afterEach(async () => {
    for (const peer of peers.splice(0)) {
      await peer.close();
      expect(conformanceProblems(peer)).toEqual([]);
    }
    await mock?.close();
  });
  afterAll(() => {
    removeCodexProtocol();
    for (const dir of dirs) removeDir(dir);
  });
  return { dirs, peers };
}
