// Skills in real sessions through `rig exec`: the list the model gets in its opening context (in
// discovery order, with descriptions), a `$name` mention loading the body, and the harness's own
// skill tool (Claude Code `Skill`, opencode `skill`) returning it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

function skill(root: string, name: string, description: string, body: string): void {
  const file = join(root, name, 'SKILL.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`);
}

function home(wire: MockWire): string {
  const h = tempRigHome({ url: mock.url, wire });
  homes.push(h);
  skill(join(h, 'skills'), 'beta', 'user-level helper for beta things', 'Beta body.\n');
  return h;
}

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'pkg/index.ts': 'export {};\n' });
  skill(join(repo, '.agents', 'skills'), 'zeta', 'release checklist for this repo', 'Run the release checklist: bump, tag, push.\n');
  skill(join(repo, 'pkg', '.agents', 'skills'), 'alpha', 'package conventions', 'Alpha body.\n');
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const h of homes) removeDir(h);
});

const sent = (index: number) => JSON.stringify(mock.requests[index]!.body);

test('the opening context lists every skill with its description, repo skills first, then by name', async () => {
  const before = mock.requests.length;
  mock.enqueue({ text: 'ok' });

  const run = await runRig(['exec', '--harness', 'native', 'hello'], { cwd: join(repo, 'pkg'), home: home('responses') });

  expect(run.code).toBe(0);
  const input = mock.requests[before]!.body.input as { content: { text: string }[] }[];
  const block = input.flatMap((m) => m.content ?? []).map((c) => c.text).find((t) => t?.startsWith('<skills_instructions>'));
  expect(block).toBeDefined();
  const listed = [...block!.matchAll(/^- (\w+): (.*) \(file: (.*)\)$/gm)].map((m) => [m[1], m[2]]);
  expect(listed).toEqual([
    ['alpha', 'package conventions'],
    ['zeta', 'release checklist for this repo'],
    ['beta', 'user-level helper for beta things'],
  ]);
  // Bodies are not in the context until a skill is used.
  expect(sent(before)).not.toContain('Run the release checklist');
});

test('a $name mention puts the skill body in the conversation before the prompt', async () => {
  const before = mock.requests.length;
  mock.enqueue({ text: 'ok' });

  const run = await runRig(['exec', '--harness', 'native', 'do a release with $zeta please'], { cwd: repo, home: home('responses') });

  expect(run.code).toBe(0);
  const texts = (mock.requests[before]!.body.input as { content?: { text: string }[] }[]).flatMap((m) => m.content ?? []).map((c) => c.text);
  const injected = texts.findIndex((t) => t?.startsWith('<skill>\n<name>zeta</name>'));
  const prompt = texts.indexOf('do a release with $zeta please');
  expect(injected).toBeGreaterThanOrEqual(0);
  expect(texts[injected]).toContain('Run the release checklist: bump, tag, push.');
  expect(injected).toBeLessThan(prompt);
  expect(sent(before)).not.toContain('Alpha body.');
});

describe.each([
  { harness: 'claude-code', tool: 'Skill', args: { skill: 'zeta' }, wire: 'messages' as const },
  { harness: 'opencode', tool: 'skill', args: { name: 'zeta' }, wire: 'chat' as const },
])('$harness $tool', ({ harness, tool, args, wire }) => {
  test('loads the skill body for the model; an unknown name lists the known ones', async () => {
    const h = home(wire);
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'loaded' });

    const run = await runRig(['exec', '--harness', harness, 'release'], { cwd: repo, home: h });

    expect(run.code).toBe(0);
    const result = toolResult(wire, mock.requests[before + 1]!.body);
    expect(result.text).toContain('Run the release checklist: bump, tag, push.');
    expect(result.text).toContain(`Base directory: ${join(repo, '.agents', 'skills', 'zeta')}`);
    expect(result.text).not.toContain('description: release checklist');

    const next = mock.requests.length;
    mock.enqueue({ toolCalls: [{ name: tool, arguments: Object.fromEntries(Object.keys(args).map((k) => [k, 'nope'])) }] }, { text: 'fine' });
    await runRig(['exec', '--harness', harness, 'release'], { cwd: repo, home: h });
    expect(toolResult(wire, mock.requests[next + 1]!.body).text).toContain('no skill named "nope"; available skills: zeta, beta');
  });
});
