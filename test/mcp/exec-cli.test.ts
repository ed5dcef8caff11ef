// MCP through the real CLI: `rig exec` against the loopback mock provider on each wire, with the
// reference servers from npm over stdio and an SDK-built streamable HTTP server on 127.0.0.1;
// the --json stream (Codex's mcp_tool_call items), human status lines, the rollout's record, and
// `rig doctor`'s report.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';
import { startHttpMcpServer, type HttpMcpServer } from './support/http-server.js';
import { referenceServer } from './support/servers.js';

const EVERYTHING = referenceServer('@modelcontextprotocol/server-everything');
const FILESYSTEM = referenceServer('@modelcontextprotocol/server-filesystem');

let mock: MockProvider;
let http: HttpMcpServer;
let repo: string;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  http = await startHttpMcpServer();
  repo = tempGitRepo({ 'note.txt': 'alpha\n' });
});

afterAll(async () => {
  await mock.close();
  await http.close();
  removeDir(repo);
  for (const dir of dirs) removeDir(dir);
});

function serversToml(): string {
  return [
    '[mcp_servers.everything]',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify([EVERYTHING, 'stdio'])}`,
    'required = true',
    '[mcp_servers.files]',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify([FILESYSTEM, repo])}`,
    // Required, so a loaded machine cannot make them late (a late server joins the next request).
    'required = true',
    '[mcp_servers.web]',
    `url = ${JSON.stringify(http.url)}`,
    'required = true',
  ].join('\n');
}

function home(wire: MockWire): string {
  const dir = tempRigHome({ url: mock.url, wire, extra: serversToml() });
  dirs.push(dir);
  return dir;
}

function mcpItems(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'mcp_tool_call').map((e) => e['item'] as Record<string, unknown>);
}

describe.each<MockWire>(['responses', 'chat', 'messages'])('rig exec --json with MCP servers on the %s wire', (wire) => {
  test('a stdio call and an HTTP call round-trip as Codex mcp_tool_call items', async () => {
    const before = mock.requests.length;
    const ids = wire === 'messages' ? ['toolu_echo', 'toolu_add', 'toolu_img'] : ['call_echo', 'call_add', 'call_img'];
    mock.enqueue(
      { toolCalls: [{ id: ids[0]!, name: 'mcp__everything__echo', arguments: { message: 'over stdio' } }] },
      { toolCalls: [{ id: ids[1]!, name: 'mcp__web__add', arguments: { a: 2, b: 3 } }] },
      // server-everything's get-tiny-image, sanitized to Codex's [A-Za-z0-9_]
      { toolCalls: [{ id: ids[2]!, name: 'mcp__everything__get_tiny_image', arguments: {} }] },
      { text: 'Both worked.' },
    );
    const run = await runRig(['exec', '--json', '--harness', 'native', 'use the tools'], { cwd: repo, home: home(wire) });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    const items = mcpItems(events);
    expect(items).toEqual([
      {
        id: expect.any(String),
        type: 'mcp_tool_call',
        server: 'everything',
        tool: 'echo',
        arguments: { message: 'over stdio' },
        result: { content: [{ type: 'text', text: 'Echo: over stdio' }], structured_content: null },
        error: null,
        status: 'completed',
      },
      expect.objectContaining({ server: 'web', tool: 'add', status: 'completed', result: { content: [{ type: 'text', text: '5' }], structured_content: { sum: 5 } } }),
      expect.objectContaining({ server: 'everything', tool: 'get-tiny-image', status: 'completed' }),
    ]);
    // rig's own events stay out of Codex's stream.
    expect(events.some((e) => String(e['type']).startsWith('mcp.'))).toBe(false);

    const requests = mock.requests.slice(before);
    expect(requests).toHaveLength(4);
    const first = toolResult(wire, requests[1]!.body);
    expect(first).toEqual({ callId: ids[0], text: 'Echo: over stdio' });
    // The image goes back in the wire's own tool-result shape, its bytes unchanged.
    const image = (items[2]!['result'] as { content: { type: string; data?: string; mimeType?: string }[] }).content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    expect(image.data!.length).toBeGreaterThan(50);
    const dataUrl = `data:image/png;base64,${image.data}`;
    const sent = requests[3]!.body as any;
    if (wire === 'responses') {
      const output = sent.input.find((item: any) => item.type === 'function_call_output' && item.call_id === ids[2]);
      expect(output.output).toContainEqual({ type: 'input_image', image_url: dataUrl });
    }
    if (wire === 'messages') {
      const block = sent.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result' && b.tool_use_id === ids[2]);
      expect(block.content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image.data } });
    }
    if (wire === 'chat') {
      // Tool messages take text only: the tool message names the image, a user message right
      // after the tool results carries it as an image_url part.
      const at = sent.messages.findIndex((m: any) => m.role === 'tool' && m.tool_call_id === ids[2]);
      const tool = sent.messages[at];
      expect(typeof tool.content).toBe('string');
      expect(tool.content).toContain('[image: sent in the next user message]');
      expect(tool.content).not.toContain(image.data!.slice(0, 40));
      expect(sent.messages[at + 1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: `The image returned by tool call ${ids[2]}:` },
          { type: 'image_url', image_url: { url: dataUrl } },
        ],
      });
      expect(sent.messages).toHaveLength(at + 2);
    }
    const body = JSON.stringify(requests[0]!.body);
    for (const name of ['mcp__everything__echo', 'mcp__files__list_directory', 'mcp__web__add', 'list_mcp_resources']) expect(body).toContain(`"${name}"`);
  });
});

