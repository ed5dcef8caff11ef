// A thread's sandboxed commands, in-process through the engine with its real model client against
// the loopback mock: after the first command (a sandbox of its own), the next ones run in copies
// started while the thread waited on the model (src/core/sandbox-refill.ts, exec/warm-sandbox.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { discardWarmSandboxes, warmSandboxStats } from '../../src/exec/warm-sandbox.js';
import { startTestThread, writeTestHome } from '../support/engine.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';

let base: string;
let mock: MockProvider;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-refill-')));
  mock = await startMockProvider();
});

afterAll(async () => {
  discardWarmSandboxes();
  await mock.close();
  fs.rmSync(base, { recursive: true, force: true });
});

it('a sandboxed session runs its later commands in sandboxes started while it waited on the model', async () => {
  const home = path.join(base, 'home');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws]);
  writeTestHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n', mock.url);
  const commands = ['echo one', 'echo two', 'echo three'];
  mock.enqueue(...commands.map((cmd) => ({ toolCalls: [{ name: 'exec_command', arguments: { cmd } }] })), { text: 'done' });
  const started = await startTestThread({ home, cwd: ws, request: { overrides: { harness: 'native', sandbox: 'workspace-write', approvalPolicy: 'never' } } });
  try {
    const before = warmSandboxStats();
    const result = await started.thread.startTurn({ text: 'run them' }).done;
    expect(result.status).toBe('completed');
    const outputs = started.events().flatMap((event) => (event.type === 'item.completed' && event.item.type === 'command_execution' ? [event.item.aggregated_output] : []));
    expect(outputs).toEqual(['one\n', 'two\n', 'three\n']);
    const after = warmSandboxStats();
    expect({ used: after.used - before.used, lastMiss: after.lastMiss, lastRefill: after.lastRefill }).toEqual({ used: 2, lastMiss: undefined, lastRefill: 'a model request went out' });
  } finally {
    await started.close();
  }
});
