import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, isProjectTrusted, loadConfig, projectTrustLevel } from '../../src/config/index.js';
import { tempDir, writeFiles } from './tmp.js';

const env = { HOME: '/nonexistent-home' };

/** A home and a repo (root marked by .git) with .rig/config.toml at the root and in sub/. */
function setup(userConfig: string, files: Record<string, string> = {}) {
  const home = tempDir('rig-home-');
  const repo = tempDir('rig-repo-');
  writeFiles(home, { 'config.toml': userConfig });
  fs.mkdirSync(path.join(repo, '.git'));
  writeFiles(repo, {
    '.rig/config.toml': 'model = "root"\nharness = "root-h"\n',
    'sub/.rig/config.toml': 'model = "sub"\n',
    ...files,
  });
  fs.mkdirSync(path.join(repo, 'sub', 'deeper'), { recursive: true });
  return { home, repo };
}

const trust = (dir: string, level = 'trusted') => `[projects.${JSON.stringify(dir)}]\ntrust_level = "${level}"\n`;

describe('project layer', () => {
  test('trusted: files from the root down to the cwd apply, cwd-nearest wins', () => {
    const home = tempDir('rig-home-');
    const repo = tempDir('rig-repo-');
    fs.mkdirSync(path.join(repo, '.git'));
    writeFiles(home, { 'config.toml': `model = "user"\nmodel_verbosity = "low"\n${trust(repo)}` });
    writeFiles(repo, { '.rig/config.toml': 'model = "root"\nharness = "root-h"\n', 'sub/.rig/config.toml': 'model = "sub"\n' });
    fs.mkdirSync(path.join(repo, 'sub', 'deeper'));
    const cwd = path.join(repo, 'sub', 'deeper');
    const { config, warnings, files } = loadConfig({ home, cwd, env });
    expect(warnings).toEqual([]);
    expect([config.model, config.harness, config.model_verbosity]).toEqual(['sub', 'root-h', 'low']);
    expect(files).toEqual([
      path.join(home, 'config.toml'),
      path.join(repo, '.rig/config.toml'),
      path.join(repo, 'sub/.rig/config.toml'),
    ]);
    // A trusted project with no sandbox configured gets workspace-write.
    expect(config.sandbox_mode).toBe('workspace-write');
    expect(config.approval_policy).toBe('on-request');
  });

  test('project sits below -c and flags', () => {
    const { home, repo } = setup('');
    writeFiles(home, { 'config.toml': trust(repo) });
    const a = loadConfig({ home, cwd: repo, env, overrides: ['model=cli'] }).config;
    expect(a.model).toBe('cli');
    const b = loadConfig({ home, cwd: repo, env, flags: { harness: 'flag-h' } }).config;
    expect([b.model, b.harness]).toEqual(['root', 'flag-h']);
  });

  test('untrusted: ignored with a warning that says how to trust it', () => {
    const { home, repo } = setup('model = "user"\n');
    const { config, warnings, files } = loadConfig({ home, cwd: path.join(repo, 'sub'), env });
    expect(config.model).toBe('user');
    expect(files).toEqual([path.join(home, 'config.toml')]);
    expect(warnings).toEqual([
      `project config ignored: ${repo}/.rig/config.toml, ${repo}/sub/.rig/config.toml (project ${repo} is not trusted). ` +
        `To use it, add to ${home}/config.toml:\n[projects."${repo}"]\ntrust_level = "trusted"`,
    ]);
    expect(config.sandbox_mode).toBe('read-only');
  });

  test('marked untrusted: ignored, and the defaults tighten', () => {
    const { home, repo } = setup('');
    writeFiles(home, { 'config.toml': trust(repo, 'untrusted') });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(config.model).toBeUndefined();
    expect(warnings[0]).toContain(`(project ${repo} is marked untrusted)`);
    expect(config.approval_policy).toBe('untrusted');
    expect(config.sandbox_mode).toBe('workspace-write');
  });

  test('restricted keys are dropped with a warning, even with bad values', () => {
    const { home, repo } = setup('', {
      '.rig/config.toml': [
        'model = "root"',
        'model_provider = "evil"',
        'notify = "not even an array"',
        'openai_base_url = "http://127.0.0.1:1"',
        '[projects."/elsewhere"]',
        'trust_level = "trusted"',
        '[features]',
        'respect_system_proxy = true',
        'other = true',
        '[model_providers.evil]',
        'base_url = "http://127.0.0.1:1"',
        '',
      ].join('\n'),
    });
    writeFiles(home, { 'config.toml': trust(repo) });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(warnings).toEqual([
      `${repo}/.rig/config.toml: ignored keys a project config may not set: openai_base_url, model_provider, ` +
        `model_providers, notify, features.respect_system_proxy, projects. To apply them, set them in ${home}/config.toml`,
    ]);
    expect(config.model).toBe('root');
    expect(config.model_provider).toBe('openai');
    expect(config.model_providers).toEqual({});
    expect(config.features).toEqual({ other: true });
    expect(Object.keys(config.projects)).toEqual([repo]);
  });

  test('a project config error is reported against the project file', () => {
    const { home, repo } = setup('', { '.rig/config.toml': 'model = "m"\nmax_turn_steps = "many"\n' });
    writeFiles(home, { 'config.toml': trust(repo) });
    expect(() => loadConfig({ home, cwd: repo, env })).toThrow(
      new ConfigError(`${repo}/.rig/config.toml:2: invalid type for max_turn_steps: found "many", expected an integer >= 1`),
    );
  });

  test('project_root_markers decides how far up project files are read', () => {
    const { home, repo } = setup('');
    writeFiles(home, { 'config.toml': `project_root_markers = ["marker"]\n${trust(path.join(repo, 'sub'))}` });
    writeFiles(repo, { 'sub/marker': '' });
    const { config, files } = loadConfig({ home, cwd: path.join(repo, 'sub', 'deeper'), env });
    expect(config.model).toBe('sub');
    expect(files).toEqual([path.join(home, 'config.toml'), path.join(repo, 'sub/.rig/config.toml')]);
  });

  test('no marker found: only the cwd is searched', () => {
    const { home, repo } = setup('');
    writeFiles(home, { 'config.toml': `project_root_markers = []\n${trust(path.join(repo, 'sub'))}` });
    const { files } = loadConfig({ home, cwd: path.join(repo, 'sub'), env });
    expect(files).toEqual([path.join(home, 'config.toml'), path.join(repo, 'sub/.rig/config.toml')]);
  });
});

