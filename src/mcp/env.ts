// What a server is given to run with: Codex builds a stdio server's environment from a short list
// of basics plus the variables the config names (env_vars) plus its `env` table, never the whole
// of rig's environment (API keys stay out of third-party servers). HTTP headers come from
// http_headers, env_http_headers and bearer_token_env_var the same way.
import type { McpHttpServer, McpStdioServer } from '../config/index.js';

/** Codex's DEFAULT_ENV_VARS (unix) in rmcp-client/src/utils.rs. */
export const MCP_DEFAULT_ENV_VARS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', '__CF_USER_TEXT_ENCODING', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'] as const;

export function stdioServerEnv(server: McpStdioServer, source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...MCP_DEFAULT_ENV_VARS, ...server.env_vars]) {
    const value = source[name];
    // A value starting with "()" is an exported shell function: not passed on (as the SDK does).
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  return { ...env, ...server.env };
}

/** The request headers of an HTTP server, or an error naming the missing variable. */
export function httpServerHeaders(name: string, server: McpHttpServer, source: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { ...server.http_headers };
  for (const [header, variable] of Object.entries(server.env_http_headers)) {
    const value = source[variable];
    // Codex omits a header whose variable is unset or empty.
    if (value !== undefined && value.trim() !== '') headers[header] = value;
  }
  const tokenVar = server.bearer_token_env_var;
  if (tokenVar !== undefined) {
    const token = source[tokenVar];
    if (token === undefined || token.trim() === '') {
      throw new Error(
        `environment variable ${tokenVar} (bearer_token_env_var of MCP server "${name}") is ${token === undefined ? 'not set' : 'empty'}: ` +
          `export the server's token as ${tokenVar}`,
      );
    }
    for (const key of Object.keys(headers)) if (key.toLowerCase() === 'authorization') delete headers[key];
    headers['Authorization'] = `Bearer ${token}`;
  }
  return headers;
}
