// [mcp_servers.<name>]: Codex's keys and defaults, and errors that name the file, line and key.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { tempDir, writeFiles } from '../config/tmp.js';

const env = { HOME: '/nonexistent-home' };

function load(toml: string, overrides: string[] = []) {
  const home = tempDir();
  writeFiles(home, { 'config.toml': toml });
  return { home, ...loadConfig({ home, cwd: home, env, overrides }) };
}

function errorOf(toml: string, overrides: string[] = []): { home: string; message: string } {
  const home = tempDir();
  writeFiles(home, { 'config.toml': toml });
  try {
    loadConfig({ home, cwd: home, env, overrides });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { home, message: (error as Error).message };
  }
  throw new Error('expected a ConfigError');
}

describe('mcp_servers config', () => {
  it('resolves a stdio and an HTTP server with Codex defaults, timeouts in milliseconds', () => {
    const { config, warnings, home } = load(`
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { TOKEN = "t" }
env_vars = ["PATH_EXTRA", { name = "LANG", source = "local" }]
cwd = "servers/docs"

[mcp_servers.gh]
url = "https://mcp.example/mcp"
bearer_token_env_var = "GH_TOKEN"
startup_timeout_sec = 2.5
tool_timeout_sec = 90
required = true
default_tools_approval_mode = "writes"
enabled_tools = ["search"]
[mcp_servers.gh.tools.search]
approval_mode = "approve"
`);
    expect(warnings).toEqual([]);
    expect(config.mcp_servers['docs']).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'docs-mcp'],
      env: { TOKEN: 't' },
      env_vars: ['PATH_EXTRA', 'LANG'],
      cwd: `${home}/servers/docs`,
      enabled: true,
      required: false,
      startup_timeout_ms: 30_000,
      tool_timeout_ms: 300_000,
      tools: {},
      supports_parallel_tool_calls: false,
    });
    expect(config.mcp_servers['gh']).toEqual({
      transport: 'streamable_http',
      url: 'https://mcp.example/mcp',
      bearer_token_env_var: 'GH_TOKEN',
      http_headers: {},
      env_http_headers: {},
      enabled: true,
      required: true,
      startup_timeout_ms: 2500,
      tool_timeout_ms: 90_000,
      default_tools_approval_mode: 'writes',
      enabled_tools: ['search'],
      tools: { search: { approval_mode: 'approve' } },
      supports_parallel_tool_calls: false,
    });
  });

  it('startup_timeout_ms is the millisecond spelling; _sec wins when both are set, with a warning', () => {
    expect(load('[mcp_servers.a]\ncommand = "a"\nstartup_timeout_ms = 1500\n').config.mcp_servers['a']!.startup_timeout_ms).toBe(1500);
    const both = load('[mcp_servers.a]\ncommand = "a"\nstartup_timeout_sec = 3\nstartup_timeout_ms = 1500\n');
    expect(both.config.mcp_servers['a']!.startup_timeout_ms).toBe(3000);
    expect(both.warnings).toEqual([
      `${both.home}/config.toml:4: mcp_servers.a.startup_timeout_ms is ignored: startup_timeout_sec is set too and wins`,
    ]);
  });

  it('warns when a value in seconds looks like milliseconds', () => {
    const { warnings, home } = load('[mcp_servers.a]\ncommand = "a"\ntool_timeout_sec = 60000\n');
    expect(warnings).toEqual([`${home}/config.toml:3: mcp_servers.a.tool_timeout_sec = 60000 is 16.7 hours: the value is in seconds`]);
  });

  it('a key of the other transport is an error naming it, the file and the line', () => {
    const stdio = errorOf('[mcp_servers.docs]\ncommand = "npx"\nurl = "http://x"\n');
    expect(stdio.message).toBe(
      `${stdio.home}/config.toml:3: url is not supported for stdio (mcp_servers.docs sets \`command\`); ` +
        'a server is either stdio (`command`) or streamable HTTP (`url`): remove one of them',
    );
    const http = errorOf('[mcp_servers.gh]\nurl = "http://x"\nargs = ["a"]\nenv = { A = "1" }\n');
    expect(http.message.split('\n')).toEqual([
      `${http.home}/config.toml:3: args is not supported for streamable_http (mcp_servers.gh sets \`url\`); a server is either stdio (\`command\`) or streamable HTTP (\`url\`): remove one of them`,
      `${http.home}/config.toml:4: env is not supported for streamable_http (mcp_servers.gh sets \`url\`); a server is either stdio (\`command\`) or streamable HTTP (\`url\`): remove one of them`,
    ]);
  });

  it('mixing across layers is caught in the merged config and located in the layer that added the key', () => {
    const { message, home } = errorOf('[mcp_servers.docs]\ncommand = "npx"\n', ['mcp_servers.docs.url="http://x"']);
    expect(message).toBe(
      '-c mcp_servers.docs.url="http://x": url is not supported for stdio (mcp_servers.docs sets `command`); ' +
        'a server is either stdio (`command`) or streamable HTTP (`url`): remove one of them',
    );
    expect(home).toBeTruthy();
  });

  it('a server without command or url says how to fix it', () => {
    const { message, home } = errorOf('[mcp_servers.docs]\nenabled = true\n');
    expect(message).toBe(
      `${home}/config.toml:1: MCP server "docs" has no transport: set \`command\` (a stdio server, e.g. command = "npx", ` +
        'args = ["-y", "some-mcp-server"]) or `url` (a streamable HTTP server)',
    );
  });

  it('a later layer may turn a server off without repeating its transport', () => {
    const { config } = load('[mcp_servers.docs]\ncommand = "npx"\n', ['mcp_servers.docs.enabled=false']);
    expect(config.mcp_servers['docs']).toMatchObject({ transport: 'stdio', enabled: false });
  });

  it('server names are letters, digits, - and _', () => {
    const { message, home } = errorOf('[mcp_servers."my docs"]\ncommand = "x"\n');
    expect(message).toBe(
      `${home}/config.toml:1: invalid MCP server name "my docs" in mcp_servers."my docs": use only letters, digits, "-" and "_" (the name becomes part of tool names)`,
    );
  });

  it('an inline bearer_token is refused; a remote env_vars source is refused', () => {
    const token = errorOf('[mcp_servers.gh]\nurl = "http://x"\nbearer_token = "secret"\n');
    expect(token.message).toBe(
      `${token.home}/config.toml:3: mcp_servers.gh.bearer_token is not supported: a token does not belong in config.toml. ` +
        'Put it in an environment variable and set bearer_token_env_var = "THAT_VARIABLE"',
    );
    expect(token.message).not.toContain('secret');
    const remote = errorOf('[mcp_servers.a]\ncommand = "a"\nenv_vars = [{ name = "X", source = "remote" }]\n');
    expect(remote.message).toMatch(/config\.toml:3: mcp_servers\.a\.env_vars entry "X" uses source = "remote"/);
  });

  it('wrong types and values name the key and what is allowed', () => {
    const { message, home } = errorOf('[mcp_servers.a]\ncommand = "a"\ndefault_tools_approval_mode = "always"\nstartup_timeout_sec = -1\n');
    expect(message.split('\n')).toEqual([
      `${home}/config.toml:3: invalid value for mcp_servers.a.default_tools_approval_mode: found "always", expected one of "auto", "prompt", "writes", "approve"`,
      `${home}/config.toml:4: invalid value for mcp_servers.a.startup_timeout_sec: found -1, expected a number of seconds >= 0`,
    ]);
  });

  it('OAuth keys of a copied Codex config load, with a warning that they have no effect', () => {
    const { warnings, home } = load('[mcp_servers.gh]\nurl = "http://x"\nscopes = ["repo"]\n');
    expect(warnings).toEqual([
      `${home}/config.toml:3: mcp_servers.gh.scopes is not supported by this version of rig yet (no MCP OAuth or header helpers); the setting has no effect`,
    ]);
  });

  it('a trusted project adds servers in .rig/config.toml; an untrusted one does not', () => {
    const home = tempDir();
    const project = tempDir();
    writeFiles(project, { '.git/HEAD': 'ref: refs/heads/main\n', '.rig/config.toml': '[mcp_servers.proj]\ncommand = "proj-server"\ncwd = "tools"\n' });
    writeFiles(home, { 'config.toml': '[mcp_servers.user]\ncommand = "user-server"\n' });
    const untrusted = loadConfig({ home, cwd: project, env });
    expect(Object.keys(untrusted.config.mcp_servers)).toEqual(['user']);
    writeFiles(home, { 'config.toml': `[mcp_servers.user]\ncommand = "user-server"\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n` });
    const trusted = loadConfig({ home, cwd: project, env });
    expect(Object.keys(trusted.config.mcp_servers).sort()).toEqual(['proj', 'user']);
    // Relative paths in a project file are relative to that file's folder.
    expect(trusted.config.mcp_servers['proj']).toMatchObject({ command: 'proj-server', cwd: `${project}/.rig/tools` });
  });
});
