import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, parseOverride } from '../../src/config/index.js';
import { tempDir } from './tmp.js';

const env = { HOME: '/nonexistent-home' };

describe('parseOverride', () => {
  test.each([
    ['model=o3', ['model'], 'o3'],
    ['model="o3"', ['model'], 'o3'],
    ["model='o3'", ['model'], 'o3'],
    ['model_context_window=42', ['model_context_window'], 42],
    ['sandbox_workspace_write.network_access=true', ['sandbox_workspace_write', 'network_access'], true],
    ['notify=["say", "done"]', ['notify'], ['say', 'done']],
    ['shell_environment_policy.set={A = "1"}', ['shell_environment_policy', 'set'], { A: '1' }],
    ['temperature=0.5', ['temperature'], 0.5],
    [' model = gpt-5 ', ['model'], 'gpt-5'],
    ['developer_instructions=a = b', ['developer_instructions'], 'a = b'],
    ['instructions="unterminated', ['instructions'], 'unterminated'],
    ["instructions='it''s'", ['instructions'], "it''s"],
    ['model=', ['model'], ''],
    ['use_legacy_landlock=true', ['features', 'use_legacy_landlock'], true],
  ])('%s', (raw, path, value) => {
    expect(parseOverride(raw)).toEqual({ path, value });
  });

  test('missing = and empty keys', () => {
    expect(() => parseOverride('model')).toThrow(new ConfigError("Invalid override (missing '='): model"));
    expect(() => parseOverride('=o3')).toThrow(new ConfigError('Empty key in override: =o3'));
    expect(() => parseOverride('  =o3')).toThrow(new ConfigError('Empty key in override:   =o3'));
    expect(() => parseOverride('a..b=1')).toThrow(new ConfigError('Empty key in override: a..b=1'));
  });

  test('prototype keys are refused', () => {
    expect(() => parseOverride('__proto__.x=1')).toThrow(ConfigError);
  });
});

describe('-c through loadConfig', () => {
  test('values are validated and errors name the override', () => {
    const home = tempDir();
    expect(() => loadConfig({ home, cwd: home, env, overrides: ['sandbox_mode=bogus'] })).toThrow(
      new ConfigError(
        '-c sandbox_mode=bogus: invalid value for sandbox_mode: found "bogus", expected one of "read-only", "workspace-write", "danger-full-access"',
      ),
    );
    expect(() => loadConfig({ home, cwd: home, env, overrides: ['model_providers.x.request_max_retries=-1'] })).toThrow(
      new ConfigError(
        '-c model_providers.x.request_max_retries=-1: invalid value for model_providers.x.request_max_retries: found -1, expected an integer from 0 to 100',
      ),
    );
    expect(() => loadConfig({ home, cwd: home, env, overrides: ['features.x=yes'] })).toThrow(
      new ConfigError('-c features.x=yes: invalid type for features.x: found "yes", expected a boolean (true or false)'),
    );
    expect(() => loadConfig({ home, cwd: home, env, overrides: ['nope'] })).toThrow(
      new ConfigError("Invalid override (missing '='): nope"),
    );
  });

  test('unknown keys warn, naming the override', () => {
    const home = tempDir();
    const { warnings } = loadConfig({ home, cwd: home, env, overrides: ['modle=x', 'tui.anything=1'] });
    expect(warnings).toEqual(['-c modle=x: unknown config key "modle" (ignored)']);
  });

  test('a granular approval policy from -c; missing categories are declined', () => {
    const home = tempDir();
    const { config } = loadConfig({
      home,
      cwd: home,
      env,
      overrides: ['approval_policy={granular = {sandbox_approval = true, rules = true}}'],
    });
    expect(config.approval_policy).toEqual({
      granular: {
        sandbox_approval: true,
        rules: true,
        skill_approval: false,
        request_permissions: false,
        mcp_elicitations: false,
      },
    });
  });

  test('relative paths in -c resolve against the session cwd', () => {
    const home = tempDir();
    const { config } = loadConfig({ home, cwd: home, env, overrides: ['replay_file=r.jsonl'] });
    expect(config.replay_file).toBe(`${home}/r.jsonl`);
  });
});
