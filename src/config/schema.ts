// The shape of one config layer (config.toml, a profile, a -c override, CLI flags). Every field is
// optional here: layers are partial and merge; defaults are applied once, after merging (resolve.ts).
// Schemas are built on first use, not at import, because config loading sits on every command's
// startup path and most imports of this room only need the types. zod itself is loaded only when a
// layer fails the fast check (fast-check.ts against layer-schema.generated.ts, rendered from here).
import { CODEX_INERT, CODEX_QUIET } from './codex-keys.js';
import type { z as Z } from 'zod';
import { loadZod } from './lazy-zod.js';

// `max` and `ultra` are newer Codex efforts; anything else is passed through with a warning.
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'] as const;
export const REASONING_SUMMARIES = ['auto', 'concise', 'detailed', 'none'] as const;
export const VERBOSITIES = ['low', 'medium', 'high'] as const;
export const WIRE_APIS = ['responses', 'chat', 'messages'] as const;
export const APPROVAL_POLICIES = ['untrusted', 'on-request', 'on-failure', 'never'] as const;
export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const WEB_SEARCH_MODES = ['disabled', 'cached', 'live'] as const;
/** Search backends rig can call itself when the wire has no search of its own (see src/web/). */
export const WEB_SEARCH_PROVIDERS = ['brave', 'tavily', 'searxng', 'custom'] as const;
/** Codex's and Claude Code's hook events (the hooks room fires them; see src/hooks/events.ts). */
export const HOOK_EVENT_KEYS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
  'SessionEnd',
] as const;
export const HOOK_HANDLER_TYPES = ['command', 'prompt', 'agent', 'http', 'mcp_tool'] as const;
export const ENV_INHERIT = ['all', 'core', 'none'] as const;
export const TRUST_LEVELS = ['trusted', 'untrusted'] as const;
/** How an MCP server's tool calls are approved (Codex's AppToolApproval). */
export const MCP_APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'] as const;

export type SandboxMode = (typeof SANDBOX_MODES)[number];
export type WireApiName = (typeof WIRE_APIS)[number];
export type TrustLevel = (typeof TRUST_LEVELS)[number];
export type McpApprovalMode = (typeof MCP_APPROVAL_MODES)[number];
export type ApprovalPolicyName = (typeof APPROVAL_POLICIES)[number];

// Assigned from the lazily loaded zod before any schema is built (layerSchemaFor, renderers).
let z = undefined as unknown as typeof Z;
function useZod(): void {
  if (z === undefined) z = loadZod().z;
}

function intIn(min: number, max?: number) {
  const allowed = max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const base = z.number({ error: allowed }).int({ error: allowed }).min(min, { error: allowed });
  return max === undefined ? base : base.max(max, { error: allowed });
}

const stringMap = () => z.record(z.string(), z.string());
const stringList = () => z.array(z.string());
/** Sections owned by other rooms (or not used yet): any table, checked where they are used. */
const looseTable = () => z.looseObject({});
/** Codex's [tui] table; rig reads these two keys, other keys (Codex's) pass through unread. */
export const ALTERNATE_SCREEN_MODES = ['never', 'auto', 'always'] as const;
const tuiSchema = () =>
  z.looseObject({
    /** Whether the session takes the terminal's alternate screen (default never: inline, scrollback kept). */
    alternate_screen: z.enum(ALTERNATE_SCREEN_MODES).optional(),
    /** Bell + OSC 9 when a turn ends or an approval waits while the terminal is unfocused (Codex: true or a list of events). */
    notifications: z.union([z.boolean(), stringList()]).optional(),
  });

/**
 * rig: [timers], the session-scoped scheduled prompts (CronCreate, ScheduleWakeup). Claude Code
 * clamps a wake-up to at least 60 s and keeps 50 jobs per session; both are settable here.
 */
const timersSchema = () =>
  z.strictObject({
    /** false leaves the timer tools out of every request. */
    enabled: z.boolean().optional(),
    /** Shortest ScheduleWakeup delay in seconds (default 60; the longest is 3600). */
    min_wakeup_seconds: intIn(0, 3600).optional(),
    /** Most scheduled jobs one thread holds at once (default 50). */
    max_jobs: intIn(1, 1000).optional(),
  });

