// How `rig exec` reports a provider misbehaving, through the real CLI against the loopback mock:
// retries are visible and exact, a run that cannot recover exits 1 with one clear line, and a
// model that sends broken tool-call JSON gets an error result it can correct.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome, progress } from '../../support/workspace.js';
import { closedPort, toolResult } from './helpers.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const home of homes) removeDir(home);
});

function home(options: { url?: string; wire?: MockWire; extra?: string } = {}): string {
  const dir = tempRigHome({ url: options.url ?? mock.url, ...(options.wire ? { wire: options.wire } : {}), ...(options.extra ? { extra: options.extra } : {}) });
  homes.push(dir);
  return dir;
}

const USAGE = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5, reasoning_output_tokens: 0 };

describe('retries', () => {
  test('a 429 with Retry-After is retried after the advised delay, and the retry shows in --json', async () => {
    const first = mock.requests.length + 1;
    mock.enqueue({ status: 429, headers: { 'retry-after': '1' }, message: 'slow down' }, { text: 'ok' });

    const running = runRig(['exec', '--json', 'hi'], { cwd: repo, home: home() });
    await mock.waitForRequest(first);
    const firstAt = Date.now();
    await mock.waitForRequest(first + 1);
    const waited = Date.now() - firstAt;
    const run = await running;

    expect(run.code).toBe(0);
    // The default backoff for a first retry is about 200 ms; Retry-After asked for 1 s.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(jsonLines(run.stdout).slice(1)).toEqual([
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: "Reconnecting... 1/4 (provider 'mock' returned HTTP 429: slow down)" } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'ok' } },
      { type: 'turn.completed', usage: USAGE },
    ]);
  });

  test('in human mode a retry is one line on stderr and the answer still reaches stdout', async () => {
    mock.enqueue({ status: 429, headers: { 'retry-after': '0' }, message: 'slow down' }, { text: 'ok' });

    const run = await runRig(['exec', 'hi'], { cwd: repo, home: home() });

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ok\n');
    expect(progress(run.stderr)).toBe("warning: Reconnecting... 1/4 (provider 'mock' returned HTTP 429: slow down)\nok\n");
  });

  test('server errors beyond request_max_retries fail the run with exit 1 and the last error', async () => {
    const before = mock.requests.length;
    mock.enqueue({ status: 500, message: 'boom' }, { status: 500, message: 'boom' }, { status: 500, message: 'boom' });
    const dir = home({ extra: 'request_max_retries = 2' });

    const json = await runRig(['exec', '--json', 'hi'], { cwd: repo, home: dir });

    expect(json.code).toBe(1);
    expect(mock.requests.length - before).toBe(3);
    expect(jsonLines(json.stdout).slice(1)).toEqual([
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: "Reconnecting... 1/2 (provider 'mock' returned HTTP 500: boom)" } },
      { type: 'item.completed', item: { id: 'item_1', type: 'error', message: "Reconnecting... 2/2 (provider 'mock' returned HTTP 500: boom)" } },
      { type: 'error', message: "provider 'mock' returned HTTP 500: boom" },
      { type: 'turn.failed', error: { message: "provider 'mock' returned HTTP 500: boom" } },
    ]);

    mock.enqueue({ status: 500, message: 'boom' }, { status: 500, message: 'boom' }, { status: 500, message: 'boom' });
    const human = await runRig(['exec', 'hi'], { cwd: repo, home: dir });

    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(progress(human.stderr)).toBe(
      [
        "warning: Reconnecting... 1/2 (provider 'mock' returned HTTP 500: boom)",
        "warning: Reconnecting... 2/2 (provider 'mock' returned HTTP 500: boom)",
        "rig: provider 'mock' returned HTTP 500: boom",
        '',
      ].join('\n'),
    );
  });
});

