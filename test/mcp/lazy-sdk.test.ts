// The SDK costs ~150 ms to import: it must load only when a server is enabled, never at startup.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMcpManager, mcpSdkLoaded } from '../../src/mcp/index.js';
import { REPO_ROOT } from '../support/workspace.js';
import { servers, TINY_SERVER, nodeServer } from './support/servers.js';

describe('lazy SDK', () => {
  it('no file but sdk.ts imports the SDK at run time (type imports only)', () => {
    const dir = join(REPO_ROOT, 'src', 'mcp');
    const runtime = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'sdk.ts')
      .filter((f) => /^import (?!type )[^;]*from '@modelcontextprotocol\/sdk/m.test(readFileSync(join(dir, f), 'utf8')));
    expect(runtime).toEqual([]);
    expect(readFileSync(join(dir, 'sdk.ts'), 'utf8')).not.toMatch(/^import (?!type )[^;]*'@modelcontextprotocol/m);
  });

  it('a manager without enabled servers does not load it; one with a server does', async () => {
    const none = await createMcpManager({ servers: servers({ off: { command: 'x', enabled: false } }), cwd: REPO_ROOT });
    expect(none.tools()).toEqual([]);
    expect(await none.start()).toEqual({ ready: [], failed: [], pending: [] });
    expect(mcpSdkLoaded()).toBe(false);
    const one = await createMcpManager({ servers: servers({ tiny: nodeServer(TINY_SERVER) }), cwd: REPO_ROOT });
    expect(mcpSdkLoaded()).toBe(true);
    await one.close();
  });
});
