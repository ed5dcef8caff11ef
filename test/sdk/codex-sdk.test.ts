// rig as a drop-in for `codex exec` under the official TypeScript SDK (@openai/codex-sdk): the SDK
// spawns bin/rig.js with its own argv and environment, writes the prompt to stdin and reads the
// JSONL stream. The model is the loopback mock behind the built-in openai provider, reached through
// the SDK's baseUrl (`--config openai_base_url=...`) and apiKey (CODEX_API_KEY).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codex, type ThreadEvent, type ThreadOptions } from '@openai/codex-sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { RIG_BIN, removeDir, tempDir, tempGitRepo } from '../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../frontends/exec/helpers.js';
import { CODEX_DEFAULT_MODEL } from '../../src/model/providers.js';

const API_KEY = 'sk-sdk-test-0123456789';
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let mock: MockProvider;
let repo: string;
let home: string;
const dirs: string[] = [];

beforeAll(() => {
  repo = tempGitRepo({ 'note.txt': 'alpha\nbeta\n' });
});

afterAll(() => {
  for (const dir of [repo, ...dirs]) removeDir(dir);
});

beforeEach(async () => {
  // A fresh mock per test, so a failure cannot leave scripted turns behind for the next one; and,
  // as the SDK's own tests do with CODEX_HOME, a fresh home.
  mock = await startMockProvider();
  home = tempDir('sdk-home');
  dirs.push(home);
});

afterEach(async () => {
  await mock.close();
});

function codex(config?: NonNullable<ConstructorParameters<typeof Codex>[0]>['config']): Codex {
  return new Codex({
    codexPathOverride: RIG_BIN,
    baseUrl: mock.url,
    apiKey: API_KEY,
    // With `env` the SDK passes nothing else of ours through: rig's home goes here.
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home },
    ...(config ? { config } : {}),
  });
}

function threadOptions(): ThreadOptions {
  return { workingDirectory: repo, model: 'gpt-sdk-test' };
}

function requestsSince(before: number): MockRequest[] {
  return mock.requests.slice(before);
}

/** Every user message text in a Responses request body, the environment context included. */
function userTextsWithContext(request: MockRequest): string[] {
  return (request.body.input as { type: string; role?: string; content?: { type: string; text?: string }[] }[])
    .filter((item) => item.type === 'message' && item.role === 'user')
    .map((item) => item.content!.map((part) => part.text ?? `[${part.type}]`).join(''));
}

/** Text of the user messages in a Responses request body, without the environment context. */
function userTexts(request: MockRequest): string[] {
  return userTextsWithContext(request).filter((text) => !text.startsWith('<environment_context>'));
}