describe('broken streams', () => {
  const idle = ['-c', 'model_providers.mock.stream_idle_timeout_ms=1000', '-c', 'model_providers.mock.stream_max_retries=1'];

  test('a stream that goes silent is abandoned after stream_idle_timeout_ms and retried', async () => {
    const first = mock.requests.length + 1;
    mock.enqueue({ text: 'partial answer', idleAfterEvents: 3 }, { text: 'whole answer' });

    const running = runRig(['exec', '--json', ...idle, 'hi'], { cwd: repo, home: home() });
    await mock.waitForRequest(first);
    const firstAt = Date.now();
    await mock.waitForRequest(first + 1);
    const waited = Date.now() - firstAt;
    const run = await running;

    expect(run.code).toBe(0);
    // The -c override (1 s) applies, not the 5 s the home's config.toml sets.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(4_000);
    expect(jsonLines(run.stdout).slice(1)).toEqual([
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Reconnecting... 1/1 (idle timeout waiting for SSE)' } },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'whole answer' } },
      { type: 'turn.completed', usage: USAGE },
    ]);
  });

  test('a stream that stays silent past its retries fails with "stream disconnected before completion"', async () => {
    mock.enqueue({ text: 'partial answer', idleAfterEvents: 3 }, { text: 'partial answer', idleAfterEvents: 3 });

    const run = await runRig(['exec', ...idle, 'hi'], { cwd: repo, home: home() });

    expect(run.code).toBe(1);
    expect(progress(run.stderr)).toBe(
      'warning: Reconnecting... 1/1 (idle timeout waiting for SSE)\nrig: stream disconnected before completion: idle timeout waiting for SSE\n',
    );
  });

  test('a connection cut mid-stream is retried, then reported when retries run out', async () => {
    const cut = ['-c', 'model_providers.mock.stream_max_retries=1'];
    mock.enqueue({ text: 'partial answer', cutAfterEvents: 3 }, { text: 'whole answer' });
    const recovered = await runRig(['exec', ...cut, 'hi'], { cwd: repo, home: home() });

    expect(recovered.code).toBe(0);
    expect(recovered.stdout).toBe('whole answer\n');
    expect(progress(recovered.stderr)).toBe('warning: Reconnecting... 1/1 (stream closed before response.completed)\nwhole answer\n');

    mock.enqueue({ text: 'partial answer', cutAfterEvents: 3 }, { text: 'partial answer', cutAfterEvents: 3 });
    const failed = await runRig(['exec', '--json', ...cut, 'hi'], { cwd: repo, home: home() });

    expect(failed.code).toBe(1);
    expect(jsonLines(failed.stdout).slice(-2)).toEqual([
      { type: 'error', message: 'stream disconnected before completion: stream closed before response.completed' },
      { type: 'turn.failed', error: { message: 'stream disconnected before completion: stream closed before response.completed' } },
    ]);
  });
});

describe.each<MockWire>(['responses', 'chat', 'messages'])('malformed tool-call JSON on the %s wire', (wire) => {
  test('the model gets a parse error as the tool result, corrects itself, and the run completes', async () => {
    const before = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: '{"cmd": "echo hi' }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo fixed' } }] },
      { text: 'done' },
    );

    const run = await runRig(['exec', '--json', '--harness', 'native', 'hi'], { cwd: repo, home: home({ wire }) });

    expect(progress(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const items = jsonLines(run.stdout).filter((e) => e.type === 'item.completed').map((e) => e.item);
    expect(items).toEqual([
      { id: 'item_0', type: 'command_execution', command: 'echo fixed', aggregated_output: 'fixed\n', exit_code: 0, status: 'completed' },
      { id: 'item_1', type: 'agent_message', text: 'done' },
    ]);
    // Newer Node versions add "(line 1 column 17)" to JSON.parse messages.
    expect(toolResult(wire, mock.requests[before + 1]!.body).text).toMatch(
      /^failed to parse function arguments: Unterminated string in JSON at position 16( \(line 1 column 17\))?$/,
    );
  });
});

describe('unusable provider settings', () => {
  test('a missing API key names the variable to set', async () => {
    const dir = home();
    const human = await runRig(['exec', 'hi'], { cwd: repo, home: dir, env: { MOCK_API_KEY: '' } });

    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');
    expect(progress(human.stderr)).toBe('rig: MOCK_API_KEY is not set. Export it, or pick another provider with --provider / model_provider.\n');

    const json = await runRig(['exec', '--json', 'hi'], { cwd: repo, home: dir, env: { MOCK_API_KEY: '' } });
    expect(json.code).toBe(1);
    expect(jsonLines(json.stdout)).toEqual([
      { type: 'error', message: 'MOCK_API_KEY is not set. Export it, or pick another provider with --provider / model_provider.' },
    ]);
  });

  test('an unreachable base URL is reported with the URL and the setting to check', async () => {
    const port = await closedPort();
    const run = await runRig(['exec', 'hi'], { cwd: repo, home: home({ url: `http://127.0.0.1:${port}/v1`, extra: 'request_max_retries = 1' }) });

    expect(run.code).toBe(1);
    const reason = `cannot reach http://127.0.0.1:${port}/v1/responses: connect ECONNREFUSED (check base_url of provider 'mock')`;
    expect(progress(run.stderr)).toBe(`warning: Reconnecting... 1/1 (${reason})\nrig: ${reason}\n`);
  });

  test("a port fetch() would refuse (9, discard) is tried like any other: model requests do not go through fetch", async () => {
    const run = await runRig(['exec', 'hi'], { cwd: repo, home: home({ url: 'http://127.0.0.1:9/v1', extra: 'request_max_retries = 0' }) });

    expect(run.code).toBe(1);
    expect(progress(run.stderr)).toBe("rig: cannot reach http://127.0.0.1:9/v1/responses: connect ECONNREFUSED (check base_url of provider 'mock')\n");
  });
});