function providerSchema() {
  return z.strictObject({
    name: z.string().optional(),
    base_url: z.string().optional(),
    env_key: z.string().optional(),
    env_key_instructions: z.string().optional(),
    experimental_bearer_token: z.string().optional(),
    wire_api: z.enum(WIRE_APIS).optional(),
    query_params: stringMap().optional(),
    http_headers: stringMap().optional(),
    env_http_headers: stringMap().optional(),
    request_max_retries: intIn(0, 100).optional(),
    stream_max_retries: intIn(0, 100).optional(),
    stream_idle_timeout_ms: intIn(1).optional(),
    websocket_connect_timeout_ms: intIn(1).optional(),
    requires_openai_auth: z.boolean().optional(),
    supports_websockets: z.boolean().optional(),
    auth: looseTable().optional(),
    /** rig: harness used with this provider unless the config names one. */
    harness: z.string().optional(),
    /** rig: model used with this provider unless the config names one. */
    default_model: z.string().optional(),
    /** rig: server quirks as named flags (src/model/compat.ts). */
    compat: z
      .strictObject({
        developer_role: z.enum(['developer', 'system', 'user']).optional(),
        later_system_as_user: z.boolean().optional(),
        reasoning_content: z.boolean().optional(),
        max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
        store: z.boolean().optional(),
        stream_usage: z.boolean().optional(),
        encrypted_reasoning: z.boolean().optional(),
        prompt_cache_key: z.boolean().optional(),
      })
      .optional(),
  });
}

/**
 * One `[mcp_servers.<name>]` table: the keys of both transports, so a table that mixes them parses
 * and mcp-servers.ts can name the key that does not belong (zod's strict object would only call
 * it unknown). Codex's OAuth and remote-environment keys are accepted so a copied config loads.
 */
