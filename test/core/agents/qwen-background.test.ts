// Qwen Code's `agent` through the real CLI: its schema gives `run_in_background` the default true
// (Qwen Code 0.24, test/fixtures/harness-tools/qwen-code.*.json), so an `agent` call that leaves it
// out returns at once with the agent's id while the child works; `run_in_background: false` waits
// for the child's answer (test/core/agents/harness-delegation.test.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

test("Qwen Code's agent without run_in_background runs the child in the background and returns its id at once", async () => {
  const repo = tempGitRepo({ 'a.txt': 'alpha\n' });
  const home = agentsHome(mock.url);
  dirs.push(repo, home);
  const seen = scriptByModel(mock, {
    [ROOT_MODEL]: [
      { toolCalls: [{ id: 'call_agent', name: 'agent', arguments: { description: 'Look around', prompt: 'create child-done', subagent_type: 'implementer' } }] },
      // Bounded (30 s) wait until the child has done its part, so the run does not end before it.
      { toolCalls: [{ id: 'call_poll', name: 'run_shell_command', arguments: { command: 'for i in $(seq 1 600); do [ -e child-done ] && break; sleep 0.05; done; ls child-done' } }] },
      { text: 'root done' },
    ],
    [CHILD_MODEL]: [{ toolCalls: [{ id: 'call_touch', name: 'run_shell_command', arguments: { command: 'touch child-done' } }] }, { text: 'child answer' }],
  });
  const run = await runRig(['exec', '--json', '--harness', 'qwen-code', '-s', 'workspace-write', 'delegate'], { cwd: repo, home });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  // rig presents the parameter as Qwen Code does.
  const captured = JSON.parse(readFileSync(new URL('../../fixtures/harness-tools/qwen-code.responses.json', import.meta.url), 'utf8')) as { tools: { name: string; parameters: { properties: Record<string, unknown> } }[] };
  const presented = (seen[ROOT_MODEL]![0]!.body.tools as { name: string; parameters: { properties: Record<string, unknown> } }[]).find((tool) => tool.name === 'agent')!;
  expect(presented.parameters.properties['run_in_background']).toEqual(captured.tools.find((tool) => tool.name === 'agent')!.parameters.properties['run_in_background']);
  expect(presented.parameters.properties['run_in_background']).toEqual({ type: 'boolean', default: true });
  const rootTexts = inputTexts(seen[ROOT_MODEL]![1]!);
  const launched = rootTexts.at(-1)!;
  expect(launched).toMatch(/^Async agent launched successfully\.\nagentId: [0-9a-f-]{36}\n/);
  expect(launched).toContain('list_agents');
  expect(launched).not.toContain('child answer');
  // The child ran its command while the root went on.
  expect(seen[CHILD_MODEL]!.length).toBeGreaterThanOrEqual(1);
  expect(inputTexts(seen[ROOT_MODEL]![2]!).join('\n')).toContain('child-done');
});