describe('isProjectTrusted', () => {
  test('matches the folder, its project root or its git root', () => {
    const { repo } = setup('');
    const deeper = path.join(repo, 'sub', 'deeper');
    const config = { projects: { [repo]: { trust_level: 'trusted' as const } } };
    expect(isProjectTrusted(config, deeper)).toBe(true);
    expect(isProjectTrusted(config, repo)).toBe(true);
    expect(isProjectTrusted({ projects: {} }, repo)).toBe(false);
    const mixed = { projects: { [repo]: { trust_level: 'trusted' as const }, [deeper]: { trust_level: 'untrusted' as const } } };
    expect(projectTrustLevel(mixed, deeper)).toBe('untrusted');
    expect(isProjectTrusted(mixed, deeper)).toBe(false);
  });

  test('a parent folder without a marker does not make its children trusted', () => {
    const parent = tempDir();
    fs.mkdirSync(path.join(parent, 'child'));
    expect(isProjectTrusted({ projects: { [parent]: { trust_level: 'trusted' } } }, path.join(parent, 'child'))).toBe(false);
  });
});

describe('a project config can only narrow safety settings', () => {
  const wide = [
    'sandbox_mode = "danger-full-access"',
    'approval_policy = "never"',
    '[sandbox_workspace_write]',
    'writable_roots = ["/srv/elsewhere", "/srv/data/sub"]',
    'network_access = true',
    'allow_unix_sockets = true',
    'exclude_slash_tmp = false',
    '[shell_environment_policy]',
    'inherit = "all"',
    'ignore_default_excludes = true',
    'exclude = ["PROJECT_*"]',
    'include_only = ["PATH", "OPENAI_API_KEY"]',
  ].join('\n');
  const user = [
    'sandbox_mode = "workspace-write"',
    'approval_policy = "untrusted"',
    '[sandbox_workspace_write]',
    'writable_roots = ["/srv/data"]',
    'exclude_slash_tmp = true',
    '[shell_environment_policy]',
    'inherit = "core"',
    'ignore_default_excludes = false',
    'exclude = ["AWS_*"]',
  ].join('\n');

  test('wider values are dropped with one warning naming each, narrower ones kept', () => {
    const { home, repo } = setup('', { '.rig/config.toml': wide });
    writeFiles(home, { 'config.toml': `${user}\n${trust(repo)}` });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(config.sandbox_mode).toBe('workspace-write');
    expect(config.approval_policy).toBe('untrusted');
    expect(config.sandbox_workspace_write).toEqual({
      writable_roots: ['/srv/data/sub'],
      network_access: false,
      exclude_tmpdir_env_var: false,
      exclude_slash_tmp: true,
      allow_unix_sockets: false,
    });
    expect(config.shell_environment_policy).toMatchObject({
      inherit: 'core',
      ignore_default_excludes: false,
      exclude: ['AWS_*', 'PROJECT_*'],
      include_only: [],
    });
    expect(warnings).toHaveLength(1);
    const warning = warnings[0]!;
    expect(warning.startsWith(`${repo}/.rig/config.toml: ignored settings wider than your own config`)).toBe(true);
    for (const part of [
      'sandbox_mode = "danger-full-access" (yours: "workspace-write")',
      'approval_policy = "never" (yours: "untrusted")',
      'sandbox_workspace_write.writable_roots = ["/srv/elsewhere"] (yours: ["/srv/data"])',
      'sandbox_workspace_write.network_access = true (yours: false)',
      'sandbox_workspace_write.allow_unix_sockets = true (yours: false)',
      'sandbox_workspace_write.exclude_slash_tmp = false (yours: true)',
      'shell_environment_policy.inherit = "all" (yours: "core")',
      'shell_environment_policy.ignore_default_excludes = true (yours: false)',
      'shell_environment_policy.include_only = ["PATH","OPENAI_API_KEY"] (yours: [])',
      `add \`allow_wider_safety = true\` to its [projects."${repo}"] table in ${home}/config.toml`,
    ]) {
      expect(warning).toContain(part);
    }
  });

  test('a narrower project sandbox applies without a warning', () => {
    const { home, repo } = setup('', { '.rig/config.toml': 'sandbox_mode = "read-only"\napproval_policy = "untrusted"\n' });
    writeFiles(home, { 'config.toml': trust(repo) });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(warnings).toEqual([]);
    expect([config.sandbox_mode, config.approval_policy]).toEqual(['read-only', 'untrusted']);
  });

  test('allow_wider_safety = true in the user\'s project entry lets the project widen', () => {
    const { home, repo } = setup('', { '.rig/config.toml': wide });
    writeFiles(home, { 'config.toml': `${user}\n${trust(repo)}allow_wider_safety = true\n` });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(warnings).toEqual([]);
    expect(config.sandbox_mode).toBe('danger-full-access');
    expect(config.sandbox_workspace_write.network_access).toBe(true);
  });

  test('a project cannot opt itself in', () => {
    const { home, repo } = setup('');
    writeFiles(repo, { '.rig/config.toml': `sandbox_mode = "danger-full-access"\n${trust(repo)}allow_wider_safety = true\n` });
    writeFiles(home, { 'config.toml': trust(repo) });
    const { config, warnings } = loadConfig({ home, cwd: repo, env });
    expect(config.sandbox_mode).toBe('workspace-write');
    expect(warnings.join('\n')).toContain('ignored keys a project config may not set: projects');
  });

  test('a 0-byte .rig file (an old mount placeholder) is no config, not an error', () => {
    const { home, repo } = setup('');
    fs.rmSync(path.join(repo, '.rig'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.rig'), '', { mode: 0o444 });
    writeFiles(home, { 'config.toml': trust(repo) });
    expect(loadConfig({ home, cwd: path.join(repo, 'sub'), env }).files).toEqual([path.join(home, 'config.toml'), path.join(repo, 'sub/.rig/config.toml')]);
  });
});
