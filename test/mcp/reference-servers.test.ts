// The MCP client against the real reference servers from npm, over stdio from node_modules, and
// an SDK-built streamable HTTP server on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMcpManager,
  listMcpResources,
  listMcpResourceTemplates,
  mapMcpResult,
  mcpResourceToolDefinitions,
  nameMcpTools,
  readMcpResource,
  type McpConnectionManager,
  type McpElicitationRequest,
} from '../../src/mcp/index.js';
import { tempDir } from '../config/tmp.js';
import { startHttpMcpServer, type HttpMcpServer } from './support/http-server.js';
import { nextEvent, nodeServer, referenceServer, servers } from './support/servers.js';

const EVERYTHING = referenceServer('@modelcontextprotocol/server-everything');
const FILESYSTEM = referenceServer('@modelcontextprotocol/server-filesystem');

const open: McpConnectionManager[] = [];
const https: HttpMcpServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
  await Promise.all(https.splice(0).map((s) => s.close()));
});

async function manager(options: Parameters<typeof createMcpManager>[0]): Promise<McpConnectionManager> {
  const m = await createMcpManager(options);
  open.push(m);
  return m;
}

describe('server-everything over stdio', () => {
  it('lists its tools with annotations, calls echo, maps images and structured content', async () => {
    const m = await manager({ servers: servers({ everything: nodeServer(EVERYTHING, { required: true }, ['stdio']) }), cwd: tempDir() });
    const summary = await m.start();
    expect(summary).toEqual({ ready: ['everything'], failed: [], pending: [] });
    const names = m.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    expect(m.tools().find((t) => t.name === 'echo')).toMatchObject({
      server: 'everything',
      annotations: { readOnlyHint: true, destructiveHint: false },
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    });
    expect(m.states()[0]).toMatchObject({ server: 'everything', status: 'ready', serverInfo: { name: 'mcp-servers/everything' } });

    const echo = await m.callTool('everything', 'echo', { message: 'hi there' });
    expect(echo.ok && mapMcpResult(echo.result).output).toBe('Echo: hi there');

    const image = await m.callTool('everything', 'get-tiny-image', {});
    expect(image.ok).toBe(true);
    if (!image.ok) return;
    const withImages = mapMcpResult(image.result, { supportsImages: true }).output;
    expect(Array.isArray(withImages) && withImages.some((p) => p.type === 'input_image' && p.image_url.startsWith('data:image/png;base64,'))).toBe(true);
    expect(mapMcpResult(image.result).output).toContain('<image content omitted because you do not support image input>');

    const weather = await m.callTool('everything', 'get-structured-content', { location: 'Chicago' });
    expect(weather.ok && weather.result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('a long call outlives its configured timeout while progress keeps coming, and progress is reported', async () => {
    // tool_timeout_sec = 2 with a 4 s call that reports progress every 0.5 s: each progress
    // notification restarts the 2 s window, so the call succeeds (the margins allow a busy machine).
    const m = await manager({ servers: servers({ everything: nodeServer(EVERYTHING, { tool_timeout_sec: 2 }, ['stdio']) }), cwd: tempDir() });
    await m.start();
    const progress: number[] = [];
    const outcome = await m.callTool('everything', 'trigger-long-running-operation', { duration: 4, steps: 8 }, { onProgress: (p) => progress.push(p.progress) });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(outcome.durationMs).toBeGreaterThan(3500);
    // The SDK drops a progress notification that arrives with the result, so the last may be missing.
    expect(progress.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('tools/list_changed updates the tool list: its conditional tools join after initialize', async () => {
    const m = await manager({ servers: servers({ everything: nodeServer(EVERYTHING, {}, ['stdio']) }), cwd: tempDir() });
    const joined = nextEvent(m, (e) => e.type === 'tools_changed' && m.tools().some((t) => t.name === 'trigger-elicitation-request'));
    void m.start();
    await joined;
    expect(m.tools().map((t) => t.name)).toContain('trigger-elicitation-request');
  });

  it("an elicitation is surfaced to the handler and its answer goes back to the server", async () => {
    const asked: McpElicitationRequest[] = [];
    const m = await manager({
      servers: servers({ everything: nodeServer(EVERYTHING, {}, ['stdio']) }),
      cwd: tempDir(),
      onElicitation: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
    });
    const ready = nextEvent(m, () => m.tools().some((t) => t.name === 'trigger-elicitation-request'));
    void m.start();
    await ready;
    const outcome = await m.callTool('everything', 'trigger-elicitation-request', {});
    expect(outcome.ok).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'everything', mode: 'form', message: 'Please provide inputs for the following fields:' });
    expect(asked[0]!.requestedSchema).toMatchObject({ type: 'object', required: ['name'] });
    expect(outcome.ok && mapMcpResult(outcome.result).output).toContain('- Name: Ada Lovelace');
  });

  it('without a handler an elicitation is cancelled', async () => {
    const m = await manager({ servers: servers({ everything: nodeServer(EVERYTHING, {}, ['stdio']) }), cwd: tempDir() });
    const ready = nextEvent(m, () => m.tools().some((t) => t.name === 'trigger-elicitation-request'));
    void m.start();
    await ready;
    const outcome = await m.callTool('everything', 'trigger-elicitation-request', {});
    expect(outcome.ok && mapMcpResult(outcome.result).output).toContain('User cancelled the elicitation dialog');
  });
});

describe('resource helpers', () => {
  it('list every server\'s resources and templates; a cursor needs a server', async () => {
    const http = await startHttpMcpServer();
    https.push(http);
    const m = await manager({ servers: servers({ everything: nodeServer(EVERYTHING, { required: true }, ['stdio']), remote: { url: http.url, required: true } }), cwd: tempDir() });
    await m.start();
    const templates = JSON.parse(await listMcpResourceTemplates(m, {})) as { resourceTemplates: { server: string; uriTemplate: string }[] };
    expect(templates.resourceTemplates.length).toBeGreaterThan(0);
    expect(templates.resourceTemplates.every((t) => t.server === 'everything' && typeof t.uriTemplate === 'string')).toBe(true);
    const all = JSON.parse(await listMcpResources(m, {})) as { resources: { server: string; uri: string }[] };
    expect(all.resources).toContainEqual(expect.objectContaining({ server: 'remote', uri: 'memo://greeting' }));
    await expect(listMcpResources(m, { cursor: 'abc' })).rejects.toThrow('cursor needs server');
    await expect(readMcpResource(m, { server: 'remote' })).rejects.toThrow('read_mcp_resource needs both `server` and `uri`');
    expect(mcpResourceToolDefinitions().map((t) => [t.name, Object.keys(t.parameters['properties'] as object)])).toEqual([
      ['list_mcp_resources', ['server', 'cursor']],
      ['list_mcp_resource_templates', ['server', 'cursor']],
      ['read_mcp_resource', ['server', 'uri']],
    ]);
  });
});

describe('server-filesystem over stdio', () => {
  it('lists its tools under each harness convention and reads a file', async () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'notes.txt'), 'line one\nline two\n');
    const m = await manager({ servers: servers({ 'my-files': nodeServer(FILESYSTEM, { required: true }, [root]) }), cwd: root });
    await m.start();
    const refs = m.tools().map((t) => ({ server: t.server, tool: t.name }));
    expect(refs.map((r) => r.tool)).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'list_directory']));
    const byConvention = (c: Parameters<typeof nameMcpTools>[1]) => nameMcpTools(refs, c).find((n) => n.tool === 'read_text_file')!.name;
    expect(byConvention('codex')).toBe('mcp__my_files__read_text_file');
    expect(byConvention('claude-code')).toBe('mcp__my-files__read_text_file');
    expect(byConvention('qwen-code')).toBe('mcp__my-files__read_text_file');
    expect(byConvention('opencode')).toBe('my-files_read_text_file');
    expect(m.tools().find((t) => t.name === 'write_file')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

    const read = await m.callTool('my-files', 'read_text_file', { path: path.join(root, 'notes.txt') });
    expect(read.ok && mapMcpResult(read.result).output).toBe('line one\nline two\n');
    const outside = await m.callTool('my-files', 'read_text_file', { path: '/etc/hostname' });
    expect(outside.ok && outside.result.isError).toBe(true);
    expect(outside.ok && mapMcpResult(outside.result).success).toBe(false);
  });
});

