// `rig mcp add | list | get | remove` through the real CLI (dist/ built), RIG_HOME in a temp dir.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRig } from '../support/workspace.js';
import { tempDir } from '../config/tmp.js';

const USER_CONFIG = `# my rig config
model = "gpt-5.5" # default model

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:1/v1"
http_headers = { "X-Title" = "rig" }

# docs server, kept by hand
[mcp_servers.docs]
command = "docs-mcp"
args = [
  "--root", "/srv/docs",
]
tool_timeout_sec = 120.0

[mcp_servers.docs.tools.search]
approval_mode = "approve"

[profiles.fast] # quick one
model = "o4-mini"
`;

function setup(config?: string): { home: string; cwd: string; file: string } {
  const home = tempDir();
  const cwd = tempDir();
  const file = path.join(home, 'config.toml');
  if (config !== undefined) fs.writeFileSync(file, config);
  return { home, cwd, file };
}

const rig = (args: string[], where: { home: string; cwd: string }) => runRig(['mcp', ...args], where);

describe('rig mcp', () => {
  it('add writes one table and keeps the rest of the file, comments included', async () => {
    const where = setup(USER_CONFIG);
    const run = await rig(['add', 'files', '--env', 'ROOT=/srv', '--env', 'TOKEN=a=b', '--', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv'], where);
    expect(run).toMatchObject({ code: 0, stdout: "Added global MCP server 'files'.\n", stderr: '' });
    const text = fs.readFileSync(where.file, 'utf8');
    const added = '[mcp_servers.files]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]\nenv = { ROOT = "/srv", TOKEN = "a=b" }\n\n';
    expect(text).toBe(USER_CONFIG.replace('[profiles.fast]', `${added}[profiles.fast]`));

    const http = await rig(['add', 'gh', '--url', 'https://mcp.example/mcp', '--bearer-token-env-var', 'GH_TOKEN'], where);
    expect(http.stdout).toBe("Added global MCP server 'gh'.\n");
    expect(fs.readFileSync(where.file, 'utf8')).toContain('[mcp_servers.gh]\nurl = "https://mcp.example/mcp"\nbearer_token_env_var = "GH_TOKEN"\n');
  });

  it('list shows stdio and HTTP servers in Codex\'s tables, env values masked; --json has the details', async () => {
    const where = setup(USER_CONFIG);
    await rig(['add', 'gh', '--url', 'https://mcp.example/mcp', '--bearer-token-env-var', 'GH_TOKEN'], where);
    await rig(['add', 'env-server', '--env', 'SECRET=hunter2', '--', 'srv'], where);
    const list = await rig(['list'], where);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      [
        'Name        Command   Args              Env           Cwd  Status   Auth',
        'docs        docs-mcp  --root /srv/docs  -             -    enabled  Unsupported',
        'env-server  srv       -                 SECRET=*****  -    enabled  Unsupported',
        '',
        'Name  Url                      Bearer Token Env Var  Status   Auth',
        'gh    https://mcp.example/mcp  GH_TOKEN              enabled  Bearer token',
        '',
      ].join('\n'),
    );
    expect(list.stdout).not.toContain('hunter2');
    const json = JSON.parse((await rig(['list', '--json'], where)).stdout) as Record<string, unknown>[];
    expect(json.map((s) => s['name'])).toEqual(['docs', 'env-server', 'gh']);
    expect(json[0]).toEqual({
      name: 'docs',
      enabled: true,
      disabled_reason: null,
      transport: { type: 'stdio', command: 'docs-mcp', args: ['--root', '/srv/docs'], env: null, env_vars: [], cwd: null },
      startup_timeout_sec: 30,
      tool_timeout_sec: 120,
      auth_status: 'unsupported',
    });
    expect(json[2]).toMatchObject({ transport: { type: 'streamable_http', url: 'https://mcp.example/mcp', bearer_token_env_var: 'GH_TOKEN' }, auth_status: 'bearer_token' });
  });

  it('get shows one server; an unknown one is an error', async () => {
    const where = setup(USER_CONFIG);
    const get = await rig(['get', 'docs'], where);
    expect(get.stdout).toBe(
      ['docs', '  enabled: true', '  transport: stdio', '  command: docs-mcp', '  args: --root /srv/docs', '  cwd: -', '  env: -', '  tool_timeout_sec: 120', '  remove: rig mcp remove docs', ''].join('\n'),
    );
    expect(JSON.parse((await rig(['get', 'docs', '--json'], where)).stdout)).toMatchObject({ name: 'docs', tool_timeout_sec: 120, enabled_tools: null });
    const missing = await rig(['get', 'nope'], where);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: "rig: No MCP server named 'nope' found.\n" });
  });

  it('remove takes out the server with its sub-tables and attached comment, nothing else', async () => {
    const where = setup(USER_CONFIG);
    const run = await rig(['remove', 'docs'], where);
    expect(run.stdout).toBe("Removed global MCP server 'docs'.\n");
    expect(fs.readFileSync(where.file, 'utf8')).toBe(
      USER_CONFIG.replace(/# docs server, kept by hand\n\[mcp_servers\.docs\][\s\S]*?approval_mode = "approve"\n\n/, ''),
    );
    expect((await rig(['remove', 'docs'], where)).stdout).toBe("No MCP server named 'docs' found.\n");
    expect((await rig(['list'], where)).stdout).toBe('No MCP servers configured yet. Try `rig mcp add my-tool -- my-command`.\n');
  });

  it('add creates RIG_HOME/config.toml when there is none', async () => {
    const where = setup();
    expect((await rig(['list'], where)).stdout).toBe('No MCP servers configured yet. Try `rig mcp add my-tool -- my-command`.\n');
    expect((await rig(['add', 'x', '--', 'x-server'], where)).code).toBe(0);
    expect(fs.readFileSync(where.file, 'utf8')).toBe('[mcp_servers.x]\ncommand = "x-server"\n');
  });

  it('refuses bad input with Codex\'s messages and leaves the file alone', async () => {
    const where = setup(USER_CONFIG);
    const cases: [string[], string][] = [
      [['add', 'my docs', '--', 'x'], "rig: invalid server name 'my docs' (use letters, numbers, '-', '_')\n"],
      [['add', 'x'], 'rig: exactly one of --command or --url must be provided (a command goes after `--`: rig mcp add NAME -- COMMAND [ARGS...])\n'],
      [['add', 'x', '--url', 'http://h/mcp', '--', 'cmd'], 'rig: exactly one of --command or --url must be provided (a command goes after `--`: rig mcp add NAME -- COMMAND [ARGS...])\n'],
      [['add', 'x', '--env', 'NOEQUALS', '--', 'cmd'], 'rig: --env NOEQUALS: environment entries must be in KEY=VALUE form\n'],
      [['add', 'x', '--bearer-token-env-var', 'T', '--', 'cmd'], 'rig: --bearer-token-env-var is only valid with --url\n'],
      [['add', 'x', '--url', 'not a url'], 'rig: --url not a url: not a valid URL (e.g. https://example.com/mcp)\n'],
    ];
    for (const [args, stderr] of cases) {
      const run = await rig(args, where);
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 1, stderr });
    }
    expect(fs.readFileSync(where.file, 'utf8')).toBe(USER_CONFIG);
  });

  it('a config that is not valid TOML is never rewritten', async () => {
    const broken = 'model = "x"\n[mcp_servers.a\ncommand = "a"\n';
    const where = setup(broken);
    const run = await rig(['add', 'b', '--', 'b'], where);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^rig: cannot edit ${where.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the file is not valid TOML \\(line 2, column \\d+\\)`));
    expect(fs.readFileSync(where.file, 'utf8')).toBe(broken);
  });
});
