// `rig mcp add | remove | list | get`: Codex's `codex mcp` commands and messages. add and remove
// edit only the [mcp_servers.<name>] table of $RIG_HOME/config.toml, keeping the rest of the file
// as it was (config/toml-edit.ts); list and get show the merged config (trusted projects too).
import path from 'node:path';
import {
  loadConfig,
  MCP_SERVER_NAME,
  resolveRigHome,
  DEFAULT_MCP_STARTUP_TIMEOUT_MS,
  DEFAULT_MCP_TOOL_TIMEOUT_MS,
  type ResolvedMcpServer,
} from '../config/index.js';
import { editConfigFile, removeTomlTable, setTomlTable } from '../config/toml-edit.js';

export interface McpCommandContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** One line of output (stdout). */
  print: (line: string) => void;
  /** One warning (stderr). */
  warn: (line: string) => void;
}

export interface McpAddOptions {
  /** The command and its arguments (after `--`). */
  command?: string[];
  /** Repeatable KEY=VALUE. */
  env?: string[];
  url?: string;
  bearerTokenEnvVar?: string;
}

function userConfigPath(ctx: McpCommandContext): string {
  return path.join(resolveRigHome(ctx.env), 'config.toml');
}

function validateServerName(name: string): void {
  if (!MCP_SERVER_NAME.test(name)) throw new Error(`invalid server name '${name}' (use letters, numbers, '-', '_')`);
}

function parseEnvPair(raw: string): [string, string] {
  const at = raw.indexOf('=');
  const key = at < 0 ? '' : raw.slice(0, at).trim();
  if (at < 0 || key === '') throw new Error(`--env ${raw}: environment entries must be in KEY=VALUE form`);
  return [key, raw.slice(at + 1)];
}

export function runMcpAdd(ctx: McpCommandContext, name: string, options: McpAddOptions): number {
  validateServerName(name);
  const command = options.command ?? [];
  const stdio = command.length > 0;
  const http = options.url !== undefined;
  if (stdio === http) throw new Error('exactly one of --command or --url must be provided (a command goes after `--`: rig mcp add NAME -- COMMAND [ARGS...])');
  if (http && (options.env ?? []).length > 0) throw new Error('--env is only valid with stdio servers (a command after `--`); HTTP servers take headers in config.toml');
  if (stdio && options.bearerTokenEnvVar !== undefined) throw new Error('--bearer-token-env-var is only valid with --url');
  let table: Record<string, unknown>;
  if (stdio) {
    const [bin, ...args] = command as [string, ...string[]];
    const env = Object.fromEntries((options.env ?? []).map(parseEnvPair));
    table = { command: bin, ...(args.length > 0 ? { args } : {}), ...(Object.keys(env).length > 0 ? { env } : {}) };
  } else {
    try {
      new URL(options.url!);
    } catch {
      throw new Error(`--url ${options.url}: not a valid URL (e.g. https://example.com/mcp)`);
    }
    table = { url: options.url, ...(options.bearerTokenEnvVar !== undefined ? { bearer_token_env_var: options.bearerTokenEnvVar } : {}) };
  }
  editConfigFile(userConfigPath(ctx), (text) => setTomlTable(text, ['mcp_servers', name], table));
  ctx.print(`Added global MCP server '${name}'.`);
  return 0;
}

export function runMcpRemove(ctx: McpCommandContext, name: string): number {
  validateServerName(name);
  let removed = false;
  editConfigFile(userConfigPath(ctx), (text) => {
    const result = removeTomlTable(text, ['mcp_servers', name]);
    removed = result.removed;
    return result.text;
  });
  ctx.print(removed ? `Removed global MCP server '${name}'.` : `No MCP server named '${name}' found.`);
  return 0;
}

function loadServers(ctx: McpCommandContext): Record<string, ResolvedMcpServer> {
  const { config, warnings } = loadConfig({ home: resolveRigHome(ctx.env), cwd: ctx.cwd, env: ctx.env });
  for (const warning of warnings) ctx.warn(warning);
  return config.mcp_servers;
}

/** Codex's McpAuthStatus for a server rig can authenticate (no OAuth yet). */
function authStatus(server: ResolvedMcpServer): 'unsupported' | 'bearer_token' {
  return server.transport === 'streamable_http' && server.bearer_token_env_var !== undefined ? 'bearer_token' : 'unsupported';
}

const AUTH_LABEL = { unsupported: 'Unsupported', bearer_token: 'Bearer token' } as const;

function transportJson(server: ResolvedMcpServer): Record<string, unknown> {
  return server.transport === 'stdio'
    ? { type: 'stdio', command: server.command, args: server.args, env: Object.keys(server.env).length > 0 ? server.env : null, env_vars: server.env_vars, cwd: server.cwd ?? null }
    : {
        type: 'streamable_http',
        url: server.url,
        bearer_token_env_var: server.bearer_token_env_var ?? null,
        http_headers: Object.keys(server.http_headers).length > 0 ? server.http_headers : null,
        env_http_headers: Object.keys(server.env_http_headers).length > 0 ? server.env_http_headers : null,
      };
}