function mcpServerSchema() {
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
function hooksSchema() {
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
function webSearchSchema() {
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
  useZod();
  return z.strictObject(agentRoleFields());
}

/** `[agents]`: Codex's limits and defaults; every other key is a role table. */
function agentsSchema() {
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

function approvalPolicySchema() {
  const granular = z.strictObject({
    sandbox_approval: z.boolean().optional(),
    rules: z.boolean().optional(),
    skill_approval: z.boolean().optional(),
    request_permissions: z.boolean().optional(),
    mcp_elicitations: z.boolean().optional(),
  });
  const allowed =
    'one of ' + APPROVAL_POLICIES.map((p) => JSON.stringify(p)).join(', ') + ', or a table { granular = { ... } }';
  return z.union([z.enum(APPROVAL_POLICIES), z.strictObject({ granular })], { error: allowed });
}

const CODEX_ACCEPTED = [...CODEX_QUIET, ...(Object.keys(CODEX_INERT) as (keyof typeof CODEX_INERT)[])];

/**
 * Keys a profile may set: everything at top level except profiles, trust and the legacy selector.
 * Each field is a factory so a layer only pays for building the schemas of the keys it contains.
 */
function profileFields() {
  const accepted = Object.fromEntries(CODEX_ACCEPTED.map((k) => [k, () => z.unknown().optional()])) as {
    [K in (typeof CODEX_QUIET)[number] | keyof typeof CODEX_INERT]: () => Z.ZodOptional<Z.ZodUnknown>;
  };
  return {
    ...accepted,
    model: () => z.string().optional(),
    model_provider: () => z.string().optional(),
    // Any string is accepted (providers add levels); unknown ones get a warning in validate.ts.
    model_reasoning_effort: () => z.string().optional(),
    model_reasoning_summary: () => z.enum(REASONING_SUMMARIES).optional(),
    model_verbosity: () => z.enum(VERBOSITIES).optional(),
    model_context_window: () => intIn(1).optional(),
    model_auto_compact_token_limit: () => intIn(0).optional(),
    model_providers: () => z.record(z.string(), providerSchema()).optional(),
    approval_policy: () => approvalPolicySchema().optional(),
    sandbox_mode: () => z.enum(SANDBOX_MODES).optional(),
    sandbox_workspace_write: () =>
      z
        .strictObject({
          writable_roots: stringList().optional(),
          network_access: z.boolean().optional(),
          exclude_tmpdir_env_var: z.boolean().optional(),
          exclude_slash_tmp: z.boolean().optional(),
          allow_unix_sockets: z.boolean().optional(),
        })
        .optional(),
    shell_environment_policy: () =>
      z
        .strictObject({
          inherit: z.enum(ENV_INHERIT).optional(),
          ignore_default_excludes: z.boolean().optional(),
          exclude: stringList().optional(),
          include_only: stringList().optional(),
          set: stringMap().optional(),
          experimental_use_profile: z.boolean().optional(),
        })
        .optional(),
    project_doc_max_bytes: () => intIn(0).optional(),
    project_doc_fallback_filenames: () => stringList().optional(),
    project_root_markers: () => stringList().optional(),
    harness: () => z.string().optional(),
    harness_guidance: () => z.boolean().optional(),
    /** rig: extra folder of harness profiles (in addition to RIG_HOME/harnesses). */
    harnesses_dir: () => z.string().optional(),
    instructions: () => z.string().optional(),
    developer_instructions: () => z.string().optional(),
    model_instructions_file: () => z.string().optional(),
    compact_prompt: () => z.string().optional(),
    experimental_compact_prompt_file: () => z.string().optional(),
    include_permissions_instructions: () => z.boolean().optional(),
    include_environment_context: () => z.boolean().optional(),
    tool_output_token_limit: () => intIn(0).optional(),
    background_terminal_max_timeout: () => intIn(0).optional(),
    /** rig: most sampling steps in one turn before it stops. */
    max_turn_steps: () => intIn(1).optional(),
    openai_base_url: () => z.string().optional(),
    notify: () => stringList().optional(),
    web_search: () => webSearchSchema().optional(),
    /** rig: which rg the search tools run: "auto" (bundled, else PATH), "bundled", "system", "off"
     * (in-process search), or an absolute path to an rg binary. RIG_RIPGREP overrides it. */
    ripgrep: () => z.string().optional(),
    timers: () => timersSchema().optional(),
    features: () => z.record(z.string(), z.boolean()).optional(),
    agents: () => agentsSchema().optional(),
    hooks: () => hooksSchema().optional(),
    mcp_servers: () => z.record(z.string(), mcpServerSchema()).optional(),
    tui: () => tuiSchema().optional(),
    history: () => looseTable().optional(),
    otel: () => looseTable().optional(),
    /** rig: rollout file whose recorded model responses the replay provider plays back. */
    replay_file: () => z.string().optional(),
    /** rig: `rig eval` settings. Prices are USD per million tokens, keyed by model name; cached_input
     * defaults to input, and reasoning tokens are billed as the output they are part of. */
    eval: () =>
      z
        .strictObject({
          prices: z
            .record(
              z.string(),
              z.strictObject({
                input: z.number().nonnegative(),
                cached_input: z.number().nonnegative().optional(),
                output: z.number().nonnegative(),
              }),
            )
            .optional(),
        })
        .optional(),
  };
}

function layerFields() {
  return {
    ...profileFields(),
    /** Legacy selector of a [profiles.<name>] table; rig honours it (see load.ts). */
    profile: () => z.string().optional(),
    profiles: () => z.record(z.string(), fullProfileSchema()).optional(),
    projects: () =>
      z
        .record(
          z.string(),
          z.strictObject({
            trust_level: z.enum(TRUST_LEVELS).optional(),
            allow_wider_safety: z.boolean().optional(),
          }),
        )
        .optional(),
  };
}

type Built<F> = { [K in keyof F]: F[K] extends () => infer S ? S : never };

function buildAll<F extends Record<string, () => Z.ZodType>>(fields: F): Built<F> {
  const shape: Record<string, Z.ZodType> = {};
  for (const [key, make] of Object.entries(fields)) shape[key] = make();
  return shape as Built<F>;
}

let profileSchemaCache: Z.ZodObject<Built<ReturnType<typeof profileFields>>, Z.core.$strict> | undefined;

function fullProfileSchema() {
  profileSchemaCache ??= z.strictObject(buildAll(profileFields()));
  return profileSchemaCache;
}

/** The whole layer schema: for the types and the rendered JSON schema. At run time see layerSchemaFor. */
function fullLayerSchema() {
  return z.strictObject(buildAll(layerFields()));
}

let fieldFactories: Record<string, () => Z.ZodType> | undefined;
const fieldCache = new Map<string, Z.ZodType>();

/**
 * A strict schema for a layer holding `keys`: known keys get their field schema (built once and
 * cached), unknown ones are left out so the strict object reports them.
 */
export function layerSchemaFor(keys: readonly string[]): Z.ZodType<ConfigLayer> {
  useZod();
  fieldFactories ??= layerFields();
  const shape: Record<string, Z.ZodType> = {};
  for (const key of keys) {
    if (!Object.hasOwn(fieldFactories, key)) continue;
    let schema = fieldCache.get(key);
    if (!schema) {
      schema = (fieldFactories[key] as () => Z.ZodType)();
      fieldCache.set(key, schema);
    }
    shape[key] = schema;
  }
  return z.strictObject(shape) as unknown as Z.ZodType<ConfigLayer>;
}

/** One validated layer, before defaults. */
export type ConfigLayer = Z.infer<ReturnType<typeof fullLayerSchema>>;
export type ProfileConfig = Z.infer<ReturnType<typeof fullProfileSchema>>;
export type ProviderConfig = NonNullable<ConfigLayer['model_providers']>[string];
export type ApprovalPolicyValue = NonNullable<ConfigLayer['approval_policy']>;
/** `web_search` as written: Codex's mode, or rig's backend table. */
export type WebSearchSetting = NonNullable<ConfigLayer['web_search']>;
export type HooksTable = NonNullable<ConfigLayer['hooks']>;
/** One `[mcp_servers.<name>]` table as written (before defaults and transport checks). */
export type McpServerTable = NonNullable<ConfigLayer['mcp_servers']>[string];

/**
 * What layer-schema.generated.ts must hold: the whole layer schema as JSON Schema, for the fast
 * check. Regenerate with `node scripts/gen-config-schema.mjs`.
 */
export function renderLayerJsonSchema(): Record<string, unknown> {
  useZod();
  return toExactJsonSchema(fullLayerSchema());
}

// zod features whose JSON Schema says exactly what zod accepts and returns. Refinements and
// defaults, for example, would render as if absent: the fast check would then accept values zod
// rejects, or return them without zod's defaults.
const EXACT_TYPES = new Set(['string', 'number', 'boolean', 'enum', 'object', 'record', 'array', 'union', 'optional', 'unknown']);
const EXACT_CHECKS = new Set(['number_format', 'greater_than', 'less_than']);

/** JSON Schema of `schema`, refusing any zod feature it cannot express exactly. */
export function toExactJsonSchema(schema: Z.ZodType): Record<string, unknown> {
  useZod();
  return z.toJSONSchema(schema, {
    unrepresentable: 'throw',
    override: ({ zodSchema }) => {
      const def = zodSchema._zod.def as { type: string; checks?: { _zod: { def: { check: string } } }[] };
      const inexact = [
        ...(EXACT_TYPES.has(def.type) ? [] : [def.type]),
        ...(def.checks ?? []).map((c) => c._zod.def.check).filter((check) => !EXACT_CHECKS.has(check)),
      ];
      if (inexact.length > 0) {
        throw new Error(
          `the config layer schema uses zod's ${inexact.join(', ')}, which its JSON Schema cannot express ` +
            'exactly; the fast check (src/config/fast-check.ts) would then accept what zod rejects. ' +
            'Express it with plain types and bounds, or teach fast-check.ts and this list about it.',
        );
      }
    },
  }) as Record<string, unknown>;
}
