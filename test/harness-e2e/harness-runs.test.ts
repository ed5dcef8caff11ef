// Issue 6's conformance run: for every harness and every wire its profile supports, a real
// `rig exec --harness H --provider P` against the loopback mock plays the scenario in the
// harness's own tool names and argument shapes. Checked: the first request rig sends (a committed
// snapshot: system prompt placement, tool list with schemas, extra fields), the final file byte for
// byte, what the model read back, and the final message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, listProfileLocations, readProfileFile } from '../../src/harness/loader.js';
import { startMockProvider, type MockWire } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { requestSnapshot } from './normalize.js';
import { pool } from './pool.js';
import { APP_AFTER, APP_BEFORE, PROMPT, SCRIPTS } from './scenario.js';

const limit = pool(2);
const builtins = listProfileLocations({ builtinDir: builtinProfileDir() });

function providerConfig(id: string, url: string, wire: MockWire): string {
  if (id === 'mock') return '';
  return [`[model_providers.${id}]`, `base_url = "${url}"`, `wire_api = "${wire}"`, 'env_key = "MOCK_API_KEY"', ''].join('\n');
}

it('every built-in harness has a scenario', () => {
  expect(builtins.map((entry) => entry.id).sort()).toEqual(Object.keys(SCRIPTS).sort());
});

const cases = builtins.flatMap(({ id, file }) => readProfileFile(file, 'builtin').wires.map((wire) => ({ id, wire })));

describe.concurrent('rig exec --harness H on each wire it supports', () => {
  for (const { id, wire } of cases) {
    const script = SCRIPTS[id]!;
    it(`${id} on ${wire}`, ({ expect }) =>
      limit(async () => {
        const mock = await startMockProvider();
        const repo = tempGitRepo({ 'app.js': APP_BEFORE });
        const home = tempRigHome({ url: mock.url, wire, extra: providerConfig(script.provider, mock.url, wire) });
        const started = new Date();
        try {
          mock.enqueue(...script.turns(repo));
          const args = ['exec', '--json', '--harness', id, '--provider', script.provider, ...(script.flags ?? ['-s', 'workspace-write']), PROMPT];
          const run = await runRig(args, { cwd: repo, home });
          expect(run.stderr, run.stderr).toBe('');
          expect(run.code).toBe(0);
          expect(mock.remaining()).toBe(0);
          expect(mock.requests).toHaveLength(script.turns(repo).length);

          expect(readFileSync(join(repo, 'app.js'), 'utf8')).toBe(APP_AFTER);
          const body = (n: number) => JSON.stringify(mock.requests[n - 1]!.body);
          expect(body(script.sawFileAt)).toContain('wrold');
          expect(body(script.sawRunAt)).toContain('Hello, world!');
          expect(mock.requests.every((request) => request.wire === wire)).toBe(true);

          const events = jsonLines(run.stdout);
          const messages = events
            .filter((event) => event['type'] === 'item.completed' && (event['item'] as { type: string }).type === 'agent_message')
            .map((event) => (event['item'] as { text: string }).text);
          expect(messages.at(-1)).toBe(script.finalMessage);
          expect(events.at(-1)?.['type']).toBe('turn.completed');

          await expect(requestSnapshot(mock.requests[0]!, { repo, home, now: started })).toMatchFileSnapshot(
            `./__snapshots__/first-request/${id}.${wire}.json`,
          );
        } finally {
          await mock.close();
          removeDir(repo);
          removeDir(home);
        }
      }),
    );
  }
});
