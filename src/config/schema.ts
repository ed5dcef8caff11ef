// The shape of one config layer (config.toml, a profile, a -c override, CLI flags). Every field is
// optional here: layers are partial and merge; defaults are applied once, after merging (resolve.ts).
// Schemas are built on first use, not at import, because config loading sits on every command's
// startup path and most imports of this room only need the types. zod itself is loaded only when a
// layer fails the fast check (fast-check.ts against layer-schema.generated.ts, rendered from here).
import { CODEX_INERT, CODEX_QUIET } from './codex-keys.js';
import type { z as Z } from 'zod';
import { intIn, looseTable, stringList, stringMap, zod } from './schema-kit.js';
import { agentsSchema, hooksSchema, mcpServerSchema, webSearchSchema } from './schema-tables.js';
import { ALTERNATE_SCREEN_MODES, APPROVAL_POLICIES, ENV_INHERIT, REASONING_SUMMARIES, SANDBOX_MODES, TRUST_LEVELS, VERBOSITIES, WIRE_APIS } from './schema-values.js';

export * from './schema-values.js';
export { agentRoleSchema } from './schema-tables.js';

// Assigned from the lazily loaded zod before any schema is built (layerSchemaFor, renderers).
let z = undefined as unknown as typeof Z;
function useZod(): void {
  if (z === undefined) z = zod();
}

/** Codex's [tui] table; rig reads these two keys, other keys (Codex's) pass through unread. */
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