describe('streamable HTTP on 127.0.0.1', () => {
  it('connects with the bearer token from the environment and headers, calls a tool, reads a resource', async () => {
    const http = await startHttpMcpServer({ token: 'tok-123' });
    https.push(http);
    const m = await manager({
      servers: servers({
        remote: { url: http.url, required: true, bearer_token_env_var: 'RIG_TEST_MCP_TOKEN', http_headers: { 'X-Static': 'yes' }, env_http_headers: { 'X-From-Env': 'RIG_TEST_HEADER', 'X-Unset': 'RIG_TEST_UNSET' } },
      }),
      cwd: tempDir(),
      env: { RIG_TEST_MCP_TOKEN: 'tok-123', RIG_TEST_HEADER: 'from-env' },
    });
    expect(await m.start()).toEqual({ ready: ['remote'], failed: [], pending: [] });
    expect(http.seen[0]).toMatchObject({ authorization: 'Bearer tok-123', 'x-static': 'yes', 'x-from-env': 'from-env' });
    expect(http.seen[0]!['x-unset']).toBeUndefined();
    const sum = await m.callTool('remote', 'add', { a: 2, b: 40 });
    expect(sum.ok && sum.result.structuredContent).toEqual({ sum: 42 });
    expect(JSON.parse(await listMcpResources(m, { server: 'remote' }))).toMatchObject({
      server: 'remote',
      resources: [{ server: 'remote', uri: 'memo://greeting', name: 'greeting' }],
    });
    expect(JSON.parse(await readMcpResource(m, { server: 'remote', uri: 'memo://greeting' }))).toMatchObject({
      server: 'remote',
      uri: 'memo://greeting',
      contents: [{ text: 'hello from http' }],
    });
  });

  it('an HTTP server that goes away: the call fails clearly and the server is reported failed', async () => {
    const http = await startHttpMcpServer();
    const m = await manager({ servers: servers({ remote: { url: http.url, required: true } }), cwd: tempDir() });
    await m.start();
    await http.close();
    const failed = nextEvent(m, (e) => e.type === 'server_status' && e.status === 'failed');
    const outcome = await m.callTool('remote', 'add', { a: 1, b: 2 });
    expect(outcome).toMatchObject({ ok: false, kind: 'crashed' });
    expect(!outcome.ok && outcome.message).toMatch(/^MCP server "remote" (could not be reached|stopped during the call) /);
    expect(await failed).toMatchObject({ server: 'remote', reason: expect.stringContaining('rig reconnects on the next call') });
  });

  it('a missing token variable fails the server with a message naming it; a required one stops the start', async () => {
    const http = await startHttpMcpServer({ token: 'x' });
    https.push(http);
    const m = await manager({ servers: servers({ remote: { url: http.url, bearer_token_env_var: 'RIG_TEST_NO_SUCH_TOKEN', required: true } }), cwd: tempDir(), env: {} });
    await expect(m.start()).rejects.toThrow(
      'required MCP server "remote" failed to start: environment variable RIG_TEST_NO_SUCH_TOKEN (bearer_token_env_var of MCP server "remote") is not set',
    );
  });
});
