// A streamable HTTP MCP server built with the SDK, on 127.0.0.1 (a port the OS picks). It
// insists on `Authorization: Bearer <token>` when given one, and records the headers it saw.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface HttpMcpServer {
  url: string;
  /** Headers of every request, in order. */
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startHttpMcpServer(options: { token?: string } = {}): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const seen: IncomingHttpHeaders[] = [];
  const newSession = async (): Promise<StreamableHTTPServerTransport> => {
    const mcp = new McpServer({ name: 'rig-http-fixture', version: '1.0.0' });
    mcp.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } }, async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }));
    mcp.registerResource('greeting', 'memo://greeting', { mimeType: 'text/plain', description: 'A greeting' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'hello from http' }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await mcp.connect(transport);
    return transport;
  };
  const http: Server = createServer((req, res) => {
    seen.push(req.headers);
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    void (async () => {
      const id = req.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? transports.get(id) : undefined;
      const transport = existing ?? (await newSession());
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