/** The text of the tool result answering `callId` in a request body of `wire`. */
function resultText(wire: MockWire, body: any, callId: string): string {
  const join = (content: any) => (typeof content === 'string' ? content : content.map((p: any) => p.text ?? '').join(''));
  if (wire === 'responses') return join(body.input.find((item: any) => item.type === 'function_call_output' && item.call_id === callId).output);
  if (wire === 'chat') return join(body.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === callId).content);
  const block = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((b: any) => b.type === 'tool_result' && b.tool_use_id === callId);
  return join(block.content);
}

describe.each<MockWire>(['responses', 'chat', 'messages'])('large and structured MCP results on the %s wire', (wire) => {
  test("an oversized result is cut with a marker; structured content goes as Codex's compact JSON", async () => {
    const before = mock.requests.length;
    const ids = wire === 'messages' ? ['toolu_big', 'toolu_weather', 'toolu_read'] : ['call_big', 'call_weather', 'call_read'];
    const big = 'x'.repeat(100_000);
    mock.enqueue(
      { toolCalls: [{ id: ids[0]!, name: 'mcp__everything__echo', arguments: { message: big } }] },
      { toolCalls: [{ id: ids[1]!, name: 'mcp__everything__get_structured_content', arguments: { location: 'Chicago' } }] },
      // server-filesystem answers with text and structuredContent {content}: Codex sends the latter.
      { toolCalls: [{ id: ids[2]!, name: 'mcp__files__read_text_file', arguments: { path: path.join(repo, 'note.txt') } }] },
      { text: 'done' },
    );
    const run = await runRig(['exec', '--json', '--harness', 'native', 'use the tools'], { cwd: repo, home: home(wire) });
    expect(run.code).toBe(0);
    const items = mcpItems(jsonLines(run.stdout));
    const weather = items.find((item) => item['tool'] === 'get-structured-content')!;
    const structured = (weather['result'] as { structured_content: unknown }).structured_content;
    expect(structured).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    const requests = mock.requests.slice(before);
    const cut = resultText(wire, requests[1]!.body, ids[0]!);
    const total = Buffer.byteLength(`Echo: ${big}`);
    expect(cut).toBe(`Echo: ${big}`.slice(0, 64 * 1024) + `\n[... MCP output truncated: ${total - 64 * 1024} of ${total} bytes omitted ...]`);
    expect(resultText(wire, requests[2]!.body, ids[1]!)).toBe(JSON.stringify(structured));
    expect(resultText(wire, requests[3]!.body, ids[2]!)).toBe('{"content":"alpha\\n"}');
  });
});

