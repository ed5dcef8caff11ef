import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, resolveAgents } from '../../src/config/index.js';
import { IMPLEMENTER_INSTRUCTIONS, IMPLEMENTER_ROLE_FILE, ISSUE_CONFIG } from '../support/agents-config.js';
import { tempDir, writeFiles } from './tmp.js';

const env = { HOME: '/nonexistent-home' };

describe('[agents] config', () => {
  test("the issue's configuration loads unchanged, with its role file", () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': ISSUE_CONFIG, 'agents/implementer.toml': IMPLEMENTER_ROLE_FILE });
    const { config, warnings } = loadConfig({ home, cwd: home, env });
    expect(warnings).toEqual([]);
    const agents = resolveAgents(config, home);
    expect(agents).toMatchObject({ enabled: true, v2: true, maxThreads: 6, maxDepth: 1, defaultModel: 'gpt-5.6-sol', defaultReasoningEffort: 'medium' });
    expect(agents.roles.get('implementer')).toMatchObject({
      name: 'implementer',
      model: 'gpt-5.6-sol',
      reasoningEffort: 'medium',
      developerInstructions: IMPLEMENTER_INSTRUCTIONS,
      description: 'Makes bounded code changes assigned by the planner.',
    });
  });

  test('max_threads is the alias of max_concurrent_threads_per_session; defaults are off, 6 and 1', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': '[agents]\nmax_threads = 2\nmax_depth = 3\n' });
    const agents = resolveAgents(loadConfig({ home, cwd: home, env }).config, home);
    expect(agents).toMatchObject({ enabled: false, v2: false, maxThreads: 2, maxDepth: 3 });
    const bare = tempDir();
    expect(resolveAgents(loadConfig({ home: bare, cwd: bare, env }).config, bare)).toMatchObject({ enabled: false, maxThreads: 6, maxDepth: 1 });
  });

  test('roles come from agents/<role>.toml files too, and a table overrides its file', () => {
    const home = tempDir();
    writeFiles(home, {
      'config.toml': '[agents]\nenabled = true\n[agents.reviewer]\nmodel = "m-table"\n',
      'agents/reviewer.toml': 'model = "m-file"\ndeveloper_instructions = "Review only."\nharness = "claude-code"\nsandbox_mode = "read-only"\n',
      'agents/explorer.toml': 'description = "Reads code"\n',
    });
    const agents = resolveAgents(loadConfig({ home, cwd: home, env }).config, home);
    expect(agents.roles.get('reviewer')).toMatchObject({ model: 'm-table', developerInstructions: 'Review only.', harness: 'claude-code', sandboxMode: 'read-only' });
    expect(agents.roles.get('explorer')).toMatchObject({ description: 'Reads code' });
  });

  test('a bad value in [agents] or a role file names the key and file', () => {
    const home = tempDir();
    writeFiles(home, { 'config.toml': '[agents]\nmax_depth = "deep"\n' });
    expect(() => loadConfig({ home, cwd: home, env })).toThrow(/agents\.max_depth/);
    const other = tempDir();
    writeFiles(other, { 'config.toml': '[agents]\nenabled = true\n', 'agents/bad.toml': 'sandbox_mode = "everything"\n' });
    const { config } = loadConfig({ home: other, cwd: other, env });
    expect(() => resolveAgents(config, other)).toThrow(ConfigError);
    expect(() => resolveAgents(config, other)).toThrow(/bad\.toml: sandbox_mode/);
    const missing = tempDir();
    writeFiles(missing, { 'config.toml': '[agents.x]\nconfig_file = "agents/none.toml"\n' });
    expect(() => resolveAgents(loadConfig({ home: missing, cwd: missing, env }).config, missing)).toThrow(/none\.toml does not exist/);
  });
});
