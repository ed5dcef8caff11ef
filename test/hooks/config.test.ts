// Loading hooks: Codex's [hooks] table, Claude Code's hooks.json unchanged, exact errors, and the
// trust rules for project hooks (trusted project, confirmed hash, asked again after a change).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { confirmHooks, loadHooks } from '../../src/hooks/index.js';
import { REPO_ROOT, removeDir, tempDir } from '../support/workspace.js';

const dirs: string[] = [];
function dir(name: string): string {
  const d = tempDir(name);
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

const CODEX_TOML = `model = "x"

[[hooks.PreToolUse]]
matcher = "Bash|apply_patch"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 check.py"
timeout = 30
statusMessage = "Checking"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "./stop.sh"
`;

describe('loading', () => {
  test("Codex's [hooks] table in the user config", () => {
    const home = dir('home');
    write(home, { 'config.toml': CODEX_TOML });
    const { active, warnings } = loadHooks({ home, cwd: home, projectTrusted: false });
    expect(warnings).toEqual([]);
    expect(active.map((h) => [h.event, h.matcher, h.command, h.timeoutSec, h.statusMessage, h.scope])).toEqual([
      ['PreToolUse', 'Bash|apply_patch', 'python3 check.py', 30, 'Checking', 'user'],
      ['Stop', undefined, './stop.sh', 600, undefined, 'user'],
    ]);
    expect(active[0]!.key).toBe(`${home}/config.toml:pre_tool_use:0:0`);
    // The config loader validates the same table, and no longer warns (the engine fires it).
    const loaded = loadConfig({ home, cwd: home, env: { HOME: home } });
    expect(loaded.warnings).toEqual([]);
  });

  test("Claude Code's hooks.json from its documentation loads unchanged", () => {
    const home = dir('home');
    copyFileSync(join(REPO_ROOT, 'test/fixtures/hooks/claude-code-hooks.json'), join(home, 'hooks.json'));
    const { active, warnings } = loadHooks({ home, cwd: home, projectTrusted: false });
    expect(active.map((h) => [h.event, h.matcher ?? '*'])).toEqual([
      ['PreToolUse', 'Bash'],
      ['PreToolUse', 'Edit|MultiEdit|Write'],
      ['PostToolUse', 'Edit|MultiEdit|Write'],
    ]);
    expect(active[2]!.timeoutSec).toBe(30);
    const file = join(home, 'hooks.json');
    expect(warnings).toEqual([
      `${file}:35: hooks for hooks.Notification never run: a Claude Code event rig does not fire`,
      `${file}:50: skipping the prompt hook hooks.UserPromptSubmit[0].hooks[0]: rig runs only command hooks`,
    ]);
  });

  test('structure errors name the file, the line and the key', () => {
    const home = dir('home');
    write(home, {
      'hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Edit(', hooks: [{ type: 'command', command: 'x' }] }, { hooks: [{ type: 'command' }] }] } }, null, 2),
    });
    const file = join(home, 'hooks.json');
    expect(() => loadHooks({ home, cwd: home, projectTrusted: false })).toThrow(ConfigError);
    try {
      loadHooks({ home, cwd: home, projectTrusted: false });
    } catch (error) {
      expect((error as Error).message.split('\n')).toEqual([
        `${file}:5: invalid matcher "Edit(" in hooks.PreToolUse[0].matcher: not a valid regular expression (Invalid regular expression: /Edit(/: Unterminated group). Use names separated by "|" (Edit|Write), "*" for all, or a valid regular expression`,
        `${file}:15: hooks.PreToolUse[1].hooks[0].command is missing: a command hook needs the shell command to run, e.g. command = "python3 check.py"`,
      ]);
    }
    write(home, { 'hooks.json': '{"hooks": {"Stop": [\n  {"hooks": [}\n]}}' });
    expect(() => loadHooks({ home, cwd: home, projectTrusted: false })).toThrow(new RegExp(`^${file}:2: not valid JSON`));
  });

  test('a bad TOML hook table is located by line', () => {
    const home = dir('home');
    write(home, { 'config.toml': '[[hooks.PreToolUse]]\nmatcher = "["\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\n' });
    expect(() => loadHooks({ home, cwd: home, projectTrusted: false })).toThrow(`${home}/config.toml:2: invalid matcher "["`);
    write(home, { 'config.toml': '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\ntimeout = "soon"\n' });
    expect(() => loadConfig({ home, cwd: home, env: { HOME: home } })).toThrow(
      `${home}/config.toml:5: invalid type for hooks.PreToolUse[0].hooks[0].timeout: found "soon", expected a number of seconds >= 0`,
    );
  });

  test('matchers of events without one are ignored, not validated', () => {
    const home = dir('home');
    write(home, { 'hooks.json': JSON.stringify({ hooks: { UserPromptSubmit: [{ matcher: '[', hooks: [{ type: 'command', command: 'x' }] }] } }) });
    const { active } = loadHooks({ home, cwd: home, projectTrusted: false });
    expect(active[0]!.matcher).toBeUndefined();
  });
});

describe('project hooks', () => {
  function project() {
    const home = dir('home');
    const repo = dir('repo');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'src'));
    write(repo, { '.rig/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] } }) });
    write(home, { 'hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'user-stop' }] }] } }) });
    return { home, repo, cwd: join(repo, 'src') };
  }

  test('do not run in an untrusted project', () => {
    const { home, repo, cwd } = project();
    const loaded = loadHooks({ home, cwd, projectRoot: repo, projectTrusted: false });
    expect(loaded.active.map((h) => h.command)).toEqual(['user-stop']);
    expect(loaded.all.map((h) => h.status)).toEqual(['active', 'untrusted-project']);
    expect(loaded.warnings.join('\n')).toMatch(/project hooks not run: .*\.rig\/hooks\.json \(the project is not trusted\)/);
  });

  test('run in a trusted project once confirmed, and are asked for again when they change', () => {
    const { home, repo, cwd } = project();
    const first = loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true });
    expect(first.pending.map((h) => [h.command, h.status])).toEqual([['./guard.sh', 'unconfirmed']]);
    expect(first.active.map((h) => h.command)).toEqual(['user-stop']);

    confirmHooks(home, first.pending);
    expect(JSON.parse(readFileSync(join(home, 'hooks', 'trusted.json'), 'utf8')).hooks).toHaveProperty([first.pending[0]!.key]);
    const confirmed = loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true });
    expect(confirmed.active.map((h) => h.command)).toEqual(['user-stop', './guard.sh']);

    write(repo, { '.rig/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh --lenient' }] }] } }) });
    const changed = loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true });
    expect(changed.pending.map((h) => [h.command, h.status])).toEqual([['./guard.sh --lenient', 'modified']]);
    expect(changed.active.map((h) => h.command)).toEqual(['user-stop']);
  });

  test("Codex's [hooks.state] can disable a hook or carry its trusted hash", () => {
    const { home, repo, cwd } = project();
    const key = `${join(repo, '.rig', 'hooks.json')}:pre_tool_use:0:0`;
    const hash = loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true }).pending[0]!.hash;
    write(home, { 'config.toml': `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"\n` });
    expect(loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true }).active.map((h) => h.command)).toEqual(['user-stop', './guard.sh']);
    write(home, { 'config.toml': `[hooks.state.${JSON.stringify(key)}]\nenabled = false\n` });
    expect(loadHooks({ home, cwd, projectRoot: repo, projectTrusted: true }).all.map((h) => h.status)).toEqual(['active', 'disabled']);
  });
});