describe('rig exec human output and rollouts', () => {
  test('prints each server status; the rollout records the call with its duration', async () => {
    mock.enqueue({ toolCalls: [{ id: 'call_ls', name: 'mcp__files__list_directory', arguments: { path: repo } }] }, { text: 'Listed.' });
    const dir = home('responses');
    const run = await runRig(['exec', '--harness', 'native', 'list the repo'], { cwd: repo, home: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^mcp: everything starting$/m);
    expect(run.stderr).toMatch(/^mcp: everything ready \(\d+ tools, \d+ ms\)$/m);
    expect(run.stderr).toMatch(/^mcp: files ready \(\d+ tools, \d+ ms\)$/m);
    expect(run.stderr).toMatch(/^mcp: web ready \(1 tool, \d+ ms\)$/m);
    expect(run.stderr).toContain('mcp files.list_directory');
    expect(run.stdout.trim()).toBe('Listed.');
    // The stdio servers' launch times are kept for the next start (slowest launched first).
    const launchTimes = JSON.parse(fs.readFileSync(path.join(dir, 'mcp', 'launch-times.json'), 'utf8')) as { servers: Record<string, { ms: number }> };
    expect(Object.keys(launchTimes.servers).sort()).toEqual(['everything', 'files']);

    const sessions = path.join(dir, 'sessions');
    const files = fs.readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    const records = fs.readFileSync(path.join(sessions, files[0]!), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    const end = records.find((r) => r.type === 'event_msg' && r.payload['type'] === 'mcp_tool_call_end');
    expect(end?.payload).toMatchObject({
      call_id: 'call_ls',
      invocation: { server: 'files', tool: 'list_directory', arguments: { path: repo } },
      duration: { secs: expect.any(Number), nanos: expect.any(Number) },
      status: 'completed',
      result: { Ok: { content: [{ type: 'text', text: expect.stringContaining('note.txt') }] } },
    });
  });

  test('a required server that fails stops rig exec with its stderr', async () => {
    const dir = tempRigHome({
      url: mock.url,
      extra: ['[mcp_servers.broken]', `command = ${JSON.stringify(process.execPath)}`, `args = ["-e", "console.error('cannot reach the database'); process.exit(2)"]`, 'required = true'].join('\n'),
    });
    dirs.push(dir);
    const run = await runRig(['exec', '--harness', 'native', 'hi'], { cwd: repo, home: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('required MCP server "broken"');
    expect(run.stderr).toContain('cannot reach the database');
  });
});

describe('rig doctor', () => {
  test('starts each configured server and reports its status and tool count', async () => {
    const dir = tempRigHome({
      url: mock.url,
      extra: [serversToml(), '[mcp_servers.off]', 'command = "nothing"', 'enabled = false', '[mcp_servers.bad]', 'command = "/nonexistent/mcp-server"'].join('\n'),
    });
    dirs.push(dir);
    const run = await runRig(['doctor', '--offline'], { cwd: repo, home: dir });
    expect(run.stdout).toContain('mcp servers: 5 configured');
    expect(run.stdout).toMatch(/mcp server everything \(stdio, required\): ready, \d+ tools, started in \d+ ms/);
    expect(run.stdout).toMatch(/mcp server files \(stdio, required\): ready, \d+ tools/);
    expect(run.stdout).toMatch(/mcp server web \(streamable_http, required\): ready, 1 tool,/);
    expect(run.stdout).toContain('mcp server off (stdio): disabled');
    expect(run.stdout).toMatch(/PROBLEM: mcp server bad \(stdio\): failed to start: .*nonexistent/);
  });
});
