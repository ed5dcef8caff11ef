// One scripted session through one agent (rig or Codex) against its own loopback mock, timed from
// the mock's side: when each request arrived, when its answer had been written, the bytes each
// request carried, and the agent's process tree memory sampled from /proc meanwhile.
//
// Step overhead: step k's gap is the time from the mock having written response k (a tool call)
// to request k+1 having fully arrived: the agent reads the stream, runs the tool, records it and
// sends the next request. The tool's own run time (the same command spawned bare by the bench,
// measured separately) is subtracted by the caller.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startMockProvider, type MockRequest, type MockTurn } from '../test/support/mock-provider/index.js';
import { removeDir, tempRigHome } from '../test/support/workspace.js';
import { sampleTree, type TreeMemory } from './proc-tree.js';
import { scriptTurns, sessionWorkspace, workspaceProblem, type SessionScript, type StepKind } from './scripted-session.js';

export type AgentName = 'rig' | 'codex';

export interface Agent {
  name: AgentName;
  /** The program and its leading arguments (`node bin/rig.js`, or the Codex binary). */
  command: string[];
  /** Where the agent's home directories go (Codex refuses helper binaries under the system temp dir). */
  homeRoot?: string;
  /** Extra environment for the agent (investigations: allocator settings, profiler paths). */
  env?: Record<string, string>;
  /** rig only: the wire it speaks to the mock (Codex always speaks Responses). Default responses. */
  wire?: SessionWire;
}

/** The wires a scripted session can run over; the mock answers each in its own format. */
export type SessionWire = 'responses' | 'chat' | 'messages';
export const SESSION_WIRES: readonly SessionWire[] = ['responses', 'chat', 'messages'];

/** A wire's name as its provider calls it, for titles. */
export const WIRE_TITLES: Record<SessionWire, string> = { responses: 'Responses', chat: 'Chat Completions', messages: 'Anthropic Messages' };

/** `on`: workspace-write with each agent's own sandbox; `off`: no sandbox (both bypass it). */
export type SandboxChoice = 'on' | 'off';

export interface StepTiming {
  kind: StepKind;
  /** Mock wrote response k -> request k+1 fully arrived, ms. */
  gapMs: number;
}

export interface SessionRun {
  agent: AgentName;
  spawnedAt: number;
  firstRequestMs: number;
  wallMs: number;
  bytesSent: number;
  /** Body bytes of each request, in order. */
  requestBytes: number[];
  /** Length of the last request's `input` as JSON: the conversation the agent sent at the end. */
  historyBytes: number;
  steps: StepTiming[];
  /** When request n (0-based) arrived, performance.now(). */
  arrivals: number[];
  memory: TreeMemory;
  /** Requests that do not start with the whole previous request (see prefixBreaks). */
  prefixBreaks: string[];
}

const MODEL = 'gpt-5.5';
const PROMPT = 'Run the scripted steps.';

function codexConfig(url: string): string {
  return [
    `model = "${MODEL}"`,
    'model_provider = "mock"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${url}"`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    '',
  ].join('\n');
}

function agentHome(agent: Agent, url: string): string {
  if (agent.name === 'rig') {
    // No step cap is given: rig's default has none, as Codex has none.
    return tempRigHome({ url, model: MODEL, wire: agent.wire ?? 'responses' });
  }
  const root = agent.homeRoot!;
  mkdirSync(root, { recursive: true });
  const home = mkdtempSync(join(root, 'codex-home-'));
  writeFileSync(join(home, 'config.toml'), codexConfig(url));
  return home;
}

function agentArgs(agent: Agent, sandbox: SandboxChoice): string[] {
  const sandboxArgs = sandbox === 'on' ? ['--sandbox', 'workspace-write', '-c', 'approval_policy="never"'] : ['--dangerously-bypass-approvals-and-sandbox'];
  // rig's native harness on every wire (over Messages it would otherwise pick Claude Code's tools).
  const harness = agent.name === 'rig' ? ['-c', 'harness="native"'] : [];
  return ['exec', '--json', ...sandboxArgs, ...harness, PROMPT];
}

