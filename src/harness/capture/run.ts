// Runs an original once against a loopback server that records its requests and answers each
// with a short final message. The original runs under bubblewrap in a network namespace of its
// own, where only loopback exists: the server listens on a UNIX socket in the throwaway
// directory, and a small forwarder inside the namespace serves 127.0.0.1:PORT from that socket.
// So nothing but the recorder can be reached, and every attempt to reach another host fails.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { WireApi } from '../../model/types.js';
import { captureReply, wireOfPath } from './replies.js';
import type { CaptureRecipe } from './recipes.js';

/** The port the original is pointed at, inside its own network namespace (nothing else listens there). */
export const CAPTURE_PORT = 47_812;
const KEY = 'rig-capture-key-not-a-secret';
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'cookie']);

export interface RecordedRequest {
  method: string;
  path: string;
  /** Header names in the order sent, with values except for credentials. */
  headers: [string, string][];
  body: unknown;
}

export interface RunOutcome {
  requests: RecordedRequest[];
  code: number | null;
  stderr: string;
  stdout: string;
  workspace: string;
  home: string;
}

export interface RunOptions {
  recipe: CaptureRecipe;
  bin: string;
  wire: WireApi;
  model: string | undefined;
  prompt: string;
  /** Run without the network namespace (no bubblewrap on this system); the caller warns. */
  unsandboxed?: boolean;
  timeoutMs?: number;
  /** Where the throwaway directory goes (default: the system temp dir). */
  tmpRoot?: string;
  /** Keep the throwaway directory (for debugging). */
  keep?: boolean;
}

