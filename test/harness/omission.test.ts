// The omission rule (issue 15): every tool a profile sends has a real handler; a tool of the
// original rig cannot run is left out of the request and listed, with its reason, by `rig harness
// list` and `rig harness show`; a profile binding a tool to no handler fails to load, naming it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { removeDir, runRig, tempDir } from '../support/workspace.js';

const home = tempDir('home');
afterAll(() => removeDir(home));

interface Listed {
  id: string;
  error?: string;
  unbound?: number;
  tools?: { name: string }[];
  omitted?: { name: string; reason: string }[];
}

test('rig harness list: every built-in profile loads with 0 unbound tools; omitted tools are listed apart', async () => {
  const run = await runRig(['harness', 'list', '--json'], { cwd: home, home });
  expect(run.code).toBe(0);
  const entries = JSON.parse(run.stdout) as Listed[];
  expect(entries.length).toBeGreaterThan(10);
  for (const entry of entries) {
    expect({ id: entry.id, error: entry.error, unbound: entry.unbound }).toEqual({ id: entry.id, error: undefined, unbound: 0 });
    const sent = new Set(entry.tools!.map((t) => t.name));
    for (const omitted of entry.omitted ?? []) expect(sent.has(omitted.name), `${entry.id} ${omitted.name}`).toBe(false);
  }
  // Codex's tool set (issue 11 item 5): what rig cannot run yet is declared and left out, by name.
  const native = entries.find((e) => e.id === 'native')!;
  expect(native.omitted!.map((tool) => tool.name)).toEqual(['tool_search']);
  // Web search is bound; a session without a [web_search] backend leaves it out (test/web/search-tool.test.ts).
  expect(native.tools!.map((tool) => tool.name)).toContain('web_search');
  const deepseek = entries.find((e) => e.id === 'deepseek-tui')!;
  expect(deepseek.omitted!.length + deepseek.tools!.length).toBe(84);
  const text = await runRig(['harness', 'list'], { cwd: home, home });
  expect(text.stdout).toMatch(/unbound: 0; omitted: \d+ \(ReportFindings, /);
});

test('rig harness show lists what the request leaves out, with the reasons', async () => {
  const run = await runRig(['harness', 'show', 'qwen-code', '--provider', 'openai', '-m', 'gpt-5.1'], { cwd: home, home, env: { OPENAI_API_KEY: 'sk-test' } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('# 1 tool of the original left out of the request:');
  expect(run.stdout).toMatch(/#   notebook_edit: not in this build of rig/);
  expect(run.stdout).not.toContain('"name": "notebook_edit"');
});

test('a user profile binding a tool to a capability rig does not have fails to load, naming the tool', async () => {
  const dir = join(home, 'harnesses');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mine.prompt.md'), 'You are helpful.\n');
  writeFileSync(
    join(dir, 'mine.json'),
    JSON.stringify({ format: 1, id: 'mine', description: 'mine', wires: ['chat'], prompt_file: 'mine.prompt.md', tools: [{ name: 'Teleport', capability: 'magic.teleport' }] }),
  );
  const run = await runRig(['harness', 'list', '--json'], { cwd: home, home });
  const mine = (JSON.parse(run.stdout) as Listed[]).find((e) => e.id === 'mine')!;
  expect(mine.error).toMatch(/mine\.json: tools\[0\]\.capability: unknown capability "magic\.teleport" for tool "Teleport"/);
});