function agentEnv(agent: Agent, home: string): NodeJS.ProcessEnv {
  // RIG_WARM_SANDBOX=0 in the bench's own environment reaches rig: an A/B of the sandboxes started ahead.
  const warm = process.env['RIG_WARM_SANDBOX'];
  const own = agent.name === 'rig' ? { RIG_HOME: home, ...(warm !== undefined ? { RIG_WARM_SANDBOX: warm } : {}) } : { CODEX_HOME: home };
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...own, MOCK_API_KEY: 'sk-bench-0123456789', ...agent.env };
}

function bodyBytes(request: MockRequest): number {
  const length = Number.parseInt(request.headers['content-length'] ?? '', 10);
  if (Number.isFinite(length)) return length;
  return Buffer.byteLength(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
}

/** A request body as the checks below read it, whatever the wire: the history, and what comes with it. */
interface RequestView {
  instructions: unknown;
  tools: unknown;
  history: Record<string, unknown>[];
  /** The text of the output sent back for `callId`, if the request carries one. */
  outputOf(callId: string): string | undefined;
}

function viewOf(request: MockRequest): RequestView {
  const body = request.body as Record<string, unknown>;
  if (request.wire === 'chat') {
    // The system prompt is the first message; the rest is the conversation.
    const messages = (body['messages'] as Record<string, unknown>[] | undefined) ?? [];
    const [first, ...rest] = messages;
    const system = first?.['role'] === 'system';
    const history = system ? rest : messages;
    return {
      instructions: system ? first['content'] : undefined,
      tools: body['tools'],
      history,
      outputOf: (callId) => {
        const message = history.find((m) => m['role'] === 'tool' && m['tool_call_id'] === callId);
        return message === undefined ? undefined : textOf(message['content']);
      },
    };
  }
  if (request.wire === 'messages') {
    // The prompt-caching marker moves to the newest message on every request; where it sits is not
    // part of the cached prefix, so it is left out of the comparison.
    const history = ((body['messages'] as Record<string, unknown>[] | undefined) ?? []).map(withoutCacheMarks);
    return {
      instructions: withoutCacheMarks(body['system']),
      tools: withoutCacheMarks(body['tools']),
      history,
      outputOf: (callId) => {
        for (const message of history) {
          const blocks = Array.isArray(message['content']) ? (message['content'] as Record<string, unknown>[]) : [];
          const result = blocks.find((block) => block['type'] === 'tool_result' && block['tool_use_id'] === callId);
          if (result) return textOf(result['content']);
        }
        return undefined;
      },
    };
  }
  const input = (body['input'] as Record<string, unknown>[] | undefined) ?? [];
  return {
    instructions: body['instructions'],
    tools: body['tools'],
    history: input,
    outputOf: (callId) => {
      const item = input.find((i) => i['call_id'] === callId && /_output$/.test(String(i['type'])));
      return item === undefined ? undefined : textOf(item['output']);
    },
  };
}

/** `value` with every `cache_control` field removed, at any depth. */
function withoutCacheMarks<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutCacheMarks) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (key !== 'cache_control') copy[key] = withoutCacheMarks(field);
  return copy as T;
}

function textOf(output: unknown): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/**
 * Requests that do not start with the whole previous request: the same instructions and tools,
 * and the previous history items, unchanged, as the first items of this one (a cache-friendly prompt).
 */
export function prefixBreaks(requests: readonly MockRequest[]): string[] {
  const breaks: string[] = [];
  const views = requests.map(viewOf);
  for (let n = 1; n < views.length; n++) {
    const before = views[n - 1]!;
    const after = views[n]!;
    for (const field of ['instructions', 'tools'] as const) {
      if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) breaks.push(`request ${n + 1}: ${field} changed`);
    }
    const changed = before.history.findIndex((item, i) => JSON.stringify(item) !== JSON.stringify(after.history[i]));
    if (changed >= 0) breaks.push(`request ${n + 1}: history item ${changed} differs from request ${n}'s`);
  }
  return breaks;
}