// Inside the namespace: serve 127.0.0.1:PORT from the recorder's socket, run the original, exit
// with its status. Written as plain JS for `node -e` (rig's bundle is not loaded there).
const FORWARDER = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, bin, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream); upstream.pipe(client);
  client.on('error', () => upstream.destroy()); upstream.on('error', () => client.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('error', (error) => { process.stderr.write(String(error) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 : code));
});
`;

/** The first executable called `name` on PATH, or the path itself when it has a slash. */
export function findOnPath(name: string, path = process.env['PATH'] ?? ''): string | undefined {
  const candidates = name.includes('/') ? [resolve(name)] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolvePromise(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function recordHeaders(request: IncomingMessage): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!.toLowerCase();
    out.push([name, SECRET_HEADERS.has(name) ? '(credential)' : request.rawHeaders[i + 1]!]);
  }
  return out;
}

function startRecorder(socketPath: string, model: () => string): Promise<{ requests: RecordedRequest[]; close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const text = await readBody(request);
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // a non-JSON body is recorded as text
      }
      const path = request.url ?? '/';
      requests.push({ method: request.method ?? 'GET', path, headers: recordHeaders(request), body });
      const wire = request.method === 'POST' ? wireOfPath(path) : undefined;
      if (!wire) {
        if (request.method === 'GET' && /\/models\/?(\?|$)/.test(path)) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ object: 'list', data: [{ id: model(), object: 'model', created: 0, owned_by: 'rig' }] }));
          return;
        }
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not served by the rig capture server', type: 'not_found' } }));
        return;
      }
      const bodyObject = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const reply = captureReply(wire, String(bodyObject['model'] ?? model()), requests.length, bodyObject['stream'] === true);
      response.writeHead(200, { 'content-type': reply.contentType, 'cache-control': 'no-cache' });
      response.end(reply.body);
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () =>
      resolvePromise({
        requests,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

/** The environment the original gets: no provider keys or settings of the user's, only basics. */
function cleanEnv(home: string, extra: Record<string, string>): Record<string, string> {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TERM'];
  const env: Record<string, string> = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: join(home, 'tmp'),
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

/**
 * The original sees an empty /tmp, except the folders under /tmp its own program (and the Node
 * that runs the forwarder) live in: an original installed in a temp prefix must still start.
 */
function bwrapArgs(dir: string, workspace: string, programs: string[]): string[] {
  const keep = new Set<string>();
  for (const program of programs) {
    let real: string;
    try {
      real = realpathSync(program);
    } catch {
      continue;
    }
    const parts = real.split('/');
    if (parts[1] === 'tmp' && parts.length > 3) keep.add(`/tmp/${parts[2]}`);
  }
  return [
    '--unshare-net',
    '--die-with-parent',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    ...[...keep].flatMap((path) => ['--ro-bind', path, path]),
    '--bind', dir, dir,
    '--chdir', workspace,
  ];
}

/** One run of the original; resolves when it exits (or is killed at the timeout). */
export async function runOriginal(options: RunOptions): Promise<RunOutcome> {
  const dir = realpathSync(mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'rig-capture-')));
  const home = join(dir, 'home');
  const workspace = join(dir, 'work');
  for (const sub of [home, workspace, join(home, 'tmp'), join(home, '.config'), join(home, '.cache')]) mkdirSync(sub, { recursive: true });
  // In its own namespace the port is free by construction; without one, take a free port here.
  const port = options.unsandboxed ? await freePort() : CAPTURE_PORT;
  const root = `http://127.0.0.1:${port}`;
  const run = options.recipe.prepare({ wire: options.wire, home, workspace, root, v1: `${root}/v1`, model: options.model, prompt: options.prompt, key: KEY });
  for (const [file, content] of Object.entries(run.files)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  // A git repository with no history: what most originals expect a project to be, and nothing of the user's.
  await spawnQuiet('git', ['init', '-q', workspace]);
  const socketPath = join(dir, 'recorder.sock');
  const recorder = await startRecorder(socketPath, () => options.model ?? options.recipe.defaultModel ?? 'model');
  const env = cleanEnv(home, run.env);
  const bin = isAbsolute(options.bin) ? options.bin : resolve(options.bin);
  const inner = [process.execPath, '-e', FORWARDER, socketPath, String(port), bin, ...run.args];
  const [command, args] = options.unsandboxed ? [inner[0]!, inner.slice(1)] : ['bwrap', [...bwrapArgs(dir, workspace, [bin, process.execPath]), '--', ...inner]];
  try {
    const result = await spawnCollect(command, args, { env, cwd: workspace, timeoutMs: options.timeoutMs ?? 180_000 });
    return { requests: recorder.requests, code: result.code, stderr: result.stderr, stdout: result.stdout, workspace, home };
  } finally {
    await recorder.close();
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePromise(typeof address === 'object' && address ? address.port : CAPTURE_PORT));
    });
  });
}

function spawnQuiet(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', () => resolvePromise());
    child.on('exit', () => resolvePromise());
  });
}

interface Collected {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnCollect(command: string, args: string[], options: { env: Record<string, string>; cwd: string; timeoutMs: number }): Promise<Collected> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString('utf8')).slice(-20_000)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-20_000)));
    const timer = setTimeout(() => {
      stderr += `\n(rig: stopped after ${Math.round(options.timeoutMs / 1000)} s)`;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** `bin --version`, run like the capture (no network, throwaway home); the first line, or `unknown`. */
export async function probeVersion(bin: string, unsandboxed = false): Promise<string> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rig-capture-version-')));
  try {
    const home = join(dir, 'home');
    mkdirSync(join(home, 'tmp'), { recursive: true });
    const env = cleanEnv(home, {});
    const [command, args] = unsandboxed ? [bin, ['--version']] : ['bwrap', [...bwrapArgs(dir, dir, [bin, process.execPath]), '--', bin, '--version']];
    const result = await spawnCollect(command, args, { env, cwd: dir, timeoutMs: 30_000 });
    const line = `${result.stdout}\n${result.stderr}`.split('\n').map((text) => text.trim()).find((text) => /\d+\.\d+/.test(text));
    return line ? (/\d+\.\d+[\w.+-]*/.exec(line)?.[0] ?? line) : 'unknown';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
