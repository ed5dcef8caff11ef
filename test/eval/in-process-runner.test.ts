// The in-process runner keeps trials that share the eval process apart: each has its own engine
// thread and process scope, so finishing one trial kills the session its agent left running and
// nothing of a trial beside it; and an agent that does not stop when interrupted (a model stream
// that ignores the abort) is abandoned after the grace period instead of holding up the run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../src/model/types.js';
import type { ModelEvent, TokenUsage } from '../../src/protocol/index.js';
import { InProcessRunner } from '../../src/eval/runner/in-process.js';
import type { AgentObserver, AgentRequest } from '../../src/eval/runner/types.js';
import { processesWith, waitUntil } from '../frontends/exec/helpers.js';
import { testEnv, writeTestHome } from '../support/engine.js';
import { ScriptedClient, call, callTools, say } from '../support/scripted-client.js';
import { removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function setup(names: string[]): { home: string; workspace: (name: string) => string; request: (name: string, prompt?: string) => AgentRequest } {
  const root = tempDir('in-process-runner');
  dirs.push(root);
  const home = join(root, 'home');
  writeTestHome(home);
  for (const name of names) {
    mkdirSync(join(root, name, 'ws'), { recursive: true });
    mkdirSync(join(root, name, 'tmp'), { recursive: true });
  }
  const workspace = (name: string) => join(root, name, 'ws');
  return {
    home,
    workspace,
    request: (name, prompt = `trial ${name}`) => ({
      workspace: workspace(name),
      prompt,
      harness: 'native',
      model: 'mock-model',
      provider: 'mock',
      config: [],
      env: testEnv(home, { TMPDIR: join(root, name, 'tmp') }),
    }),
  };
}

function observer(): AgentObserver & { usages: TokenUsage[]; types: string[] } {
  const usages: TokenUsage[] = [];
  const types: string[] = [];
  return { usages, types, event: (event) => void types.push(event.type), usage: (total) => void usages.push(total) };
}

/** A client each trial's engine gets, chosen by the trial's workspace. */
function clientsByWorkspace(clients: Record<string, ModelClient>): (provider: unknown, settings: { cwd: string }) => ModelClient {
  return (_provider, settings) => {
    const client = clients[settings.cwd];
    if (!client) throw new Error(`no scripted client for ${settings.cwd}`);
    return client;
  };
}

describe('the in-process runner', () => {
  it('runs trials side by side in one process: ending one kills what its agent left running, not the other trial\'s command', async () => {
    const { workspace, request } = setup(['left', 'waiting']);
    const leftover = 'sleep 612';
    const waitCommand = 'while [ ! -e GO ]; do sleep 0.05; done; echo ok > done.txt';
    const runner = new InProcessRunner({
      modelClient: clientsByWorkspace({
        // Starts a long command, lets it run on in the background, and stops.
        [workspace('left')]: new ScriptedClient([callTools(call('exec_command', { cmd: leftover, yield_time_ms: 250 })), say('left it running')]),
        // Waits for the test's go-ahead, then writes its file.
        [workspace('waiting')]: new ScriptedClient([callTools(call('exec_command', { cmd: waitCommand, yield_time_ms: 30_000 })), say('done')]),
      }),
    });
    const never = new AbortController().signal;
    const leftObserver = observer();
    const waiting = runner.run(request('waiting'), observer(), never);
    await waitUntil(() => processesWith('[ ! -e GO ]').length > 0, 20_000, 'the waiting trial\'s command');
    const left = await runner.run(request('left'), leftObserver, never);

    expect(left.status).toBe('completed');
    expect(left.threadId).toBeDefined();
    expect(existsSync(left.rolloutPath!)).toBe(true);
    expect(leftObserver.usages.length).toBeGreaterThan(0);
    expect(leftObserver.types).toContain('thread.closed');
    // The session it left behind died with its thread; the other trial's command runs on.
    await waitUntil(() => processesWith(leftover).length === 0, 5000, 'the left-over session to be killed');
    expect(processesWith('[ ! -e GO ]').length).toBeGreaterThan(0);

    writeFileSync(join(workspace('waiting'), 'GO'), '');
    const done = await waiting;
    expect(done.status).toBe('completed');
    expect(done.threadId).not.toBe(left.threadId);
    expect(existsSync(join(workspace('waiting'), 'done.txt'))).toBe(true);
  }, 60_000);

  it('gives up on an agent that does not stop when interrupted, and the trial beside it finishes', async () => {
    const { workspace, request } = setup(['stuck', 'fine']);
    let asked!: () => void;
    const stuckAsked = new Promise<void>((resolve) => (asked = resolve));
    const stuck: ModelClient = {
      wire: 'responses',
      buildBody: () => ({}),
      // A stream that never yields and ignores its abort signal.
      stream(): AsyncIterable<ModelEvent> {
        asked();
        return { [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<ModelEvent>>(() => undefined) }) };
      },
    };
    const runner = new InProcessRunner({
      stopGraceMs: 300,
      modelClient: clientsByWorkspace({ [workspace('stuck')]: stuck, [workspace('fine')]: new ScriptedClient([say('all good')]) }),
    });
    const stop = new AbortController();
    const stuckRun = runner.run(request('stuck'), observer(), stop.signal);
    await stuckAsked;
    const fine = await runner.run(request('fine'), observer(), new AbortController().signal);
    expect(fine.status).toBe('completed');

    const stoppedAt = performance.now();
    stop.abort('timeout');
    const outcome = await stuckRun;
    expect(outcome.status).toBe('interrupted');
    expect(outcome.error).toMatch(/did not stop within 0\.3 s of the interrupt and was abandoned/);
    expect(outcome.threadId).toBeDefined();
    // The interrupt's grace, then closing's grace: not the trial's whole budget.
    expect(performance.now() - stoppedAt).toBeLessThan(5000);
  }, 60_000);

  it('reports an agent that cannot start as crashed, without a thread', async () => {
    const { request } = setup(['bad']);
    const runner = new InProcessRunner({ modelClient: () => new ScriptedClient([]) });
    const outcome = await runner.run({ ...request('bad'), harness: 'no-such-harness' }, observer(), new AbortController().signal);
    expect(outcome.status).toBe('crashed');
    expect(outcome.error).toMatch(/^the agent could not start: .*no-such-harness/);
    expect(outcome.threadId).toBeUndefined();
  }, 30_000);
});
