// `[mcp_servers.<name>]`: the checks zod's shape cannot make (server names, one transport per
// server, no inline secrets) and the resolved form every other room reads, with Codex's defaults
// applied and every timeout in milliseconds, so no reader confuses seconds with milliseconds.
import { ConfigError, formatKeyPath } from './errors.js';
import type { ConfigLayer, McpApprovalMode, McpServerTable } from './schema.js';

export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 300_000;

/** Codex's server-name rule (`codex mcp add` and config alike). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Keys that only make sense for one transport; Codex's names for the transports. */
const STDIO_ONLY = ['args', 'env', 'env_vars', 'cwd'] as const;
const HTTP_ONLY = ['bearer_token_env_var', 'http_headers', 'env_http_headers', 'http_headers_helper', 'oauth', 'oauth_resource'] as const;

/** Codex keys rig reads but does not act on yet (OAuth login, header helpers). */
const NO_EFFECT_YET = ['scopes', 'oauth', 'oauth_resource', 'auth', 'http_headers_helper'] as const;

interface McpServerCommon {
  enabled: boolean;
  /** A required server that cannot start stops the thread from starting. */
  required: boolean;
  startup_timeout_ms: number;
  tool_timeout_ms: number;
  enabled_tools?: string[];
  disabled_tools?: string[];
  default_tools_approval_mode?: McpApprovalMode;
  tools: Record<string, { approval_mode?: McpApprovalMode }>;
  supports_parallel_tool_calls: boolean;
}

export interface McpStdioServer extends McpServerCommon {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Names of variables passed through from rig's environment. */
  env_vars: string[];
  /** Absolute (config-relative paths resolved); absent: the session's cwd. */
  cwd?: string;
}

export interface McpHttpServer extends McpServerCommon {
  transport: 'streamable_http';
  url: string;
  bearer_token_env_var?: string;
  http_headers: Record<string, string>;
  /** Header name -> environment variable holding its value. */
  env_http_headers: Record<string, string>;
}

export type ResolvedMcpServer = McpStdioServer | McpHttpServer;

/** Where a key path is defined, as a message prefix (file:line, `-c ...`). */
export type KeyLocator = (path: readonly string[]) => string;

/**
 * Checks of one layer's `mcp_servers` (and its profiles'). Throws a ConfigError listing every
 * problem; returns warnings for settings that are probably mistakes or have no effect yet.
 */
