// rig demo: the recorded session replays offline in a temp copy of the example and really fixes it;
// replay tolerates different tool outputs but not a different course of the session.
import { afterAll, describe, expect, test } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_EXAMPLE, DEMO_PROMPT, DEMO_RECORDING, findExamplesDir, runDemo, runExampleTests } from '../../../src/frontends/demo.js';
import { runDefault } from '../../../src/frontends/default-run.js';
import { ReplayClient } from '../../../src/model/replay.js';
import type { ConversationItem, ModelEvent } from '../../../src/protocol/index.js';
import { removeDir, tempDir } from '../../support/workspace.js';

const examples = findExamplesDir()!;
const scratch: string[] = [];
afterAll(() => scratch.forEach(removeDir));

function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  scratch.push(dir);
  return dir;
}

/** An environment with no provider keys at all, and a home that is not the real one. */
function offlineEnv(): NodeJS.ProcessEnv {
  const home = scratchDir('demo-home');
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home };
}

function capture(): { out: string[]; write: (text: string) => void; text: () => string } {
  const out: string[] = [];
  return { out, write: (text) => void out.push(text), text: () => out.join('') };
}

describe('rig demo', () => {
  test('replays the recording offline and fixes the bug in a temp copy', async () => {
    const original = readFileSync(join(examples, DEMO_EXAMPLE, 'src', 'cart.js'), 'utf8');
    expect(original).toContain('for (let i = 1; i < lines.length; i++)');
    expect(runExampleTests(join(examples, DEMO_EXAMPLE)).pass).toBe(false);

    const output = capture();
    const result = await runDemo({ env: offlineEnv(), stdout: output.write, stderr: output.write, color: false, tempParent: scratchDir('demo') });

    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(result.testsPass).toBe(true);
    const fixed = readFileSync(join(result.workdir, 'src', 'cart.js'), 'utf8');
    expect(fixed).toContain('for (let i = 0; i < lines.length; i++)');
    expect(runExampleTests(result.workdir)).toEqual({ pass: true, summary: '4 passed, 0 failed' });
    // The example in the repository is untouched.
    expect(readFileSync(join(examples, DEMO_EXAMPLE, 'src', 'cart.js'), 'utf8')).toBe(original);
    const text = output.text();
    expect(text).toContain(DEMO_PROMPT);
    expect(text).toContain('$ node --test');
    expect(text).toContain('Tests before: 2 passed, 2 failed');
    expect(text).toContain('Tests after: 4 passed, 0 failed');
    expect(text).toContain('all 4 tests pass');
  }, 60_000);

  test('a changed project still replays: tool outputs may differ from the recording', async () => {
    const example = join(scratchDir('demo-example'), DEMO_EXAMPLE);
    cpSync(join(examples, DEMO_EXAMPLE), example, { recursive: true });
    // One more test file: `ls` and `node --test` print something else than when recorded.
    writeFileSync(join(example, 'test', 'extra.test.js'), "import { test } from 'node:test';\ntest('extra', () => {});\n");
    const output = capture();
    const result = await runDemo({ env: offlineEnv(), exampleDir: example, stdout: output.write, stderr: output.write, color: false, tempParent: scratchDir('demo') });
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(output.text()).toContain('Tests after: 5 passed, 0 failed');
  }, 60_000);

  test('a recording cut short fails loudly, naming the request it cannot answer', async () => {
    const lines = readFileSync(join(examples, DEMO_RECORDING), 'utf8').split('\n');
    const lastResponse = lines.findLastIndex((line) => line.includes('"type":"model_response"'));
    const recording = join(scratchDir('demo-recording'), 'cut.jsonl');
    writeFileSync(recording, lines.slice(0, lastResponse).join('\n'));
    const output = capture();
    const result = await runDemo({ env: offlineEnv(), recording, stdout: output.write, stderr: output.write, color: false, tempParent: scratchDir('demo') });
    expect(result.exitCode).toBe(1);
    expect(result.error).toMatch(/replay: the agent made request #6, but .*cut\.jsonl records only 5 model responses/);
    expect(output.text()).toContain('the demo session failed');
  }, 60_000);

  test('tool calls sent back that differ from the recording fail, naming the step and the line', async () => {
    const file = join(examples, DEMO_RECORDING);
    const client = new ReplayClient(file);
    const drain = async (input: ConversationItem[]): Promise<ModelEvent[]> => {
      const events: ModelEvent[] = [];
      for await (const event of client.stream({ model: 'replay', instructions: '', input, tools: [] })) events.push(event);
      return events;
    };
    const first = await drain([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: DEMO_PROMPT }] }]);
    const call = first.flatMap((event) => (event.type === 'item_done' && event.item.type === 'function_call' ? [event.item] : []))[0];
    expect(call?.name).toBe('exec_command');
    // The agent "ran" another command than the one the recorded model asked for.
    const changed = { ...call!, arguments: JSON.stringify({ cmd: 'rm -rf src' }) };
    const second = await drain([changed, { type: 'function_call_output', call_id: changed.call_id, output: 'ok' }]);
    const error = second.find((event) => event.type === 'error');
    expect(error?.type === 'error' && error.error.message).toMatch(/^replay: request #2 diverges from the recording \(.*bugfix\.session\.jsonl, line \d+\)/);
    expect(error?.type === 'error' && error.error.message).toContain('+ exec_command({"cmd":"rm -rf src"})');
  });

  test('the recording holds no absolute path in any tool call, so it replays on any machine', () => {
    const calls: string[] = [];
    for (const line of readFileSync(join(examples, DEMO_RECORDING), 'utf8').split('\n')) {
      if (!line.includes('"model_response"')) continue;
      const record = JSON.parse(line) as { payload: { events: ModelEvent[] } };
      for (const event of record.payload.events) {
        if (event.type !== 'item_done') continue;
        if (event.item.type === 'function_call') calls.push(event.item.arguments);
        if (event.item.type === 'custom_tool_call') calls.push(event.item.input);
      }
    }
    expect(calls.length).toBe(5);
    for (const call of calls) expect(call).not.toMatch(/(^|[\s"'=])\/(tmp|home|Users|work|var)\//);
  });
});

describe('rig with no subcommand', () => {
  test('without an API key and without a prompt it names the variable and runs the demo', async () => {
    const env = offlineEnv();
    const output = capture();
    const code = await runDefault([], { env, cwd: env['HOME']!, stdout: output.write, stderr: output.write, demoTempParent: scratchDir('demo') });
    expect(code).toBe(0);
    const text = output.text();
    expect(text.split('\n')[0]).toMatch(/^rig: no API key for OpenAI: OPENAI_API_KEY is not set .*running the offline demo instead\.$/);
    expect(text).toContain('Tests after: 4 passed, 0 failed');
  }, 60_000);

  test('without an API key, a prompt fails (exit 1) saying what to set, and no demo runs', async () => {
    const env = offlineEnv();
    const output = capture();
    const code = await runDefault(['fix', 'it'], { env, cwd: env['HOME']!, stdout: output.write, stderr: output.write });
    expect(code).toBe(1);
    expect(output.text()).toBe(
      `rig: no API key for OpenAI: OPENAI_API_KEY is not set, so your prompt was not sent. To run it: export OPENAI_API_KEY=..., or pick another model_provider in ${env['RIG_HOME']}/config.toml (or --provider ID). \`rig demo\` shows a recorded session offline.\n`,
    );
  });

  test('with a key and no prompt it prints how to give a task', async () => {
    const env: NodeJS.ProcessEnv = { ...offlineEnv(), OPENAI_API_KEY: 'sk-test-not-used' };
    const output = capture();
    const code = await runDefault([], { env, cwd: env['HOME']!, stdout: output.write, stderr: output.write });
    expect(code).toBe(0);
    expect(output.text()).toContain('rig "fix the failing test');
    expect(output.text()).not.toContain('demo session');
  });

  test('a provider that needs no key counts as configured', async () => {
    const env = offlineEnv();
    writeFileSync(join(env['RIG_HOME']!, 'config.toml'), 'model_provider = "ollama"\n');
    const output = capture();
    expect(await runDefault([], { env, cwd: env['HOME']!, stdout: output.write, stderr: output.write })).toBe(0);
    expect(output.text()).toContain('rig is ready');
  });

  test('a broken config is reported, not papered over with the demo', async () => {
    const env = offlineEnv();
    writeFileSync(join(env['RIG_HOME']!, 'config.toml'), 'model_provider = "nowhere"\n');
    const output = capture();
    expect(await runDefault(['hi'], { env, cwd: env['HOME']!, stdout: output.write, stderr: output.write })).toBe(1);
    expect(output.text()).toMatch(/^rig: unknown model provider 'nowhere'/);
    expect(output.text()).not.toContain('rig demo');
  });
});
