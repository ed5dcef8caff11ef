// webFetch against loopback servers: HTML to Markdown, text and JSON, size caps, redirects (each
// hop approved and checked), the network switch, refused content types and HTTP errors.
import { afterEach, describe, expect, test } from 'vitest';
import { webFetch, WebFetchError, type FetchApprovalRequest } from '../../src/web/index.js';
import { startServer, type TestServer } from './server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(routes: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(routes);
  servers.push(s);
  return s;
}

const PAGE = `<!doctype html><html><head><title>Install &amp; run</title><style>.x{color:red}</style><script>var secret = 1;</script></head>
<body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><header>Site header</header>
<main><h1>Install</h1><p>Run <code>npm install thing</code>, then <a href="/next">continue</a>.</p>
<ul><li>one</li><li>two</li></ul>
<pre><code class="language-js">const x = 1;
console.log(x);</code></pre>
<table><tr><th>flag</th><th>meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table>
<form><input name="q"><button>Search</button></form></main>
<footer>Copyright</footer></body></html>`;

async function fails(promise: Promise<unknown>): Promise<WebFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebFetchError);
    return error as WebFetchError;
  }
  throw new Error('expected webFetch to fail');
}

describe('webFetch', () => {
  test('an HTML page becomes Markdown of its main content', async () => {
    const s = await serve({ '/page': () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE }) });
    const result = await webFetch(`${s.url}/page`, { networkAllowed: true });
    expect(result).toMatchObject({ status: 200, format: 'markdown', title: 'Install & run', truncated: false, redirects: [] });
    expect(result.content).toBe(
      [
        '# Install',
        '',
        'Run `npm install thing`, then [continue](/next).',
        '',
        '-   one',
        '-   two',
        '',
        '```js',
        'const x = 1;',
        'console.log(x);',
        '```',
        '',
        '| flag | meaning |',
        '| --- | --- |',
        '| -v | verbose |',
      ].join('\n'),
    );
    for (const gone of ['secret', 'Site header', 'Copyright', 'Home', 'Search']) expect(result.content).not.toContain(gone);
  });

  test('text passes through, JSON is pretty-printed, charsets are honoured', async () => {
    const s = await serve({
      '/t': () => ({ headers: { 'content-type': 'text/plain' }, body: 'plain words\n' }),
      '/j': () => ({ headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' }),
      '/l': () => ({ headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) }),
    });
    expect(await webFetch(`${s.url}/t`, { networkAllowed: true })).toMatchObject({ format: 'text', content: 'plain words\n' });
    expect(await webFetch(`${s.url}/j`, { networkAllowed: true })).toMatchObject({ format: 'json', content: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
    expect((await webFetch(`${s.url}/l`, { networkAllowed: true })).content).toBe('café');
  });

  test('the download and the text are capped', async () => {
    const s = await serve({ '/big': () => ({ headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(200_000) }) });
    const bytes = await webFetch(`${s.url}/big`, { networkAllowed: true, maxBytes: 50_000 });
    expect(bytes).toMatchObject({ truncated: true, bytes: 50_000 });
    expect(bytes.content).toHaveLength(50_000);
    const chars = await webFetch(`${s.url}/big`, { networkAllowed: true, maxChars: 1000 });
    expect(chars.content).toHaveLength(1000);
    expect(chars.truncated).toBe(true);
  });

  test('redirects are followed, each hop approved; too many fail; only http(s) hops are allowed', async () => {
    const s = await serve({
      '/a': () => ({ status: 301, headers: { location: '/b' } }),
      '/b': () => ({ status: 302, headers: { location: '/c' } }),
      '/c': () => ({ headers: { 'content-type': 'text/plain' }, body: 'landed' }),
      '/loop': () => ({ status: 302, headers: { location: '/loop' } }),
      '/evil': () => ({ status: 302, headers: { location: 'file:///etc/passwd' } }),
    });
    const asked: FetchApprovalRequest[] = [];
    const result = await webFetch(`${s.url}/a`, { networkAllowed: true, approve: (r) => (asked.push(r), true) });
    expect(result).toMatchObject({ url: `${s.url}/c`, content: 'landed', redirects: [`${s.url}/a`, `${s.url}/b`] });
    expect(asked.map((r) => [r.reason, r.url])).toEqual([
      ['fetch', `${s.url}/a`],
      ['redirect', `${s.url}/b`],
      ['redirect', `${s.url}/c`],
    ]);
    expect((await fails(webFetch(`${s.url}/loop`, { networkAllowed: true, maxRedirects: 3 }))).code).toBe('too_many_redirects');
    expect((await fails(webFetch(`${s.url}/evil`, { networkAllowed: true }))).message).toMatch(/only http:\/\/ and https:\/\/ URLs can be fetched, not file:/);
    // A hop the approver refuses is never requested.
    const before = s.requests.length;
    const denied = await fails(webFetch(`${s.url}/a`, { networkAllowed: true, approve: (r) => r.reason === 'fetch' }));
    expect(denied).toMatchObject({ code: 'denied', message: `web_fetch: fetching ${s.url}/b was not approved` });
    expect(s.requests.slice(before).map((r) => r.url)).toEqual(['/a']);
  });

  test('no request leaves when the network is off or the fetch is not approved', async () => {
    const s = await serve({ '/t': () => ({ headers: { 'content-type': 'text/plain' }, body: 'x' }) });
    expect((await fails(webFetch(`${s.url}/t`, { networkAllowed: false }))).message).toMatch(/network access is off in this sandbox.*network_access = true/);
    expect((await fails(webFetch(`${s.url}/t`, { networkAllowed: true, approve: () => false }))).code).toBe('denied');
    expect(s.requests).toEqual([]);
  });

  test('PDFs and binaries are refused with a clear message; HTTP errors name the status', async () => {
    const s = await serve({
      '/doc.pdf': () => ({ headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7 ...' }),
      '/img': () => ({ headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]) }),
    });
    expect((await fails(webFetch(`${s.url}/doc.pdf`, { networkAllowed: true }))).message).toMatch(/is a PDF document, which web_fetch cannot read yet/);
    expect((await fails(webFetch(`${s.url}/img`, { networkAllowed: true }))).message).toMatch(/is image\/png, not a web page or text/);
    const missing = await fails(webFetch(`${s.url}/nope`, { networkAllowed: true }));
    expect(missing).toMatchObject({ code: 'http_error', status: 404 });
    expect(missing.message).toMatch(/answered HTTP 404 Not Found: no such page/);
    expect((await fails(webFetch('ftp://example.com/x', { networkAllowed: true }))).code).toBe('invalid_url');
    expect((await fails(webFetch('not a url', { networkAllowed: true }))).code).toBe('invalid_url');
  });
});
