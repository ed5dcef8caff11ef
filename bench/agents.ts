// Sub-agent figures (bench/main.ts loads this module when it is there):
//   benchAgentSpawn     from the moment the root's model asks for spawn_agent (its stream ends)
//                       to the child's first model request: what rig adds to start a child thread
//                       (config, harness, sandbox policy, rollout, its first request; target <= 30 ms)
//   benchAgentsParallel 8 children spawned in one step, each running a sandboxed command and
//                       answering, while the root waits: the wall time and the errors (target: none)
// Both run in-process on a real engine with scripted model clients (no network, no provider).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../src/core/engine.js';
import type { ModelClient, ModelRequest } from '../src/model/types.js';
import type { ConversationItem, ModelEvent } from '../src/protocol/index.js';
import { removeDir, tempDir, tempGitRepo } from '../test/support/workspace.js';

const USAGE = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function say(text: string): ModelEvent[] {
  return [
    { type: 'created' },
    { type: 'item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } },
    { type: 'completed', stop_reason: 'end_turn', usage: USAGE },
  ];
}

function calls(...items: { name: string; args: unknown }[]): ModelEvent[] {
  return [
    { type: 'created' },
    ...items.map(
      (item, index): ModelEvent => ({ type: 'item_done', item: { type: 'function_call', call_id: `call_${index}_${item.name}`, name: item.name, arguments: JSON.stringify(item.args) } as ConversationItem }),
    ),
    { type: 'completed', stop_reason: 'tool_use', usage: USAGE },
  ];
}

/** A client whose answers are a function of the request. */
function client(answer: (request: ModelRequest) => ModelEvent[], onRequest?: () => void, onStreamEnd?: () => void): ModelClient {
  return {
    wire: 'responses',
    buildBody: (request) => ({ model: request.model }),
    async *stream(request) {
      onRequest?.();
      yield* answer(request);
      onStreamEnd?.();
    },
  };
}

function notifications(request: ModelRequest): number {
  return JSON.stringify(request.input).split('<subagent_notification>').length - 1;
}

function home(maxThreads: number): string {
  const dir = tempDir('bench-agents-home');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.toml'),
    [
      'model_provider = "mock"',
      'model = "root-model"',
      '[features]',
      'multi_agent_v2 = true',
      '[agents]',
      'enabled = true',
      `max_threads = ${maxThreads}`,
      'default_subagent_model = "child-model"',
      '[model_providers.mock]',
      'name = "Mock"',
      'base_url = "http://127.0.0.1:9/v1"',
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      '',
    ].join('\n'),
  );
  return dir;
}

async function runSession(children: number, childClient: () => ModelClient, rootAnswer: (request: ModelRequest) => ModelEvent[], rootHooks: { onStreamEnd?: () => void } = {}) {
  const rigHome = home(Math.max(children, 1));
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  let built = 0;
  const engine = new Engine({
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: rigHome, RIG_HOME: rigHome, MOCK_API_KEY: 'sk-bench' },
    home: rigHome,
    source: 'bench',
    modelClient: () => (built++ === 0 ? client(rootAnswer, undefined, rootHooks.onStreamEnd) : childClient()),
  });
  try {
    const thread = await engine.startThread({ cwd: repo, ephemeral: true, overrides: { harness: 'native', sandbox: 'workspace-write' } });
    const result = await thread.startTurn({ text: 'delegate' }).done;
    return result;
  } finally {
    await engine.close();
    removeDir(rigHome);
    removeDir(repo);
  }
}

export async function benchAgentSpawn(runs = 7): Promise<{ spawnToFirstRequestMs: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    let spawnAsked = 0;
    let firstChildRequest = 0;
    let step = 0;
    await runSession(
      1,
      () => client(() => say('child done'), () => (firstChildRequest ||= performance.now())),
      (request) => {
        step++;
        if (step === 1) return calls({ name: 'spawn_agent', args: { task_name: 'worker', fork_turns: 'none', message: 'work' } });
        if (notifications(request) === 0) return calls({ name: 'wait_agent', args: { timeout_ms: 30000 } });
        return say('root done');
      },
      { onStreamEnd: () => (spawnAsked ||= performance.now()) },
    );
    // The first run warms the modules a child thread loads.
    if (i > 0) samples.push(firstChildRequest - spawnAsked);
  }
  return { spawnToFirstRequestMs: median(samples) };
}

export async function benchAgentsParallel(): Promise<{ eightChildrenMs: number; errorCount: number }> {
  const count = 8;
  let errors = 0;
  let step = 0;
  const started = performance.now();
  const result = await runSession(
    count,
    () => {
      let childStep = 0;
      return client((request) => {
        childStep++;
        if (childStep === 1) return calls({ name: 'exec_command', args: { cmd: 'echo working && ls' } });
        const output = JSON.stringify(request.input.at(-1));
        if (!output.includes('working')) errors++;
        return say('child done');
      });
    },
    (request) => {
      step++;
      if (step === 1) return calls(...Array.from({ length: count }, (_, i) => ({ name: 'spawn_agent', args: { task_name: `worker_${i}`, fork_turns: 'none', message: `task ${i}` } })));
      if (step === 2) {
        const outputs = request.input.filter((item) => item.type === 'function_call_output');
        errors += outputs.filter((item) => !JSON.stringify(item).includes('nickname')).length;
      }
      if (notifications(request) < count) return calls({ name: 'wait_agent', args: { timeout_ms: 60000 } });
      return say('root done');
    },
  );
  if (result.status !== 'completed') errors++;
  return { eightChildrenMs: performance.now() - started, errorCount: errors };
}
