import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, resolveRigHome } from '../../src/config/index.js';
import { tempDir, writeFiles } from './tmp.js';

const env = { HOME: '/nonexistent-home' };

describe('layer precedence', () => {
  test('built-in defaults when there is no file', () => {
    const home = tempDir();
    const { config, warnings, files } = loadConfig({ home, cwd: home, env });
    expect(warnings).toEqual([]);
    expect(files).toEqual([]);
    expect(config.model_provider).toBe('openai');
    expect(config.project_doc_max_bytes).toBe(32768);
    expect(config.project_root_markers).toEqual(['.git']);
    // No default: a turn runs until the model stops calling tools (max_turn_steps bounds it when set).
    expect(config.max_turn_steps).toBeUndefined();
    expect(config.sandbox_mode).toBe('read-only');
    expect(config.approval_policy).toBe('on-request');
    expect(config.shell_environment_policy.inherit).toBe('all');
    expect(config.shell_environment_policy.ignore_default_excludes).toBe(true);
    expect(config.sandbox_workspace_write).toEqual({
      writable_roots: [],
      network_access: false,
      exclude_tmpdir_env_var: false,
      exclude_slash_tmp: false,
      allow_unix_sockets: false,
    });
    expect(config.model).toBeUndefined();
    expect(config.profile).toBeUndefined();
  });

  test('user < profile table < profile file < -c < flags', () => {
    const home = tempDir();
    writeFiles(home, {
      'config.toml': [
        'model = "user"',
        'model_provider = "user-p"',
        'harness = "user-h"',
        'sandbox_mode = "read-only"',
        'web_search = "disabled"',
        'model_verbosity = "low"',
        '[profiles.fast]',
        'model = "table"',
        'model_provider = "table-p"',
        'harness = "table-h"',
        'web_search = "cached"',
        '',
      ].join('\n'),
      'fast.config.toml': 'model = "file"\nmodel_provider = "file-p"\nharness = "file-h"\n',
    });
    const load = (extra: Parameters<typeof loadConfig>[0] = { home, cwd: home }) => loadConfig({ env, ...extra }).config;

    const plain = load();
    expect([plain.model, plain.model_provider, plain.harness, plain.web_search]).toEqual(['user', 'user-p', 'user-h', 'disabled']);

    const prof = load({ home, cwd: home, profile: 'fast' });
    expect([prof.model, prof.model_provider, prof.harness, prof.web_search, prof.model_verbosity]).toEqual([
      'file',
      'file-p',
      'file-h',
      'cached',
      'low',
    ]);
    expect(prof.profile).toBe('fast');
    expect(loadConfig({ home, cwd: home, env, profile: 'fast' }).files).toEqual([
      path.join(home, 'config.toml'),
      path.join(home, 'fast.config.toml'),
    ]);

    const over = load({ home, cwd: home, profile: 'fast', overrides: ['model=cli', 'harness="c-h"', 'model=cli2'] });
    expect([over.model, over.harness, over.model_provider]).toEqual(['cli2', 'c-h', 'file-p']);

    const flagged = load({
      home,
      cwd: home,
      profile: 'fast',
      overrides: ['model=cli', 'sandbox_mode=workspace-write', 'approval_policy=never'],
      flags: { model: 'flag', provider: 'flag-p', harness: 'flag-h', sandbox: 'danger-full-access', approval: 'untrusted' },
    });
    expect([flagged.model, flagged.model_provider, flagged.harness, flagged.sandbox_mode, flagged.approval_policy]).toEqual([
      'flag',
      'flag-p',
      'flag-h',
      'danger-full-access',
      'untrusted',
    ]);
  });

  test('tables merge key by key across layers; arrays are replaced', () => {
    const home = tempDir();
    writeFiles(home, {
      'config.toml': [
        'notify = ["a", "b"]',
        '[model_providers.local]',
        'base_url = "http://127.0.0.1:1/v1"',
        'wire_api = "chat"',
        '[sandbox_workspace_write]',
        'network_access = true',
        '',
      ].join('\n'),
    });
    const { config } = loadConfig({
      home,
      cwd: home,
      env,
      overrides: ['model_providers.local.env_key=LOCAL_KEY', 'notify=["c"]', 'sandbox_workspace_write.exclude_slash_tmp=true'],
    });
    expect(config.model_providers['local']).toEqual({
      name: 'local',
      base_url: 'http://127.0.0.1:1/v1',
      wire_api: 'chat',
      env_key: 'LOCAL_KEY',
      request_max_retries: 4,
      stream_max_retries: 5,
      stream_idle_timeout_ms: 300000,
    });
    expect(config.notify).toEqual(['c']);
    expect(config.sandbox_workspace_write.network_access).toBe(true);
    expect(config.sandbox_workspace_write.exclude_slash_tmp).toBe(true);
  });

  test('legacy profile = "x" selects the profile; --profile wins over it', () => {
    const home = tempDir();
    writeFiles(home, {
      'config.toml': 'profile = "a"\nmodel = "top"\n[profiles.a]\nmodel = "from-a"\n[profiles.b]\nmodel = "from-b"\n',
    });
    const legacy = loadConfig({ home, cwd: home, env });
    expect(legacy.config.model).toBe('from-a');
    expect(legacy.config.profile).toBe('a');
    expect(legacy.warnings).toEqual([]);
    expect(loadConfig({ home, cwd: home, env, profile: 'b' }).config.model).toBe('from-b');
    expect(loadConfig({ home, cwd: home, env, overrides: ['profile=b'] }).config.model).toBe('from-b');
  });

  test('a profile given only as NAME.config.toml', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'model = "top"\n', 'deep.config.toml': 'model_reasoning_effort = "high"\n' });
    const { config, files } = loadConfig({ home, cwd: home, env, profile: 'deep' });
    expect(config.model).toBe('top');
    expect(config.model_reasoning_effort).toBe('high');
    expect(files).toEqual([path.join(home, 'config.toml'), path.join(home, 'deep.config.toml')]);
  });

  test('ignoreUserConfig skips config.toml but keeps -c', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'model = "top"\n' });
    const { config, files } = loadConfig({ home, cwd: home, env, ignoreUserConfig: true, overrides: ['model_context_window=1000'] });
    expect(config.model).toBeUndefined();
    expect(config.model_context_window).toBe(1000);
    expect(files).toEqual([]);
  });
});

