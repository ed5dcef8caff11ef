// Issue 6's conformance run: for every harness and every wire its profile supports, a real
// `rig exec --harness H --provider P` against the loopback mock plays the scenario in the
// harness's own tool names and argument shapes. Checked: the first request rig sends (a committed
// snapshot: system prompt placement, tool list with schemas, extra fields), the final file byte for
// byte, what the model read back, and the final message.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, listProfileLocations, readProfileFile } from '../../src/harness/loader.js';
import { bindHarness, withoutUnavailable } from '../../src/tools/harness/registry.js';
import { TIMER_CAPABILITY_IDS } from '../../src/tools/timers/tools.js';
import { effectiveSettings, reshapeTools } from '../../src/harness/request-settings.js';
import { nativeCapabilities } from '../../src/tools/native/registry.js';
import { toDefinition } from '../../src/tools/spec.js';
import { tmuxArgv, tmuxSessionName } from '../../src/tools/harness/terminal.js';
import type { ToolDefinition } from '../../src/protocol/index.js';
import { startMockProvider, type MockWire } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { requestSnapshot } from './normalize.js';
import { pool } from './pool.js';
import { APP_AFTER, APP_BEFORE, APP_PATCH, PROMPT, SCRIPTS } from './scenario.js';

const limit = pool(2);
const builtins = listProfileLocations({ builtinDir: builtinProfileDir() });

function providerConfig(id: string, url: string, wire: MockWire): string {
  if (id === 'mock') return '';
  return [`[model_providers.${id}]`, `base_url = "${url}"`, `wire_api = "${wire}"`, 'env_key = "MOCK_API_KEY"', ''].join('\n');
}

it('every built-in harness has a scenario', () => {
  expect(builtins.map((entry) => entry.id).sort()).toEqual(Object.keys(SCRIPTS).sort());
});

/** The tools of a wire body as {name, schema, extras}, whatever the wire's tool shape. */
function wireTools(wire: MockWire, body: Record<string, unknown>): { name: string; schema?: unknown; rest: Record<string, unknown> }[] | undefined {
  const tools = body['tools'] as Record<string, unknown>[] | undefined;
  if (tools === undefined) return undefined;
  return tools.map((tool) => {
    if (wire === 'chat') {
      const { name, description: _d, parameters, ...rest } = tool['function'] as Record<string, unknown>;
      return { name: String(name), schema: parameters, rest };
    }
    const { name, description: _d, parameters, input_schema, type: _t, cache_control: _c, format: _f, ...rest } = tool;
    return { name: String(name), schema: wire === 'messages' ? input_schema : parameters, rest };
  });
}

/**
 * What the profile says the model sees first: its advertised tools, bound as a session binds them
 * and reshaped for the wire as the profile says (per-wire schemas, schema steps, tool extras).
 */
function expectedTools(id: string, file: string, wire: MockWire): { tools: ToolDefinition[]; withoutParameters: string[] } {
  // These runs configure no web search backend, so a session leaves the web search tools out; and
  // rig exec ends with its turn, so it leaves the timer tools out.
  const omitted = new Map<string, string>([['web.search', 'no backend'], ...TIMER_CAPABILITY_IDS.map((id): [string, string] => [id, 'rig exec'])]);
  const profile = withoutUnavailable(readProfileFile(file, 'builtin'), omitted);
  const bound = bindHarness(profile, nativeCapabilities({ wire, modelAcceptsImages: true }));
  return reshapeTools(bound.advertised.map(toDefinition), profile.tools, wire, effectiveSettings(profile.request, wire, 'mock-model'));
}

const cases = builtins.flatMap(({ id, file }) => readProfileFile(file, 'builtin').wires.map((wire) => ({ id, file, wire })));

