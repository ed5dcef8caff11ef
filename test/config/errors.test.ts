import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { tempDir, writeFiles } from './tmp.js';

const env = { HOME: '/nonexistent-home' };

/** Loads a user config with `text` and returns the ConfigError message (fails if none is thrown). */
function errorFor(text: string, extra: { overrides?: string[]; strict?: boolean } = {}): { message: string; file: string } {
  const home = tempDir();
  writeFiles(home, { 'config.toml': text });
  const file = path.join(home, 'config.toml');
  try {
    loadConfig({ home, cwd: home, env, ...extra });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return { message: (err as Error).message, file };
  }
  throw new Error('expected a ConfigError');
}

describe('bad config files', () => {
  test('TOML syntax error: file, line, column, reason and the excerpt', () => {
    const { message, file } = errorFor('model = "o3"\nsandbox_mode = \n');
    expect(message.split('\n')[0]).toBe(`${file}:2:16: invalid TOML: invalid value`);
    expect(message).toContain('2:  sandbox_mode = ');
  });

  test('duplicate key is a syntax error', () => {
    const { message, file } = errorFor('model = "a"\nmodel = "b"\n');
    expect(message.split('\n')[0]).toBe(`${file}:2:1: invalid TOML: trying to redefine an already defined table or value`);
  });

  test('wrong type', () => {
    const { message, file } = errorFor('model = "x"\nmodel_context_window = "big"\n');
    expect(message).toBe(`${file}:2: invalid type for model_context_window: found "big", expected an integer >= 1`);
  });

  test('float where an integer is required', () => {
    const { message, file } = errorFor('project_doc_max_bytes = 1.5\n');
    expect(message).toBe(`${file}:1: invalid type for project_doc_max_bytes: found 1.5, expected an integer >= 0`);
  });

  test('table where a string is required', () => {
    const { message, file } = errorFor('[model]\nname = "x"\n');
    expect(message).toBe(`${file}:1: invalid type for model: found a table, expected a string`);
  });

  test('bad enum inside a provider table', () => {
    const { message, file } = errorFor('model = "m"\n[model_providers.x]\nwire_api = "grpc"\n');
    expect(message).toBe(
      `${file}:3: invalid value for model_providers.x.wire_api: found "grpc", expected one of "responses", "chat", "messages"`,
    );
  });

  test('out-of-range number', () => {
    const { message, file } = errorFor('[model_providers.x]\nname = "X"\nstream_max_retries = 101\n');
    expect(message).toBe(
      `${file}:3: invalid value for model_providers.x.stream_max_retries: found 101, expected an integer from 0 to 100`,
    );
    expect(errorFor('max_turn_steps = 0\n').message).toMatch(/:1: invalid value for max_turn_steps: found 0, expected an integer >= 1$/);
  });

  test('dotted keys and inline tables are located', () => {
    const { message, file } = errorFor('model = "m"\n\nsandbox_workspace_write.network_access = "yes"\n');
    expect(message).toBe(
      `${file}:3: invalid type for sandbox_workspace_write.network_access: found "yes", expected a boolean (true or false)`,
    );
    const inline = errorFor('model = "m"\nshell_environment_policy = { inherit = "some" }\n');
    expect(inline.message).toBe(
      `${inline.file}:2: invalid value for shell_environment_policy.inherit: found "some", expected one of "all", "core", "none"`,
    );
  });

  test('approval_policy: bad string, and a bad field inside granular', () => {
    const bad = errorFor('approval_policy = "sometimes"\n');
    expect(bad.message).toBe(
      `${bad.file}:1: invalid value for approval_policy: found "sometimes", expected one of "untrusted", ` +
        `"on-request", "on-failure", "never", or a table { granular = { ... } }`,
    );
    const granular = errorFor('[approval_policy.granular]\nrules = true\nsandbox_approval = "no"\n');
    expect(granular.message).toBe(
      `${granular.file}:3: invalid type for approval_policy.granular.sandbox_approval: found "no", expected a boolean (true or false)`,
    );
  });

  test('quoted keys: project trust level', () => {
    const { message, file } = errorFor('[projects."/w/a.b"]\ntrust_level = "yes"\n');
    expect(message).toBe(
      `${file}:2: invalid value for projects."/w/a.b".trust_level: found "yes", expected one of "trusted", "untrusted"`,
    );
  });

  test('an error inside a profile table points at the profile', () => {
    const { message, file } = errorFor('model = "m"\n[profiles.fast]\nmodel = "f"\nsandbox_mode = "open"\n');
    expect(message).toBe(
      `${file}:4: invalid value for profiles.fast.sandbox_mode: found "open", expected one of "read-only", "workspace-write", "danger-full-access"`,
    );
  });

  test('every problem is listed, in file order', () => {
    const { message, file } = errorFor('web_search = "always"\nnotify = "say done"\nmodel_verbosity = 3\n');
    expect(message.split('\n')).toEqual([
      `${file}:1: invalid value for web_search: found "always", expected one of "disabled", "cached", "live", or a table { provider = "...", ... }`,
      `${file}:2: invalid type for notify: found "say done", expected an array`,
      `${file}:3: invalid value for model_verbosity: found 3, expected one of "low", "medium", "high"`,
    ]);
  });

  test('array element errors name the index', () => {
    const { message, file } = errorFor('project_root_markers = [".git",\n  3]\n');
    expect(message).toBe(`${file}:1: invalid type for project_root_markers[1]: found 3, expected a string`);
  });
});