describe('run()', () => {
  test('runs a tool call round-trip and returns the items, final response and usage', async () => {
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat note.txt' } }], usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 } },
      { text: 'alpha and beta', reasoning: 'read it', usage: { input_tokens: 150, cached_input_tokens: 100, output_tokens: 9, reasoning_output_tokens: 3 } },
    );
    const thread = codex().startThread(threadOptions());

    const turn = await thread.run('read the note');

    expect(turn.finalResponse).toBe('alpha and beta');
    expect(turn.items).toEqual([
      { id: 'item_0', type: 'command_execution', command: 'cat note.txt', aggregated_output: 'alpha\nbeta\n', exit_code: 0, status: 'completed' },
      { id: 'item_1', type: 'reasoning', text: 'read it' },
      { id: 'item_2', type: 'agent_message', text: 'alpha and beta' },
    ]);
    expect(turn.usage).toEqual({ input_tokens: 250, cached_input_tokens: 140, cache_write_input_tokens: 0, output_tokens: 16, reasoning_output_tokens: 3 });
    expect(thread.id).toMatch(/^[0-9a-f-]{36}$/);

    const requests = requestsSince(before);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.path).toBe('/v1/responses');
      expect(request.headers['authorization']).toBe(`Bearer ${API_KEY}`);
      expect(request.headers['originator']).toBe('codex_sdk_ts');
      expect(request.body.model).toBe('gpt-sdk-test');
    }
    expect(userTexts(requests[0]!)).toEqual(['read the note']);
  });

  test('two runs on one thread continue the same conversation', async () => {
    const before = mock.requests.length;
    mock.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const thread = codex().startThread(threadOptions());

    const first = await thread.run('first question');
    const id = thread.id;
    const second = await thread.run('second question');

    expect(first.finalResponse).toBe('first answer');
    expect(second.finalResponse).toBe('second answer');
    expect(thread.id).toBe(id);
    // turn.completed carries the thread's running totals.
    expect(second.usage).toEqual({ input_tokens: 20, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 });
    const secondRequest = requestsSince(before)[1]!;
    expect(userTexts(secondRequest)).toEqual(['first question', 'second question']);
    expect(JSON.stringify(secondRequest.body.input)).toContain('first answer');
  });

  test('a thread resumed by id from another Codex instance keeps its history', async () => {
    const before = mock.requests.length;
    mock.enqueue({ text: 'noted' }, { text: 'you said remember 42' });
    const original = codex().startThread(threadOptions());
    await original.run('remember 42');

    const resumed = codex().resumeThread(original.id!, threadOptions());
    const turn = await resumed.run('what did I say?');

    expect(turn.finalResponse).toBe('you said remember 42');
    expect(resumed.id).toBe(original.id);
    expect(userTexts(requestsSince(before)[1]!)).toEqual(['remember 42', 'what did I say?']);
  });

  test('structured output: the schema becomes the response format and the answer is its JSON', async () => {
    const before = mock.requests.length;
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false } as const;
    mock.enqueue({ text: '{"answer":42}' });

    // No model option: the openai provider's default model is used.
    const turn = await codex().startThread({ workingDirectory: repo }).run('the answer?', { outputSchema: schema });

    expect(JSON.parse(turn.finalResponse)).toEqual({ answer: 42 });
    expect(requestsSince(before)[0]!.body.model).toMatch(/^gpt-/);
    // The native harness sends Codex's default verbosity for GPT-5-family models alongside it.
    expect(requestsSince(before)[0]!.body.text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', name: 'codex_output_schema', schema, strict: true },
    });
  });

  test('text and local images become the prompt and attached images', async () => {
    const before = mock.requests.length;
    const image = join(home, 'pixel.png');
    writeFileSync(image, Buffer.from(ONE_PIXEL_PNG, 'base64'));
    mock.enqueue({ text: 'a pixel' }, { text: 'still a pixel' });
    const thread = codex().startThread(threadOptions());

    await thread.run([{ type: 'text', text: 'what is this?' }, { type: 'text', text: 'be brief' }, { type: 'local_image', path: image }]);
    // On a resumed thread the SDK puts --image after `resume <id>`.
    await thread.run([{ type: 'text', text: 'and now?' }, { type: 'local_image', path: image }]);

    const [first, second] = requestsSince(before);
    expect(userTexts(first!)).toEqual(['what is this?\n\nbe brief[input_image]']);
    expect(userTexts(second!).at(-1)).toBe('and now?[input_image]');
    const imagePart = first!.body.input.at(-1).content.at(-1);
    expect(imagePart).toEqual({ type: 'input_image', image_url: `data:image/png;base64,${ONE_PIXEL_PNG}` });
  });

  test('every thread option the SDK turns into flags and -c overrides is accepted without warnings', async () => {
    const before = mock.requests.length;
    const extra = tempDir('sdk-extra');
    const other = tempDir('sdk-other');
    dirs.push(extra, other);
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `touch ${join(extra, 'made')}; touch ${join(other, 'made')}` } }] },
      { text: 'done' },
    );
    // /tmp is writable under workspace-write unless excluded; exclude it so only --add-dir can open `extra`.
    const sdk = codex({ model_verbosity: 'low', sandbox_workspace_write: { exclude_slash_tmp: true, exclude_tmpdir_env_var: true } });
    const thread = sdk.startThread({
      workingDirectory: repo,
      model: 'gpt-sdk-test',
      sandboxMode: 'workspace-write',
      additionalDirectories: [extra],
      skipGitRepoCheck: true,
      modelReasoningEffort: 'high',
      networkAccessEnabled: false,
      webSearchMode: 'disabled',
      approvalPolicy: 'on-request',
    });

    const turn = await thread.run('make files');

    expect(turn.items.filter((item) => item.type === 'error')).toEqual([]);
    expect(turn.items[0]).toMatchObject({ type: 'command_execution', status: 'failed' });
    expect(existsSync(join(extra, 'made'))).toBe(true);
    expect(existsSync(join(other, 'made'))).toBe(false);
    const request = requestsSince(before)[0]!;
    expect(request.body.reasoning).toMatchObject({ effort: 'high' });
    const context = userTextsWithContext(request).join('\n');
    expect(context).toContain('<sandbox_mode>workspace-write</sandbox_mode>');
    // As in codex exec, nobody is there to answer: the SDK's approvalPolicy gives way to "never".
    expect(context).toContain('<approval_policy>never</approval_policy>');
  });

  test('a harness file read (Claude Code Read) reaches the SDK as an mcp_tool_call item it knows', async () => {
    mock.enqueue({ toolCalls: [{ name: 'Read', arguments: { file_path: join(repo, 'note.txt') } }] }, { text: 'alpha, beta' });
    const thread = codex({ harness: 'claude-code' }).startThread(threadOptions());

    const turn = await thread.run('read the note');

    expect(turn.finalResponse).toBe('alpha, beta');
    expect(turn.items).toEqual([
      {
        id: 'item_0',
        type: 'mcp_tool_call',
        server: 'rig',
        tool: 'Read',
        arguments: { file_path: join(repo, 'note.txt') },
        result: { content: [{ type: 'text', text: '2 lines' }], structured_content: null },
        error: null,
        status: 'completed',
      },
      { id: 'item_1', type: 'agent_message', text: 'alpha, beta' },
    ]);
  });

  test("a custom provider configured only through `config`, with no model, runs on Codex's default model", async () => {
    // As the SDK's own integration tests do: the provider table and the provider id, nothing else.
    const before = mock.requests.length;
    mock.enqueue({ text: 'from the custom provider' });
    const sdk = new Codex({
      codexPathOverride: RIG_BIN,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, CUSTOM_KEY: 'sk-custom-0123456789' },
      config: {
        model_provider: 'custom',
        model_providers: { custom: { name: 'Custom', base_url: mock.url, env_key: 'CUSTOM_KEY', wire_api: 'responses' } },
      },
    });

    const turn = await sdk.startThread({ workingDirectory: repo }).run('hello');

    expect(turn.finalResponse).toBe('from the custom provider');
    const request = requestsSince(before)[0]!;
    expect(request.body.model).toBe(CODEX_DEFAULT_MODEL);
    expect(request.headers['authorization']).toBe('Bearer sk-custom-0123456789');
  });

  test('threadSource and cyberAccessProgram, which the SDK turns into flags of their own, are accepted', async () => {
    mock.enqueue({ text: 'fine' });
    const thread = codex().startThread({ ...threadOptions(), threadSource: 'sdk-test' });
    const turn = await thread.run('hi', { cyberAccessProgram: 'standard' });
    expect(turn.finalResponse).toBe('fine');
  });
});

