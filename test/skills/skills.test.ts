// Skills: discovery order and precedence (as Codex), SKILL.md validation naming file and field,
// the list for the model within its budget, $name mentions, bodies on demand, and `rig skills list`
// through the built CLI.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  discoverSkills,
  loadSkillBody,
  renderSkillInjection,
  renderSkillsList,
  selectMentionedSkills,
  type SkillMetadata,
} from '../../src/skills/index.js';
import { parseSimpleYaml } from '../../src/skills/frontmatter.js';
import { removeDir, runRig, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
function dir(name: string): string {
  const d = tempDir(name);
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function skill(root: string, folder: string, frontmatter: string, body = 'Do the thing.\n'): string {
  const file = join(root, folder, 'SKILL.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `---\n${frontmatter}\n---\n${body}`);
  return file;
}

function layout() {
  const home = dir('home');
  const userHome = dir('user');
  const repo = dir('repo');
  mkdirSync(join(repo, '.git'));
  const cwd = join(repo, 'pkg', 'app');
  mkdirSync(cwd, { recursive: true });
  skill(join(home, 'skills'), 'deploy', 'name: deploy\ndescription: Deploy with the user script');
  skill(join(userHome, '.agents', 'skills'), 'notes/meeting', 'name: meeting-notes\ndescription: "Summarise: a meeting"');
  skill(join(repo, '.agents', 'skills'), 'lint', 'name: lint\ndescription: >\n  Run the linters\n  of this repo');
  skill(join(repo, 'pkg', '.agents', 'skills'), 'deploy', 'name: deploy\ndescription: Deploy the package');
  skill(join(cwd, '.agents', 'skills'), 'test', "name: test\ndescription: 'Run the app''s tests'");
  // Not a skills root: above the project root.
  skill(join(repo, '..', `${repo.split('/').pop()}-outside`, '.agents', 'skills'), 'x', 'name: outside\ndescription: no');
  dirs.push(join(repo, '..', `${repo.split('/').pop()}-outside`));
  return { home, userHome, repo, cwd };
}

describe('discovery', () => {
  test('finds user and repo roots, lists repo skills first, then by name; ambiguous names are both kept', async () => {
    const { home, userHome, repo, cwd } = layout();
    const outcome = await discoverSkills({ home, cwd, projectRoot: repo, userHome });
    expect(outcome.errors).toEqual([]);
    expect(outcome.roots.map((r) => [r.path, r.scope])).toEqual([
      [join(home, 'skills'), 'user'],
      [join(userHome, '.agents', 'skills'), 'user'],
      [join(repo, '.agents', 'skills'), 'repo'],
      [join(repo, 'pkg', '.agents', 'skills'), 'repo'],
      [join(cwd, '.agents', 'skills'), 'repo'],
    ]);
    expect(outcome.skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ['deploy', 'repo', 'Deploy the package'],
      ['lint', 'repo', 'Run the linters of this repo'],
      ['test', 'repo', "Run the app's tests"],
      ['deploy', 'user', 'Deploy with the user script'],
      ['meeting-notes', 'user', 'Summarise: a meeting'],
    ]);
  });

  test('a SKILL.md reached through a symlink counts once; dot folders are skipped', async () => {
    const home = dir('home');
    const file = skill(join(home, 'skills'), 'real', 'name: real\ndescription: d');
    symlinkSync(dirname(file), join(home, 'skills', 'alias'));
    skill(join(home, 'skills'), '.hidden', 'name: hidden\ndescription: d');
    const outcome = await discoverSkills({ home, cwd: home, userHome: home });
    expect(outcome.skills.map((s) => s.name)).toEqual(['real']);
  });

  test('name and description are required; errors name the file and the field', async () => {
    const home = dir('home');
    const root = join(home, 'skills');
    const noDescription = skill(root, 'a', 'name: a');
    const emptyName = skill(root, 'b', 'name: ""\ndescription: d');
    const longName = skill(root, 'c', `name: ${'n'.repeat(65)}\ndescription: d`);
    const listName = skill(root, 'd', 'name:\n  - x\ndescription: d');
    const noFrontmatter = join(root, 'e', 'SKILL.md');
    mkdirSync(dirname(noFrontmatter));
    writeFileSync(noFrontmatter, '# just text\n');
    const badYaml = skill(root, 'f', 'name: [unclosed\ndescription: d');
    const outcome = await discoverSkills({ home, cwd: home, userHome: home });
    expect(outcome.skills).toEqual([]);
    expect(outcome.errors.map((e) => e.message)).toEqual([
      `${noDescription}: missing field \`description\` in the frontmatter (both name and description are required)`,
      `${emptyName}:2: invalid name: it is empty`,
      `${longName}:2: invalid name: 65 characters, at most 64 allowed`,
      `${listName}:2: invalid name: expected a string, found a list`,
      `${noFrontmatter}:1: missing YAML frontmatter delimited by --- (a SKILL.md starts with ---, name: ..., description: ..., ---)`,
      expect.stringMatching(new RegExp(`^${badYaml}: invalid YAML in the frontmatter: `)),
    ]);
  });

  test('the small frontmatter reader hands anything unusual to the YAML parser', () => {
    expect(parseSimpleYaml('name: a\ndescription: plain words, fine')).toEqual({ name: 'a', description: 'plain words, fine' });
    for (const hard of ['description: >\n  folded', 'metadata:\n  k: v', 'name: [a]', 'name: a # comment', 'name: true', 'name: 12', 'a: b: c']) {
      expect(parseSimpleYaml(hard), hard).toBeUndefined();
    }
  });
});

const sample = (name: string, description: string, scope: 'repo' | 'user' = 'repo'): SkillMetadata => ({
  name,
  description,
  path: `/skills/${name}/SKILL.md`,
  scope,
  root: '/skills',
});

describe('the list for the model', () => {
  test('one line per skill in the Codex structure', () => {
    const rendered = renderSkillsList([sample('lint', 'Run the linters'), sample('deploy', 'Ship it', 'user')]);
    expect(rendered.text).toMatch(/^<skills_instructions>\n## Skills\n/);
    expect(rendered.text).toContain('### Available skills\n- lint: Run the linters (file: /skills/lint/SKILL.md)\n- deploy: Ship it (file: /skills/deploy/SKILL.md)\n### How to use skills\n');
    expect(rendered.text).toMatch(/<\/skills_instructions>$/);
    expect(renderSkillsList([]).text).toBeUndefined();
  });

  test('over budget, descriptions shrink evenly before any skill is left out', () => {
    const skills = [sample('alpha', 'abcdef'), sample('beta', 'uvwxyz')];
    const bare = skills.reduce((n, s) => n + `- ${s.name}: (file: ${s.path})\n`.length, 0);
    const shrunk = renderSkillsList(skills, { chars: bare + 6 });
    expect(shrunk.text).toContain('- alpha: ab (file:');
    expect(shrunk.text).toContain('- beta: uv (file:');
    expect(shrunk).toMatchObject({ included: 2, omitted: 0, truncatedDescriptions: 2 });
    const dropped = renderSkillsList(skills, { chars: bare - 1 });
    expect(dropped).toMatchObject({ included: 1, omitted: 1 });
    expect(dropped.warning).toMatch(/1 skill was not listed/);
  });
});

describe('mentions and bodies', () => {
  test('$name selects a skill; env vars, unknown and ambiguous names do not; a linked path does', () => {
    const skills = [sample('lint', 'a'), sample('deploy', 'b'), { ...sample('deploy', 'c', 'user'), path: '/u/deploy/SKILL.md' }];
    expect(selectMentionedSkills('please $lint then echo $HOME and $nope', skills).map((s) => s.name)).toEqual(['lint']);
    expect(selectMentionedSkills('$deploy now', skills)).toEqual([]);
    expect(selectMentionedSkills('use [$deploy](/u/deploy/SKILL.md)', skills).map((s) => s.path)).toEqual(['/u/deploy/SKILL.md']);
    expect(selectMentionedSkills('costs $5', skills)).toEqual([]);
  });

  test('the body is read on demand and injected as Codex does', async () => {
    const home = dir('home');
    skill(join(home, 'skills'), 'lint', 'name: lint\ndescription: d', '\n# Lint\nRun `make lint`.\n');
    const [found] = (await discoverSkills({ home, cwd: home, userHome: home })).skills;
    const loaded = loadSkillBody(found!);
    expect(loaded.body).toBe('# Lint\nRun `make lint`.\n');
    expect(renderSkillInjection(loaded)).toBe(`<skill>\n<name>lint</name>\n<path>${found!.path}</path>\n${loaded.contents}\n</skill>`);
  });
});

describe('rig skills list (built CLI)', () => {
  test('prints the skills of the folder, and --json gives them with errors', async () => {
    const { home, repo, cwd } = layout();
    // runRig sets HOME to the RIG_HOME: put the user's ~/.agents skill there.
    skill(join(home, '.agents', 'skills'), 'meeting', 'name: meeting-notes\ndescription: Summarise a meeting');
    skill(join(repo, '.agents', 'skills'), 'broken', 'name: broken');
    const human = await runRig(['skills', 'list'], { cwd, home });
    expect(human.stdout.split('\n').filter((l) => /^\S/.test(l)).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'deploy repo',
      'lint repo',
      'test repo',
      'deploy user',
      'meeting-notes user',
    ]);
    expect(human.stderr).toContain(`rig: skipped a skill: ${join(repo, '.agents', 'skills', 'broken', 'SKILL.md')}: missing field \`description\``);
    expect(human.code).toBe(1);
    const json = await runRig(['skills', 'list', '--json', '-C', cwd], { cwd: repo, home });
    const parsed = JSON.parse(json.stdout) as { skills: { name: string; scope: string; path: string }[]; errors: unknown[] };
    expect(parsed.skills.map((s) => s.name)).toEqual(['deploy', 'lint', 'test', 'deploy', 'meeting-notes']);
    expect(parsed.skills[0]!.path).toBe(join(repo, 'pkg', '.agents', 'skills', 'deploy', 'SKILL.md'));
    expect(parsed.errors).toHaveLength(1);
  });
});