describe.concurrent('rig exec --harness H on each wire it supports', () => {
  for (const { id, file, wire } of cases) {
    const script = SCRIPTS[id]!;
    it(`${id} on ${wire}`, ({ expect }) =>
      limit(async () => {
        const mock = await startMockProvider();
        const repo = tempGitRepo({ 'app.js': APP_BEFORE });
        const home = tempRigHome({ url: mock.url, wire, extra: providerConfig(script.provider, mock.url, wire) });
        const started = new Date();
        let threadId: string | undefined;
        try {
          mock.enqueue(...script.turns(repo));
          // The form: engine flags before the subcommand (`rig --harness H --provider P exec ...`).
          const args = ['--harness', id, '--provider', script.provider, 'exec', '--json', ...(script.flags ?? ['-s', 'workspace-write']), PROMPT];
          // A fixed shell and timezone: both reach the prompt and the environment context.
          const run = await runRig(args, { cwd: repo, home, env: { SHELL: '/bin/bash', TZ: 'UTC' } });
          expect(run.stderr, run.stderr).toBe('');
          expect(run.code).toBe(0);
          expect(mock.remaining()).toBe(0);
          expect(mock.requests).toHaveLength(script.turns(repo).length);

          expect(readFileSync(join(repo, 'app.js'), 'utf8')).toBe(APP_AFTER);
          const body = (n: number) => JSON.stringify(mock.requests[n - 1]!.body);
          expect(body(script.sawFileAt)).toContain('wrold');
          expect(body(script.sawRunAt)).toContain('Hello, world!');
          expect(mock.requests.every((request) => request.wire === wire)).toBe(true);
          if (script.echoed) expect(body(script.echoed.at)).toContain(JSON.stringify(script.echoed.text).slice(1, -1));
          // The confirmation rounds: SWE-agent's review of the first submit, Terminus 2's completion check.
          if (script.sawReviewAt) {
            expect(body(script.sawReviewAt)).toContain('Before your changes are submitted, review them:');
            expect(body(script.sawReviewAt)).toContain(JSON.stringify(`<diff>\n${APP_PATCH}\n</diff>`).slice(1, -1));
          }
          for (const text of script.firstRequestHas ?? []) expect(body(1)).toContain(JSON.stringify(text).slice(1, -1));
          if (script.sawCheckAt) expect(body(script.sawCheckAt)).toContain('Are you sure you want to mark the task as complete?');

          const events = jsonLines(run.stdout);
          threadId = events.find((event) => event['type'] === 'thread.started')?.['thread_id'] as string | undefined;
          const messages = events
            .filter((event) => event['type'] === 'item.completed' && (event['item'] as { type: string }).type === 'agent_message')
            .map((event) => (event['item'] as { text: string }).text);
          expect(messages.at(-1)).toBe(script.finalMessage);
          expect(events.at(-1)?.['type']).toBe('turn.completed');

          // The tool list on the wire is the profile's: names in order, schemas exactly (so required
          // fields and enums too), extras merged; a text protocol sends no tool list at all.
          const sent = wireTools(wire, mock.requests[0]!.body as Record<string, unknown>);
          const { tools: expected, withoutParameters } = expectedTools(id, file, wire);
          if (expected.length === 0) expect(sent).toBeUndefined();
          else {
            expect(sent?.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
            const shape = effectiveSettings(readProfileFile(file, 'builtin').request, wire, 'mock-model').wireShape;
            expected.forEach((tool, index) => {
              const bare = withoutParameters.includes(tool.name);
              if (tool.kind === 'function') expect(sent?.[index]?.schema, tool.name).toEqual(bare ? undefined : tool.parameters);
              // Responses function tools carry `strict` themselves (false unless an extra says otherwise).
              const own = wire === 'responses' && tool.kind === 'function' && !shape.omit_tool_strict ? { strict: false } : {};
              expect(sent?.[index]?.rest, `${tool.name} extra fields`).toEqual({ ...own, ...tool.extras });
            });
          }

          await expect(requestSnapshot(mock.requests[0]!, { repo, home, now: started })).toMatchFileSnapshot(
            `./__snapshots__/first-request/${id}.${wire}.json`,
          );
        } finally {
          // Terminus 2's tmux session outlives rig exec (rig leaves it to the user); end ours.
          if (threadId && id === 'terminus-2') spawnSync('tmux', tmuxArgv(tmuxSessionName(threadId), 'kill-server').slice(1), { stdio: 'ignore' });
          await mock.close();
          removeDir(repo);
          removeDir(home);
        }
      }),
    );
  }
});