export function checkMcpServersLayer(layer: ConfigLayer, where: KeyLocator): string[] {
  const problems: string[] = [];
  const warnings: string[] = [];
  const sections: [string[], ConfigLayer['mcp_servers']][] = [[[], layer.mcp_servers]];
  for (const [profile, value] of Object.entries(layer.profiles ?? {})) sections.push([['profiles', profile], value.mcp_servers]);
  for (const [prefix, servers] of sections) {
    for (const [name, server] of Object.entries(servers ?? {})) {
      const base = [...prefix, 'mcp_servers', name];
      checkServer(name, server, base, where, problems, warnings);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return warnings;
}

function checkServer(
  name: string,
  server: McpServerTable,
  base: string[],
  where: KeyLocator,
  problems: string[],
  warnings: string[],
): void {
  const at = (key?: string) => where(key === undefined ? base : [...base, key]);
  const key = (k: string) => formatKeyPath([...base, k]);
  if (!MCP_SERVER_NAME.test(name)) {
    problems.push(
      `${at()}: invalid MCP server name ${JSON.stringify(name)} in ${formatKeyPath(base)}: ` +
        'use only letters, digits, "-" and "_" (the name becomes part of tool names)',
    );
  }
  if (server.bearer_token !== undefined) {
    problems.push(
      `${at('bearer_token')}: ${key('bearer_token')} is not supported: a token does not belong in config.toml. ` +
        'Put it in an environment variable and set bearer_token_env_var = "THAT_VARIABLE"',
    );
  }
  problems.push(...transportMixing(server, base, where));
  for (const entry of server.env_vars ?? []) {
    if (typeof entry === 'object' && entry.source === 'remote') {
      problems.push(
        `${at('env_vars')}: ${key('env_vars')} entry "${entry.name}" uses source = "remote", which needs a remote ` +
          'MCP environment; rig runs servers locally: drop `source` or set it to "local"',
      );
    }
  }
  for (const field of ['startup_timeout_sec', 'tool_timeout_sec'] as const) {
    const value = server[field];
    if (value !== undefined && value >= 1000) {
      warnings.push(
        `${at(field)}: ${key(field)} = ${value} is ${(value / 3600).toFixed(1)} hours: the value is in seconds` +
          (field === 'startup_timeout_sec' ? ' (for milliseconds use startup_timeout_ms)' : ''),
      );
    }
  }
  if (server.startup_timeout_sec !== undefined && server.startup_timeout_ms !== undefined) {
    warnings.push(`${at('startup_timeout_ms')}: ${key('startup_timeout_ms')} is ignored: startup_timeout_sec is set too and wins`);
  }
  for (const field of NO_EFFECT_YET) {
    if (server[field] !== undefined) {
      warnings.push(`${at(field)}: ${key(field)} is not supported by this version of rig yet (no MCP OAuth or header helpers); the setting has no effect`);
    }
  }
  for (const field of ['environment_id', 'experimental_environment'] as const) {
    const value = server[field];
    if (value !== undefined && value !== 'local') {
      warnings.push(`${at(field)}: ${key(field)} = ${JSON.stringify(value)} has no effect: rig starts every MCP server locally`);
    }
  }
}

/** "<key> is not supported for <transport>", Codex's wording, for each key of the other transport. */
function transportMixing(server: McpServerTable, base: string[], where: KeyLocator): string[] {
  const out: string[] = [];
  const mismatch = (field: string, transport: string, chosenBy: string) =>
    `${where([...base, field])}: ${field} is not supported for ${transport} (${formatKeyPath(base)} sets ${chosenBy}); ` +
    'a server is either stdio (`command`) or streamable HTTP (`url`): remove one of them';
  if (server.command !== undefined) {
    for (const field of ['url', ...HTTP_ONLY] as const) if (server[field] !== undefined) out.push(mismatch(field, 'stdio', '`command`'));
  } else if (server.url !== undefined) {
    for (const field of STDIO_ONLY) if (server[field] !== undefined) out.push(mismatch(field, 'streamable_http', '`url`'));
  }
  return out;
}

/**
 * The merged `mcp_servers` with defaults applied. A server that layers left without a transport,
 * or with both (one layer's `command`, another's `url`), is an error located with `where`.
 */
export function resolveMcpServers(
  servers: ConfigLayer['mcp_servers'],
  where: KeyLocator = (path) => formatKeyPath(path),
): Record<string, ResolvedMcpServer> {
  const out: Record<string, ResolvedMcpServer> = {};
  const problems: string[] = [];
  for (const [name, server] of Object.entries(servers ?? {})) {
    const base = ['mcp_servers', name];
    const mixing = transportMixing(server, base, where);
    if (mixing.length > 0) {
      problems.push(...mixing);
      continue;
    }
    const common: McpServerCommon = {
      enabled: server.enabled ?? true,
      required: server.required ?? false,
      startup_timeout_ms: millis(server.startup_timeout_sec) ?? server.startup_timeout_ms ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS,
      tool_timeout_ms: millis(server.tool_timeout_sec) ?? DEFAULT_MCP_TOOL_TIMEOUT_MS,
      ...(server.enabled_tools ? { enabled_tools: server.enabled_tools } : {}),
      ...(server.disabled_tools ? { disabled_tools: server.disabled_tools } : {}),
      ...(server.default_tools_approval_mode ? { default_tools_approval_mode: server.default_tools_approval_mode } : {}),
      tools: server.tools ?? {},
      supports_parallel_tool_calls: server.supports_parallel_tool_calls ?? false,
    };
    if (server.command !== undefined) {
      out[name] = {
        ...common,
        transport: 'stdio',
        command: server.command,
        args: server.args ?? [],
        env: server.env ?? {},
        env_vars: (server.env_vars ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.name)),
        ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
      };
    } else if (server.url !== undefined) {
      out[name] = {
        ...common,
        transport: 'streamable_http',
        url: server.url,
        ...(server.bearer_token_env_var !== undefined ? { bearer_token_env_var: server.bearer_token_env_var } : {}),
        http_headers: server.http_headers ?? {},
        env_http_headers: server.env_http_headers ?? {},
      };
    } else {
      problems.push(
        `${where(base)}: MCP server "${name}" has no transport: set \`command\` (a stdio server, e.g. ` +
          'command = "npx", args = ["-y", "some-mcp-server"]) or `url` (a streamable HTTP server)',
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return out;
}

function millis(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}