/** Whether each tool call succeeded, read off the outputs the agent sent back. */
function toolProblem(script: SessionScript, requests: readonly MockRequest[]): string | undefined {
  for (const [i, kind] of script.kinds.entries()) {
    const callId = `call_${i + 1}_0`;
    const next = requests[i + 1];
    const text = next === undefined ? undefined : viewOf(next).outputOf(callId);
    if (text === undefined) return `step ${i + 1} (${kind}): request ${i + 2} carries no output for ${callId}`;
    const ok = kind === 'shell' || kind === 'cat' ? /exited with code 0/.test(text) : /Success/.test(text);
    if (!ok) return `step ${i + 1} (${kind}) failed: ${text.slice(0, 400)}`;
  }
  return undefined;
}

export interface SessionHooks {
  /** Called as request n (1-based) arrives, before it is answered (e.g. to signal the agent for a heap snapshot). */
  onRequest?: (n: number, pid: number) => void;
}

export async function runAgentSession(agent: Agent, script: SessionScript, sandbox: SandboxChoice, hooks: SessionHooks = {}): Promise<SessionRun> {
  const mock = await startMockProvider();
  const workspace = sessionWorkspace(script);
  const home = agentHome(agent, mock.url);
  const arrivals: number[] = [];
  const answered: number[] = [];
  // The answer is written synchronously after the turn function returns; setImmediate runs after that write.
  let pid = 0;
  const stamp = (turn: MockTurn) => (request: MockRequest): MockTurn => {
    const n = arrivals.length;
    // Its last byte, not this call: the mock's own decoding and JSON.parse of a body that grows
    // to ~350 KB in the soak (~2 ms) is not the agent's time.
    arrivals.push(request.receivedAt);
    hooks.onRequest?.(n + 1, pid);
    setImmediate(() => (answered[n] = performance.now()));
    return turn;
  };
  mock.enqueue(...scriptTurns(script).map(stamp));
  try {
    const [program, ...leading] = agent.command;
    const spawnedAt = performance.now();
    const child = spawn(program!, [...leading, ...agentArgs(agent, sandbox)], { cwd: workspace, env: agentEnv(agent, home), stdio: ['ignore', 'pipe', 'pipe'] });
    pid = child.pid!;
    const sampler = sampleTree(pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-20_000)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const exitedAt = performance.now();
    const memory = sampler.stop();
    const what = `${agent.name} (${script.steps}-step session)`;
    if (code !== 0) throw new Error(`${what} exited ${code}\n--- stdout\n${stdout.slice(-2000)}\n--- stderr\n${stderr.slice(-2000)}`);
    const requests = mock.requests.filter((request) => request.wire === (agent.wire ?? 'responses'));
    if (requests.length !== script.steps + 1 || mock.remaining() !== 0) {
      throw new Error(`${what} made ${requests.length} model requests, expected ${script.steps + 1}\n--- stderr\n${stderr.slice(-2000)}`);
    }
    const problem = toolProblem(script, requests) ?? workspaceProblem(script, workspace);
    if (problem) throw new Error(`${what}: ${problem}`);
    const requestBytes = requests.map(bodyBytes);
    const last = requests[requests.length - 1]!;
    return {
      agent: agent.name,
      spawnedAt,
      firstRequestMs: arrivals[0]! - spawnedAt,
      wallMs: exitedAt - spawnedAt,
      bytesSent: requestBytes.reduce((sum, bytes) => sum + bytes, 0),
      requestBytes,
      historyBytes: Buffer.byteLength(JSON.stringify(viewOf(last).history)),
      steps: script.kinds.map((kind, i) => ({ kind, gapMs: arrivals[i + 1]! - answered[i]! })),
      arrivals,
      memory,
      prefixBreaks: prefixBreaks(requests),
    };
  } finally {
    await mock.close();
    removeDir(workspace);
    removeDir(home);
  }
}
