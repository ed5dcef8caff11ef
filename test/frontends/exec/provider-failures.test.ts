// Every way a provider fails, on every wire, through the real `rig exec` against the loopback mock:
// each ends with one line saying what actually arrived (or did not), and only what another attempt
// can fix is retried.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, RIG_BIN, runRig, tempGitRepo, tempRigHome } from '../../support/workspace.js';

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

function home(wire: MockWire = 'responses', extra = ''): string {
  const dir = tempRigHome({ url: mock.url, wire, extra });
  homes.push(dir);
  return dir;
}

const WIRES: MockWire[] = ['responses', 'chat', 'messages'];

/** The last error the --json stream reported, and the number of model requests the run made. */
async function failure(args: string[], wire: MockWire, extra = ''): Promise<{ code: number | null; message: string; requests: number; stderr: string }> {
  const before = mock.requests.length;
  const run = await runRig(['exec', '--json', ...args], { cwd: repo, home: home(wire, extra) });
  const events = jsonLines(run.stdout);
  const last = events.at(-1) as { type: string; error?: { message: string } };
  expect(last.type, run.stdout + run.stderr).toBe('turn.failed');
  return { code: run.code, message: last.error!.message, requests: mock.requests.length - before, stderr: run.stderr };
}

describe.each(WIRES)('on the %s wire', (wire) => {
  test('a stream holding only "data: [DONE]" is an error, not an empty answer, and -o is not written', async () => {
    mock.enqueue({ onlyDone: true });
    const out = join(homes.at(-1) ?? repo, `answer-${wire}.txt`);
    const result = await failure(['-o', out, 'hi'], wire);
    expect(result.code).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.message).toMatch(wire === 'chat' ? /ended the stream without a reply: it sent "data: \[DONE\]"/ : /not a \w+ event stream \(the body starts: "data: \[DONE\]"\)/);
    expect(existsSync(out)).toBe(false);
  });

  test('malformed SSE is reported with the bytes received, and not retried', async () => {
    mock.enqueue({ garbageEvents: 3 });
    const result = await failure(['hi'], wire);
    expect(result.code).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.message).toBe(`the provider sent 3 events whose data is not JSON (the first: "{not json") and nothing the ${wire} wire understands: check base_url and wire_api`);
  });

  test('a plain application/json 200 names the content type and what the body starts with', async () => {
    mock.enqueue({ json200: { id: 'cmpl-1', object: 'chat.completion' } });
    const result = await failure(['hi'], wire);
    expect(result.requests).toBe(1);
    expect(result.message).toBe(
      `provider 'mock' answered ${mock.url}/${wire === 'chat' ? 'chat/completions' : wire} with application/json instead of an event stream (text/event-stream); ` +
        `the body starts: "{\\"id\\":\\"cmpl-1\\",\\"object\\":\\"chat.completion\\"}". Check base_url and wire_api: the server does not speak this wire`,
    );
  });

  test('a server that never sends headers is given up on after stream_idle_timeout_ms', async () => {
    mock.enqueue({ noHeaders: true }, { noHeaders: true });
    const started = Date.now();
    const result = await failure(['-c', 'model_providers.mock.stream_idle_timeout_ms=400', '-c', 'model_providers.mock.stream_max_retries=1', 'hi'], wire);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result.requests).toBe(2);
    expect(result.message).toBe(
      `stream disconnected before completion: idle timeout waiting for response headers: ${mock.url}/${wire === 'chat' ? 'chat/completions' : wire} accepted the request but sent nothing for 400 ms (stream_idle_timeout_ms)`,
    );
  });

  test('an HTML 404 names the URL and says to check base_url', async () => {
    mock.enqueue({ status: 404, contentType: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>nginx</p></body></html>' });
    const result = await failure(['hi'], wire);
    expect(result.requests).toBe(1);
    const path = wire === 'chat' ? 'chat/completions' : wire;
    expect(result.message).toBe(
      `provider 'mock' returned HTTP 404 for ${mock.url}/${path}: 404 Not Found (check base_url of provider 'mock': it should be the API root the wire path is appended to, e.g. https://host/v1)`,
    );
  });

  test('a reply cut at the output limit completes with a notice', async () => {
    mock.enqueue({ text: 'The first half of a long answer', outputLimit: true });
    const run = await runRig(['exec', '--json', 'hi'], { cwd: repo, home: home(wire) });
    expect(run.code).toBe(0);
    const items = jsonLines(run.stdout).filter((e) => e.type === 'item.completed').map((e) => e.item);
    expect(items).toEqual([
      { id: 'item_0', type: 'agent_message', text: 'The first half of a long answer' },
      { id: 'item_1', type: 'error', message: "the model's reply was cut off at its output token limit, so it may be incomplete: ask it to continue, or to answer in smaller steps" },
    ]);
  });

  test('a tool call cut at the output limit is not run, and the run says why', async () => {
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: 'touch cut-marker && echo this-command-must-not-run' } }], outputLimit: true });
    const run = await runRig(['exec', '--json', '--full-auto', '--harness', 'native', 'hi'], { cwd: repo, home: home(wire) });
    expect(run.code).toBe(1);
    expect(mock.requests.length - before).toBe(1);
    expect(existsSync(join(repo, 'cut-marker'))).toBe(false);
    const signal = { responses: 'status "incomplete", reason max_output_tokens', chat: 'finish_reason "length"', messages: 'stop_reason "max_tokens"' }[wire];
    expect(jsonLines(run.stdout).at(-1)).toEqual({
      type: 'turn.failed',
      error: {
        message: `the model's reply hit its output token limit (${signal}) in the middle of a call to \`exec_command\`; the incomplete call was not run. Ask for smaller steps (e.g. write a large file in parts)`,
      },
    });
  });

  test('a connection closed before any response says so, not "cannot reach ... check base_url"', async () => {
    mock.enqueue({ closeBeforeHeaders: true }, { text: 'second try' });
    const run = await runRig(['exec', 'hi'], { cwd: repo, home: home(wire) });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: Reconnecting... 1/4 (${mock.url}/${wire === 'chat' ? 'chat/completions' : wire} accepted the connection but closed it before sending a response (ECONNRESET))`);
    expect(run.stderr).not.toContain('cannot reach');
  });
});

describe('errors a server sends inside a 200 stream', () => {
  const LLAMA = 'The model produced output that does not match the expected format';

  test("llama.cpp's error chunk is reported as the server's own error, and not retried", async () => {
    mock.enqueue({ text: 'partial', streamError: { code: 500, type: 'server_error', message: LLAMA } });
    const result = await failure(['hi'], 'chat');
    expect(result.requests).toBe(1);
    expect(result.message).toBe(`provider 'mock' reported an error in the stream: ${LLAMA} (error code 500)`);
  });

  test('an overload reported in the stream is retried', async () => {
    mock.enqueue({ streamError: { code: 503, type: 'unavailable_error', message: 'Loading model' } }, { text: 'ready now' });
    const run = await runRig(['exec', 'hi'], { cwd: repo, home: home('chat') });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ready now\n');
    expect(run.stderr).toContain('warning: Reconnecting... 1/5 (Loading model (error code 503))');
  });
});

describe('an unresolvable host', () => {
  test('fails at once naming the host, without retries and without needing a network', async () => {
    const dir = tempRigHome({ url: 'http://llm.invalid/v1' });
    homes.push(dir);
    // In a network namespace of its own, rig can reach no DNS server: the answer must not need one.
    const started = Date.now();
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bwrap', ['--unshare-net', '--dev-bind', '/', '/', process.execPath, RIG_BIN, 'exec', 'hi'], {
        cwd: repo,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, RIG_HOME: dir, MOCK_API_KEY: 'sk-mock-secret-0123456789' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('Reconnecting');
    expect(run.stderr).toContain(
      "rig: cannot resolve host 'llm.invalid' of http://llm.invalid/v1/responses: no such host (DNS lookup failed; check base_url of provider 'mock')\n",
    );
  });
});

describe('credentials in base_url', () => {
  test('user:pass@ never reaches stderr, --json or the rollout', async () => {
    const url = mock.url.replace('http://', 'http://deploy:pa55-w0rd-xyz@');
    const dir = tempRigHome({ url });
    homes.push(dir);
    mock.enqueue({ status: 403, message: 'forbidden for deploy:pa55-w0rd-xyz' }, { status: 403, message: 'forbidden for deploy:pa55-w0rd-xyz' });
    const human = await runRig(['exec', 'hi'], { cwd: repo, home: dir });
    const json = await runRig(['exec', '--json', 'hi'], { cwd: repo, home: dir });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain("rig: provider 'mock' returned HTTP 403: forbidden for ***. Check MOCK_API_KEY.");
    for (const text of [human.stdout, human.stderr, json.stdout, json.stderr]) expect(text).not.toContain('pa55-w0rd-xyz');
    expect(mock.requests.at(-1)!.headers['authorization']).toBe('Bearer sk-mock-secret-0123456789');
    const sessions = join(dir, 'sessions');
    const rollouts = existsSync(sessions) ? readAll(sessions) : '';
    expect(rollouts).not.toContain('pa55-w0rd-xyz');
  });
});

function readAll(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('');
}