/** Values are never shown: env tables often hold tokens. */
function envDisplay(server: Extract<ResolvedMcpServer, { transport: 'stdio' }>): string {
  const parts = [...Object.keys(server.env).sort().map((k) => `${k}=*****`), ...server.env_vars.map((v) => `${v}=*****`)];
  return parts.length > 0 ? parts.join(', ') : '-';
}

export function runMcpList(ctx: McpCommandContext, options: { json?: boolean }): number {
  const entries = Object.entries(loadServers(ctx)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (options.json) {
    const json = entries.map(([name, server]) => ({
      name,
      enabled: server.enabled,
      disabled_reason: null,
      transport: transportJson(server),
      startup_timeout_sec: server.startup_timeout_ms / 1000,
      tool_timeout_sec: server.tool_timeout_ms / 1000,
      auth_status: authStatus(server),
    }));
    ctx.print(JSON.stringify(json, null, 2));
    return 0;
  }
  if (entries.length === 0) {
    ctx.print('No MCP servers configured yet. Try `rig mcp add my-tool -- my-command`.');
    return 0;
  }
  const status = (s: ResolvedMcpServer) => (s.enabled ? 'enabled' : 'disabled');
  const stdio: string[][] = [];
  const http: string[][] = [];
  for (const [name, s] of entries) {
    if (s.transport === 'stdio') {
      stdio.push([name, s.command, s.args.length > 0 ? s.args.join(' ') : '-', envDisplay(s), s.cwd ?? '-', status(s), AUTH_LABEL[authStatus(s)]]);
    } else {
      http.push([name, s.url, s.bearer_token_env_var ?? '-', status(s), AUTH_LABEL[authStatus(s)]]);
    }
  }
  if (stdio.length > 0) table(ctx, ['Name', 'Command', 'Args', 'Env', 'Cwd', 'Status', 'Auth'], stdio);
  if (stdio.length > 0 && http.length > 0) ctx.print('');
  if (http.length > 0) table(ctx, ['Name', 'Url', 'Bearer Token Env Var', 'Status', 'Auth'], http);
  return 0;
}

function table(ctx: McpCommandContext, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  ctx.print(line(header));
  for (const row of rows) ctx.print(line(row));
}

export function runMcpGet(ctx: McpCommandContext, name: string, options: { json?: boolean }): number {
  const server = loadServers(ctx)[name];
  if (!server) throw new Error(`No MCP server named '${name}' found.`);
  if (options.json) {
    ctx.print(
      JSON.stringify(
        {
          name,
          enabled: server.enabled,
          disabled_reason: null,
          transport: transportJson(server),
          enabled_tools: server.enabled_tools ?? null,
          disabled_tools: server.disabled_tools ?? null,
          startup_timeout_sec: server.startup_timeout_ms / 1000,
          tool_timeout_sec: server.tool_timeout_ms / 1000,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  if (!server.enabled) {
    ctx.print(`${name} (disabled)`);
    return 0;
  }
  const list = (tools: string[]) => (tools.length === 0 ? '[]' : tools.join(', '));
  const sorted = (map: Record<string, string>, show: (k: string, v: string) => string) => {
    const keys = Object.keys(map).sort();
    return keys.length > 0 ? keys.map((k) => show(k, map[k]!)).join(', ') : '-';
  };
  ctx.print(name);
  ctx.print(`  enabled: ${server.enabled}`);
  if (server.enabled_tools) ctx.print(`  enabled_tools: ${list(server.enabled_tools)}`);
  if (server.disabled_tools) ctx.print(`  disabled_tools: ${list(server.disabled_tools)}`);
  if (server.transport === 'stdio') {
    ctx.print('  transport: stdio');
    ctx.print(`  command: ${server.command}`);
    ctx.print(`  args: ${server.args.length > 0 ? server.args.join(' ') : '-'}`);
    ctx.print(`  cwd: ${server.cwd ?? '-'}`);
    ctx.print(`  env: ${envDisplay(server)}`);
  } else {
    ctx.print('  transport: streamable_http');
    ctx.print(`  url: ${server.url}`);
    ctx.print(`  bearer_token_env_var: ${server.bearer_token_env_var ?? '-'}`);
    ctx.print(`  http_headers: ${sorted(server.http_headers, (k) => `${k}=*****`)}`);
    ctx.print(`  env_http_headers: ${sorted(server.env_http_headers, (k, v) => `${k}=${v}`)}`);
  }
  // Like Codex, timeouts are shown when they are not the defaults.
  if (server.startup_timeout_ms !== DEFAULT_MCP_STARTUP_TIMEOUT_MS) ctx.print(`  startup_timeout_sec: ${server.startup_timeout_ms / 1000}`);
  if (server.tool_timeout_ms !== DEFAULT_MCP_TOOL_TIMEOUT_MS) ctx.print(`  tool_timeout_sec: ${server.tool_timeout_ms / 1000}`);
  if (server.default_tools_approval_mode) ctx.print(`  default_tools_approval_mode: ${server.default_tools_approval_mode}`);
  ctx.print(`  remove: rig mcp remove ${name}`);
  return 0;
}
