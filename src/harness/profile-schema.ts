// The harness profile file format. A profile is data: which wires it speaks, its system prompt, its
// tools (each bound to an engine capability by id), how requests are shaped and how tool results are
// rendered. Code stays generic; a profile that does not validate never loads.
// zod is loaded on first use (built-in profiles ship pre-validated, builtin-profiles.ts), so the
// schemas are built by buildSchemas() when first needed.
import type { z as Z } from 'zod';
import { loadZod } from '../config/lazy-zod.js';

export const WIRES = ['responses', 'chat', 'messages'] as const;

/**
 * Named reshapings of tool schemas on one wire, as an original's client library does them (Qwen
 * Code's chat simplification, the AI SDK's Responses form). Applied in order (request-settings.ts).
 */
export const TOOL_SCHEMA_STEPS = [
  'drop-$schema',
  'drop-top-additional-properties',
  'drop-numeric-bounds',
  'drop-defaults',
  'omit-empty-parameters',
  'order-properties-required-type',
] as const;

/** How a harness talks to the model: tool calls, or actions parsed from plain text. */
export const PROTOCOLS = ['tools', 'swe-agent-text', 'swe-agent-tools', 'terminus-json'] as const;

function buildSchemas(z: typeof Z) {
  const jsonObject = z.record(z.string(), z.unknown());

  const profileToolSchema = z.strictObject({
    /** The name the model sees and calls. */
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, "_", "." or "-"'),
    /** Engine capability id this tool is bound to (see the capability registry). */
    capability: z.string().min(1),
    /** Inline description. Omit both this and description_file to take the capability's own. */
    description: z.string().optional(),
    /** Description file, relative to the profile file. */
    description_file: z.string().min(1).optional(),
    /** JSON schema the model sees. Omit to take the capability's own schema. */
    parameters: jsonObject.nullable().optional(),
    /** Capability-specific settings (units, limits, output format); merged over the profile aliases. */
    options: jsonObject.default({}),
    /**
     * advertised: sent in every request. deferred: named to the model and sent once loaded through
     * the harness's tool-search tool. hidden: never sent, but callable (text-protocol actions).
     */
    exposure: z.enum(['advertised', 'deferred', 'hidden']).default('advertised'),
    /** Extra per-tool fields the original sends (defer_loading, eager_input_streaming, strict). */
    extras: jsonObject.default({}),
    /** The schema on one wire when the original sends another there (null = no parameters object). */
    parameters_by_wire: z.partialRecord(z.enum(WIRES), jsonObject.nullable()).optional(),
    /** Extra per-tool fields on one wire only, merged over `extras`. */
    extras_by_wire: z.partialRecord(z.enum(WIRES), jsonObject).optional(),
    /** Where the facts for this tool came from (capture file, reference section, upstream source). */
    source: z.string().optional(),
  });

  /** Layout choices on the wire (model/types.ts WireShape, in the file's snake_case). */
  const wireShapeSchema = z.strictObject({
    /** instructions (default), or a Responses input item with role system / developer. */
    system: z.enum(['instructions', 'system-item', 'developer-item']).optional(),
    /** Responses: false = message items without `type: "message"`. */
    item_type_field: z.boolean().optional(),
    /** Chat: user content as one string or as text parts. */
    user_content: z.enum(['string', 'parts']).optional(),
    /** tool_choice as sent; null = not sent. */
    tool_choice: z.unknown().optional(),
    omit_parallel_tool_calls: z.boolean().optional(),
    /** Chat: max_tokens or max_completion_tokens (a provider's compat flag wins). */
    max_tokens_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** Send `store: false` (default on Responses; on Chat only when true). */
    store: z.boolean().optional(),
    stream_usage: z.boolean().optional(),
    include_encrypted_reasoning: z.boolean().optional(),
    /** Messages: where cache_control breakpoints go (default all three). */
    cache_control: z
      .strictObject({ system: z.boolean().optional(), last_message: z.boolean().optional(), last_tool: z.boolean().optional() })
      .optional(),
    /** Messages: the configured reasoning effort as output_config.effort. */
    effort_in_output_config: z.boolean().optional(),
    /** Top-level body keys first, in this order. */
    field_order: z.array(z.string()).optional(),
    /** Chat: tools sent without a parameters object. */
    tools_without_parameters: z.array(z.string()).optional(),
    /** Responses: function tools without a `strict` field (Qwen Code's client leaves it out). */
    omit_tool_strict: z.boolean().optional(),
  });

  /** Settings that may differ per wire and per model family (request.by_wire, request.by_model). */
  const settingsFields = {
    max_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** `parallel_tool_calls` as the original sends it (Responses and Chat). */
    parallel_tool_calls: z.boolean().optional(),
    /** The reasoning effort the original sends for the model when the user configures none. */
    reasoning_effort: z.string().min(1).optional(),
    /** Responses `text.verbosity` the original sends when the user configures none. */
    verbosity: z.enum(['low', 'medium', 'high']).optional(),
    /** Extra top-level body fields, merged over the ones of the layers before. */
    extra_body: jsonObject.optional(),
    extra_headers: z.record(z.string(), z.string()).optional(),
    wire_shape: wireShapeSchema.optional(),
    /** Tool schema reshaping steps on this wire (TOOL_SCHEMA_STEPS), replacing the ones before. */
    tool_schema: z.array(z.enum(TOOL_SCHEMA_STEPS)).optional(),
    /** Extra fields merged into every tool (pi's eager_input_streaming on Messages). */
    tool_extras: jsonObject.optional(),
  };
  const requestSettingsSchema = z.strictObject(settingsFields);
  const modelOverrideSchema = z.strictObject({
    /** A regular expression (case-insensitive) the model id must match, e.g. `^claude-opus-4-[6-9]`. */
    match: z.string().min(1).refine((text) => {
      try {
        new RegExp(text, 'i');
        return true;
      } catch {
        return false;
      }
    }, 'is not a valid regular expression'),
    ...settingsFields,
    by_wire: z.partialRecord(z.enum(WIRES), requestSettingsSchema).optional(),
  });

  const startupContextSchema = z.strictObject({
    /** User-message text; `{{date}}`-style slots are filled at request time (request-shape.ts). */
    text: z.string().min(1).optional(),
    /** More text parts after `text`, each wrapped and filled the same way (Qwen Code sends four). */
    parts: z.array(z.string().min(1)).optional(),
    /** Canned assistant reply placed after it, or omitted for no reply (separate placement only). */
    reply: z.string().min(1).optional(),
    /**
     * separate: its own user message at the start of the input. first-user-message: an extra text
     * part at the front of the first user message (Qwen Code puts its context there).
     */
    placement: z.enum(['separate', 'first-user-message']).default('separate'),
    /** Wraps the text; `{text}` is replaced (e.g. `<system-reminder>\n{text}\n</system-reminder>`). */
    wrap: z.string().default('{text}'),
  });

  const toolResultRenderingSchema = z.strictObject({
    /** Wrap failed output; `{text}` is replaced by the output. */
    error_template: z.string().default('{text}'),
    /** Replaces an empty output. */
    empty_output: z.string().optional(),
    /** Trim surrounding whitespace of text outputs. */
    trim: z.boolean().default(false),
    /** Prefix of text outputs (swe-agent's `OBSERVATION:` convention). */
    prefix: z.string().default(''),
    /** Send outputs as a user message instead of a tool message (text-protocol harnesses). */
    as_user_message: z.boolean().default(false),
    /**
     * Tools whose failed output is sent as written, still flagged as an error: the original words
     * the failure itself (Claude Code's Bash sends `Exit code N` and the output, no error wrapper).
     */
    plain_errors: z.array(z.string()).default([]),
  });

  const requestShapeSchema = z.strictObject({
    startup_context: startupContextSchema
      .refine((context) => context.text !== undefined || (context.parts?.length ?? 0) > 0, 'needs text or parts')
      .optional(),
    max_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    parallel_tool_calls: z.boolean().optional(),
    reasoning_effort: z.string().min(1).optional(),
    verbosity: z.enum(['low', 'medium', 'high']).optional(),
    wire_shape: wireShapeSchema.optional(),
    tool_schema: z.array(z.enum(TOOL_SCHEMA_STEPS)).optional(),
    tool_extras: jsonObject.optional(),
    /** Settings for one wire, over the ones above. */
    by_wire: z.partialRecord(z.enum(WIRES), requestSettingsSchema).default({}),
    /** Settings for model families, over by_wire, each matching entry in order. */
    by_model: z.array(modelOverrideSchema).default([]),
    /**
     * Codex's `<environment_context>` block in the first user message: only Codex (the native
     * harness) sends it; `drop` leaves it out for every other original.
     */
    environment_context: z.enum(['keep', 'drop']).default('drop'),
    /** Extra top-level body fields, merged last. */
    extra_body: jsonObject.default({}),
    /** Extra body fields for one wire only (e.g. chat-only `thinking`), merged after extra_body. */
    extra_body_by_wire: z.partialRecord(z.enum(WIRES), jsonObject).default({}),
    /** Extra headers. Never client-identity headers of another product. */
    extra_headers: z.record(z.string(), z.string()).default({}),
    tool_results: toolResultRenderingSchema.default({
      error_template: '{text}',
      trim: false,
      prefix: '',
      as_user_message: false,
      plain_errors: [],
    }),
    /** What happens to the model's reasoning on replay. */
    reasoning: z.enum(['keep', 'drop']).default('keep'),
    /** How user prompt text is written (opencode sends it JSON-quoted). */
    user_text: z.enum(['verbatim', 'json-quoted']).default('verbatim'),
    /** Role developer messages are sent as. */
    developer_role: z.enum(['developer', 'user', 'system', 'drop']).default('developer'),
    /** Whether the request streams (text-protocol harnesses use one JSON reply). */
    stream: z.boolean().default(true),
  });

  const aliasRulesSchema = z.strictObject({
    /** Edit/Write of an existing file fails unless the file was read first in this thread. */
    read_before_edit: z.boolean().default(false),
    /** Read output line numbering; unset = the tool style's own. */
    line_numbers: z.enum(['tab', 'cat-n', 'colon', 'none']).optional(),
    /** Lines a Read returns when no limit is given; unset = the tool style's own. */
    read_default_lines: z.number().int().positive().optional(),
    /** Longer lines are cut; unset = the tool style's own. */
    read_max_line_chars: z.number().int().positive().optional(),
    /** Cap of a tool's text output in bytes before head/tail truncation; unset = the style's own. */
    output_limit_bytes: z.number().int().positive().optional(),
  });

  const profileSchema = z.strictObject({
    /** Format version of this file. */
    format: z.literal(1),
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and "-"'),
    description: z.string().min(1),
    wires: z.array(z.enum(WIRES)).min(1),
    protocol: z.enum(PROTOCOLS).default('tools'),
    /**
     * mini-swe-agent's ending: a command whose output starts with this line (exit 0) ends the turn,
     * with the rest of the output as the final answer; a reply with no tool call is a format error.
     */
    submit_sentinel: z.string().min(1).optional(),
    /** System prompt file, relative to the profile file, absolute, or `~/...`. */
    prompt_file: z.string().min(1),
    /**
     * The first user message's template, for originals that put the task there (mini-swe-agent,
     * SWE-agent, Terminus 2): `{{task}}` is the user's prompt, plus `{{system_information}}`,
     * `{{terminal_state}}` and the prompt slots. Same path rules as prompt_file.
     */
    instance_template_file: z.string().min(1).optional(),
    tools: z.array(profileToolSchema).default([]),
    request: requestShapeSchema.default(() => requestShapeSchema.parse({})),
    aliases: aliasRulesSchema.default(() => aliasRulesSchema.parse({})),
    /** Where the facts came from, for readers of the file. */
    sources: z.array(z.string()).default([]),
    /** Known gaps, stated rather than hidden. */
    notes: z.array(z.string()).default([]),
    /**
     * How far rig's first request is from the captured original's (test/harness/fidelity.test.ts):
     * every difference that remains, with the reason it is accepted.
     */
    fidelity: z
      .strictObject({
        accepted_differences: z
          .array(z.strictObject({ capture: z.string().min(1), at: z.string().min(1), reason: z.string().min(1) }))
          .default([]),
      })
      .optional(),
    /** Set by `rig harness capture`: where the profile came from and what it left out. */
    capture: jsonObject.optional(),
  });
  return {
    wireShapeSchema,
    requestSettingsSchema,
    profileToolSchema,
    startupContextSchema,
    toolResultRenderingSchema,
    requestShapeSchema,
    aliasRulesSchema,
    profileSchema,
  };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The profile schemas, built (and zod loaded) on first call. */
export function profileSchemas(): Schemas {
  schemas ??= buildSchemas(loadZod().z);
  return schemas;
}

/** A stand-in that builds the schemas when first used, so importing this module stays cheap. */
function lazySchema<K extends keyof Schemas>(key: K): Schemas[K] {
  return new Proxy({} as Schemas[K], {
    get: (_target, property) => {
      const schema = profileSchemas()[key];
      const value: unknown = Reflect.get(schema, property, schema);
      return typeof value === 'function' ? value.bind(schema) : value;
    },
  });
}

export const profileToolSchema = lazySchema('profileToolSchema');
export const startupContextSchema = lazySchema('startupContextSchema');
export const toolResultRenderingSchema = lazySchema('toolResultRenderingSchema');
export const requestShapeSchema = lazySchema('requestShapeSchema');
export const aliasRulesSchema = lazySchema('aliasRulesSchema');
export const profileSchema = lazySchema('profileSchema');

export type ProfileFile = Z.infer<Schemas['profileSchema']>;
export type WireShapeSettings = Z.infer<Schemas['wireShapeSchema']>;
export type RequestSettings = Z.infer<Schemas['requestSettingsSchema']>;
export type ToolSchemaStep = (typeof TOOL_SCHEMA_STEPS)[number];
export type ProfileToolDecl = Z.infer<Schemas['profileToolSchema']>;
export type RequestShape = Z.infer<Schemas['requestShapeSchema']>;
export type AliasRules = Z.infer<Schemas['aliasRulesSchema']>;
export type ToolResultRendering = Z.infer<Schemas['toolResultRenderingSchema']>;
export type Protocol = (typeof PROTOCOLS)[number];
