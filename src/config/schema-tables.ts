// The config tables whose contents belong to other rooms: MCP servers, hooks, web search and
// sub-agent roles. schema.ts puts them into the layer schema; the rooms check what a schema cannot.
import type { z as Z } from 'zod';
import { intIn, stringList, stringMap, zod } from './schema-kit.js';
import { APPROVAL_POLICIES, HOOK_EVENT_KEYS, HOOK_HANDLER_TYPES, MCP_APPROVAL_MODES, SANDBOX_MODES, WEB_SEARCH_MODES, WEB_SEARCH_PROVIDERS } from './schema-values.js';

/**
 * One `[mcp_servers.<name>]` table: the keys of both transports, so a table that mixes them parses
 * and mcp-servers.ts can name the key that does not belong (zod's strict object would only call
 * it unknown). Codex's OAuth and remote-environment keys are accepted so a copied config loads.
 */
export function mcpServerSchema() {
  const z = zod();
  const seconds = () => z.number({ error: 'a number of seconds >= 0' }).min(0, { error: 'a number of seconds >= 0' });
  const mode = () => z.enum(MCP_APPROVAL_MODES);
  const envVar = z.union(
    [z.string(), z.strictObject({ name: z.string(), source: z.enum(['local', 'remote']).optional() })],
    { error: 'a variable name, or a table { name = "...", source = "local" }' },
  );
  return z.strictObject({
    // stdio
    command: z.string().optional(),
    args: stringList().optional(),
    env: stringMap().optional(),
    env_vars: z.array(envVar).optional(),
    cwd: z.string().optional(),
    // streamable HTTP
    url: z.string().optional(),
    bearer_token_env_var: z.string().optional(),
    /** Rejected with a message (mcp-servers.ts): secrets belong in the environment. */
    bearer_token: z.string().optional(),
    http_headers: stringMap().optional(),
    env_http_headers: stringMap().optional(),
    http_headers_helper: z.unknown().optional(),
    // both
    enabled: z.boolean().optional(),
    required: z.boolean().optional(),
    startup_timeout_sec: seconds().optional(),
    startup_timeout_ms: intIn(0).optional(),
    tool_timeout_sec: seconds().optional(),
    enabled_tools: stringList().optional(),
    disabled_tools: stringList().optional(),
    default_tools_approval_mode: mode().optional(),
    tools: z.record(z.string(), z.strictObject({ approval_mode: mode().optional() })).optional(),
    supports_parallel_tool_calls: z.boolean().optional(),
    scopes: stringList().optional(),
    oauth: z.unknown().optional(),
    oauth_resource: z.string().optional(),
    auth: z.string().optional(),
    environment_id: z.string().optional(),
    experimental_environment: z.string().optional(),
    /** Legacy display name Codex still accepts. */
    name: z.string().optional(),
  });
}

/**
 * `[hooks]`: Codex's table, `[[hooks.<Event>]]` matcher groups each holding `[[hooks.<Event>.hooks]]`
 * handlers, and `[hooks.state."<key>"]` (enabled, trusted_hash). The hooks room checks what a
 * schema cannot (matcher regexes, a command for command handlers) and where each file's hooks go.
 */
export function hooksSchema() {
  const z = zod();
  const seconds = 'a number of seconds >= 0';
  const handler = z.strictObject({
    type: z.enum(HOOK_HANDLER_TYPES),
    command: z.string().optional(),
    commandWindows: z.string().optional(),
    timeout: z.number({ error: seconds }).min(0, { error: seconds }).optional(),
    async: z.boolean().optional(),
    statusMessage: z.string().optional(),
    visibilityHint: z.string().optional(),
    // Codex's mcp_tool handlers.
    server: z.string().optional(),
    tool: z.string().optional(),
    input: z.unknown().optional(),
  });
  const group = z.strictObject({ matcher: z.string().optional(), hooks: z.array(handler) });
  const events = Object.fromEntries(HOOK_EVENT_KEYS.map((event) => [event, z.array(group).optional()])) as {
    [K in (typeof HOOK_EVENT_KEYS)[number]]: Z.ZodOptional<Z.ZodArray<typeof group>>;
  };
  return z.strictObject({
    ...events,
    state: z
      .record(z.string(), z.strictObject({ enabled: z.boolean().optional(), trusted_hash: z.string().optional() }))
      .optional(),
  });
}

/**
 * `web_search`: Codex's mode string (`disabled`, `cached`, `live`), or rig's table naming a search
 * backend for wires without a search of their own. The key lives in an environment variable.
 */
export function webSearchSchema() {
  const z = zod();
  const table = z.strictObject({
    mode: z.enum(WEB_SEARCH_MODES).optional(),
    provider: z.enum(WEB_SEARCH_PROVIDERS).optional(),
    url: z.string().optional(),
    api_key_env: z.string().optional(),
    /** Rejected with a message (web-search.ts): keys belong in the environment. */
    api_key: z.string().optional(),
    max_results: intIn(1, 20).optional(),
    timeout_ms: intIn(1).optional(),
    http_headers: stringMap().optional(),
    // The provider's own search (Anthropic's server tool): how many searches per response, which
    // domains, and where the user is for local results.
    max_uses: intIn(1).optional(),
    allowed_domains: stringList().optional(),
    blocked_domains: stringList().optional(),
    user_location: z
      .strictObject({ city: z.string().optional(), region: z.string().optional(), country: z.string().optional(), timezone: z.string().optional() })
      .optional(),
  });
  const allowed =
    'one of ' + WEB_SEARCH_MODES.map((m) => JSON.stringify(m)).join(', ') + ', or a table { provider = "...", ... }';
  return z.union([z.enum(WEB_SEARCH_MODES), table], { error: allowed });
}

/**
 * What a sub-agent role may set: Codex's role keys (description, config_file, nickname_candidates,
 * model, model_reasoning_effort, developer_instructions) plus rig's harness, provider and safety.
 * The same keys make up a role file (`agents/<role>.toml`), which may also carry its `name`.
 */
function agentRoleFields() {
  const z = zod();
  return {
    name: z.string().optional(),
    description: z.string().optional(),
    config_file: z.string().optional(),
    nickname_candidates: stringList().optional(),
    model: z.string().optional(),
    model_reasoning_effort: z.string().optional(),
    developer_instructions: z.string().optional(),
    harness: z.string().optional(),
    model_provider: z.string().optional(),
    sandbox_mode: z.enum(SANDBOX_MODES).optional(),
    approval_policy: z.enum(APPROVAL_POLICIES).optional(),
  };
}

/** One role as written in `[agents.<role>]` or in its own file. */
export function agentRoleSchema() {
  return zod().strictObject(agentRoleFields());
}

/** `[agents]`: Codex's limits and defaults; every other key is a role table. */
export function agentsSchema() {
  const z = zod();
  return z
    .object({
      enabled: z.boolean().optional(),
      max_concurrent_threads_per_session: intIn(1).optional(),
      max_threads: intIn(1).optional(),
      max_depth: intIn(0).optional(),
      default_subagent_model: z.string().optional(),
      default_subagent_reasoning_effort: z.string().optional(),
      interrupt_message: z.boolean().optional(),
    })
    .catchall(agentRoleSchema());
}