describe('unknown keys', () => {
  test('are warnings with file and line, and are dropped', () => {
    const home = tempDir();
    writeFiles(home, {
      'config.toml': 'model = "m"\nmodle = "typo"\n[model_providers.x]\nbase_url = "http://127.0.0.1:9"\nretries = 3\n[tui]\nanything = 1\n',
    });
    const file = path.join(home, 'config.toml');
    const { config, warnings } = loadConfig({ home, cwd: home, env });
    expect(warnings).toEqual([
      `${file}:2: unknown config key "modle" (ignored)`,
      `${file}:5: unknown config key "model_providers.x.retries" (ignored)`,
    ]);
    expect(config.model).toBe('m');
    expect('modle' in config).toBe(false);
    expect(config.model_providers['x']?.base_url).toBe('http://127.0.0.1:9');
    expect(config.tui).toEqual({ anything: 1 });
  });

  test('are errors when strict', () => {
    const { message, file } = errorFor('modle = "typo"\n', { strict: true });
    expect(message).toBe(`${file}:1: unknown config key "modle"`);
  });

  test('Codex keys that mean nothing to rig load quietly; ones that would change behaviour warn once each', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'review_model = "x"\ndisable_response_storage = true\n[analytics]\nenabled = false\n' });
    expect(loadConfig({ home, cwd: home, env }).warnings).toEqual([]);
    writeFiles(home, { 'config.toml': 'personality = "pragmatic"\n[memories]\nenabled = true\n[profiles.p]\npersonality = "friendly"\n' });
    expect(loadConfig({ home, cwd: home, env }).warnings).toEqual([
      `${home}/config.toml:1: personality is a Codex setting rig does not implement yet; it would set the model's personality (friendly / pragmatic), so it has no effect here`,
      `${home}/config.toml:2: memories is a Codex setting rig does not implement yet; it would keep memories across threads, so it has no effect here`,
    ]);
  });

  test('an unknown reasoning effort is accepted with a warning', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'model_reasoning_effort = "turbo"\n' });
    const { config, warnings } = loadConfig({ home, cwd: home, env });
    expect(config.model_reasoning_effort).toBe('turbo');
    expect(warnings).toEqual([
      `${home}/config.toml:1: model_reasoning_effort = "turbo" is not a known reasoning effort ` +
        `("none", "minimal", "low", "medium", "high", "xhigh", "max", "ultra"); it is sent to the provider as is`,
    ]);
  });
});

describe('profiles and flags', () => {
  test('missing profile', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': '[profiles.other]\nmodel = "m"\n' });
    expect(() => loadConfig({ home, cwd: home, env, profile: 'x' })).toThrow(
      new ConfigError(`profile "x" not found: no [profiles.x] in ${home}/config.toml and no ${home}/x.config.toml`),
    );
  });

  test('missing profile selected by the legacy key says so', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'profile = "gone"\n' });
    expect(() => loadConfig({ home, cwd: home, env })).toThrow(
      new ConfigError(
        `profile "gone" not found: no [profiles.gone] in ${home}/config.toml and no ${home}/gone.config.toml ` +
          `(selected by profile = "gone" in ${home}/config.toml)`,
      ),
    );
  });

  test('a profile name cannot escape RIG_HOME', () => {
    const home = tempDir();
    expect(() => loadConfig({ home, cwd: home, env, profile: '../x' })).toThrow(/invalid profile name "..\/x"/);
  });

  test('a bad profile file is reported against that file', () => {
    const home = tempDir();
    writeFiles(home, { 'p.config.toml': '\nsandbox_mode = 1\n' });
    expect(() => loadConfig({ home, cwd: home, env, profile: 'p' })).toThrow(
      new ConfigError(
        `${home}/p.config.toml:2: invalid value for sandbox_mode: found 1, expected one of "read-only", "workspace-write", "danger-full-access"`,
      ),
    );
  });

  test('a bad CLI flag value names the flag', () => {
    const home = tempDir();
    expect(() => loadConfig({ home, cwd: home, env, flags: { sandbox: 'bogus' } })).toThrow(
      new ConfigError(
        `--sandbox bogus: invalid value for sandbox_mode: found "bogus", expected one of "read-only", "workspace-write", "danger-full-access"`,
      ),
    );
    expect(() => loadConfig({ home, cwd: home, env, flags: { approval: 'maybe' } })).toThrow(
      /^--ask-for-approval maybe: invalid value for approval_policy: found "maybe", expected one of "untrusted"/,
    );
  });
  test('settings rig acts on are accepted without a warning', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': 'notify = ["notify-send"]\nweb_search = "live"\n\n[agents]\nmax_threads = 2\n' });
    const { warnings } = loadConfig({ home, cwd: home, env });
    // notify runs after turns (core/turn-extensions.ts), [agents] spawns sub-agents, and web_search
    // asks for the provider's own search (Responses, Messages).
    expect(warnings).toEqual([]);
  });
});
