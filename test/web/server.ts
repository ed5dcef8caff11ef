// A loopback HTTP server for the web tests: routes answer with a status, headers and body, and
// every request is recorded.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: Recorded) => { status?: number; headers?: Record<string, string>; body?: string | Buffer };

export interface TestServer {
  url: string;
  requests: Recorded[];
  close: () => Promise<void>;
}

export async function startServer(routes: Record<string, Route>): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(recorded);
      const path = (req.url ?? '/').split('?')[0]!;
      const route = routes[path];
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
        return;
      }
      const answer = route(recorded);
      res.writeHead(answer.status ?? 200, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() for seconds.
        server.closeAllConnections();
      }),
  };
}