describe('paths and cwd', () => {
  test('-C resolves against the process cwd; relative paths in files resolve against the file', () => {
    const home = tempDir();
    const work = tempDir();
    fs.mkdirSync(path.join(work, 'sub'));
    writeFiles(home, {
      'config.toml': '[sandbox_workspace_write]\nwritable_roots = ["rel", "/abs", "~/t"]\nmodel_instructions_file = "x"\n',
    });
    const { cwd, config, warnings } = loadConfig({
      home,
      cwd: work,
      env,
      flags: { cwd: 'sub', addDirs: ['extra', '/abs'] },
    });
    expect(cwd).toBe(path.join(work, 'sub'));
    expect(config.sandbox_workspace_write.writable_roots).toEqual([
      path.join(home, 'rel'),
      '/abs',
      '/nonexistent-home/t',
      path.join(work, 'extra'),
    ]);
    // The nested key was unknown there: model_instructions_file is top-level.
    expect(warnings).toEqual([`${home}/config.toml:3: unknown config key "sandbox_workspace_write.model_instructions_file" (ignored)`]);
  });

  test('-C to a missing directory or a file is an error', () => {
    const home = tempDir();
    writeFiles(home, { 'f.txt': '' });
    expect(() => loadConfig({ home, cwd: home, env, flags: { cwd: 'nope' } })).toThrow(
      new ConfigError(`-C/--cd nope: directory ${home}/nope does not exist`),
    );
    expect(() => loadConfig({ home, cwd: home, env, flags: { cwd: 'f.txt' } })).toThrow(
      new ConfigError(`-C/--cd f.txt: ${home}/f.txt is not a directory`),
    );
  });
});

describe('resolveRigHome', () => {
  test('RIG_HOME wins, made absolute', () => {
    expect(resolveRigHome({ RIG_HOME: '/tmp/rh', HOME: '/h' })).toBe('/tmp/rh');
    expect(resolveRigHome({ RIG_HOME: 'rel', HOME: '/h' })).toBe(path.resolve('rel'));
  });
  test('defaults to ~/.rig; empty RIG_HOME counts as unset', () => {
    expect(resolveRigHome({ HOME: '/h' })).toBe('/h/.rig');
    expect(resolveRigHome({ RIG_HOME: '', HOME: '/h' })).toBe('/h/.rig');
    expect(resolveRigHome({})).toBe(path.join(os.homedir(), '.rig'));
  });
});