describe('runStreamed()', () => {
  test('yields the exec events in order, and the thread id once thread.started arrives', async () => {
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat note.txt' } }] }, { text: 'done' });
    const thread = codex().startThread(threadOptions());
    expect(thread.id).toBeNull();

    const { events } = await thread.runStreamed('read the note');
    const seen: ThreadEvent[] = [];
    for await (const event of events) {
      if (event.type === 'thread.started') expect(thread.id).toBe(event.thread_id);
      seen.push(event);
    }

    expect(seen.map((event) => (event.type.startsWith('item.') ? `${event.type}:${(event as { item: { type: string } }).item.type}` : event.type))).toEqual([
      'thread.started',
      'turn.started',
      'item.started:command_execution',
      'item.completed:command_execution',
      'item.completed:agent_message',
      'turn.completed',
    ]);
  });

  test('an AbortSignal stops the run and the command the model started', async () => {
    const marker = `rig-sdk-abort-${process.pid}-${Date.now()}`;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `sleep 30 && echo ${marker}`, yield_time_ms: 120_000 } }] });
    const controller = new AbortController();
    const thread = codex().startThread({ ...threadOptions(), sandboxMode: 'danger-full-access' });

    const { events } = await thread.runStreamed('wait', { signal: controller.signal });
    const seen: string[] = [];
    let groups: number[] = [];
    const consume = (async () => {
      for await (const event of events) {
        seen.push(event.type);
        if (event.type === 'item.started') {
          await waitUntil(() => processGroupsWith(marker).length > 0, 10_000, 'the command to start');
          groups = processGroupsWith(marker);
          controller.abort();
        }
      }
    })();

    await expect(consume).rejects.toThrow(/aborted/i);
    // rig ends the turn on the SDK's SIGTERM: the command item is closed, no turn event follows.
    expect(seen.slice(0, 3)).toEqual(['thread.started', 'turn.started', 'item.started']);
    expect(seen).not.toContain('turn.completed');
    expect(seen).not.toContain('turn.failed');
    await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
  });
});

describe('failures surface as SDK errors', () => {
  test('outside a git repository without skipGitRepoCheck the run throws "Not inside a trusted directory"', async () => {
    const loose = tempDir('sdk-loose');
    dirs.push(loose);
    await expect(codex().startThread({ ...threadOptions(), workingDirectory: loose }).run('hi')).rejects.toThrow(
      'Not inside a trusted directory and --skip-git-repo-check was not specified.',
    );
  });

  test('a stream that fails past its retries throws "stream disconnected before completion: ..."', async () => {
    mock.enqueue({ text: 'partial', cutAfterEvents: 2 }, { text: 'partial', cutAfterEvents: 2 });
    const thread = codex({ model_providers: { openai: { stream_max_retries: 1 } } }).startThread(threadOptions());

    await expect(thread.run('hi')).rejects.toThrow('stream disconnected before completion: stream closed before response.completed');
  });

  test('a missing API key makes the exec exit non-zero with the message on stderr', async () => {
    const keyless = new Codex({ codexPathOverride: RIG_BIN, baseUrl: mock.url, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home } });
    // The SDK writes the prompt on stdin, so rig's notice that it reads it comes first.
    await expect(keyless.startThread(threadOptions()).run('hi')).rejects.toThrow(
      /^Codex Exec exited with code 1: reading the prompt from stdin .*\nrig: .*OPENAI_API_KEY/,
    );
  });
});
