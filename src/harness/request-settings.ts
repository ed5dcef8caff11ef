// A profile's request settings for one wire and one model: the base settings, then `by_wire`,
// then each `by_model` entry whose pattern matches (and its own `by_wire`), later layers winning.
// Also the per-wire reshaping of tool definitions (named schema steps, per-wire schemas and extras).
import type { JsonSchema, ToolDefinition } from '../protocol/index.js';
import type { WireApi, WireShape } from '../model/types.js';
import type { RequestSettings, RequestShape, ToolSchemaStep, WireShapeSettings } from './profile-schema.js';
import type { ResolvedTool } from './profile.js';

export interface EffectiveSettings {
  maxTokens?: number;
  temperature?: number;
  parallelToolCalls?: boolean;
  reasoningEffort?: string;
  verbosity?: string;
  extraBody: Record<string, unknown>;
  extraHeaders: Record<string, string>;
  wireShape: WireShapeSettings;
  toolSchema: ToolSchemaStep[];
  toolExtras: Record<string, unknown>;
}

function apply(into: EffectiveSettings, layer: RequestSettings | undefined): void {
  if (!layer) return;
  if (layer.max_tokens !== undefined) into.maxTokens = layer.max_tokens;
  if (layer.temperature !== undefined) into.temperature = layer.temperature;
  if (layer.parallel_tool_calls !== undefined) into.parallelToolCalls = layer.parallel_tool_calls;
  if (layer.reasoning_effort !== undefined) into.reasoningEffort = layer.reasoning_effort;
  if (layer.verbosity !== undefined) into.verbosity = layer.verbosity;
  if (layer.extra_body) Object.assign(into.extraBody, layer.extra_body);
  if (layer.extra_headers) Object.assign(into.extraHeaders, layer.extra_headers);
  if (layer.wire_shape) {
    const cache = layer.wire_shape.cache_control ? { cache_control: { ...into.wireShape.cache_control, ...layer.wire_shape.cache_control } } : {};
    into.wireShape = { ...into.wireShape, ...layer.wire_shape, ...cache };
  }
  if (layer.tool_schema) into.toolSchema = [...layer.tool_schema];
  if (layer.tool_extras) Object.assign(into.toolExtras, layer.tool_extras);
}

/** The settings in force for `wire` and `model`. */
export function effectiveSettings(shape: RequestShape, wire: WireApi | undefined, model: string): EffectiveSettings {
  const out: EffectiveSettings = { extraBody: {}, extraHeaders: {}, wireShape: {}, toolSchema: [], toolExtras: {} };
  const { startup_context: _s, tool_results: _t, by_wire, by_model, extra_body_by_wire, ...base } = shape;
  apply(out, base);
  if (wire) {
    if (extra_body_by_wire[wire]) Object.assign(out.extraBody, extra_body_by_wire[wire]);
    apply(out, by_wire[wire]);
  }
  for (const entry of by_model) {
    if (!new RegExp(entry.match, 'i').test(model)) continue;
    const { match: _m, by_wire: entryByWire, ...settings } = entry;
    apply(out, settings);
    if (wire) apply(out, entryByWire?.[wire]);
  }
  return out;
}

/** The file's snake_case wire shape as the adapters' WireShape. */
export function toWireShape(settings: WireShapeSettings): WireShape | undefined {
  const shape: WireShape = {};
  if (settings.system !== undefined) shape.system = settings.system;
  if (settings.item_type_field !== undefined) shape.itemTypeField = settings.item_type_field;
  if (settings.user_content !== undefined) shape.userContent = settings.user_content;
  if ('tool_choice' in settings) shape.toolChoice = settings.tool_choice;
  if (settings.omit_parallel_tool_calls !== undefined) shape.omitParallelToolCalls = settings.omit_parallel_tool_calls;
  if (settings.max_tokens_field !== undefined) shape.maxTokensField = settings.max_tokens_field;
  if (settings.store !== undefined) shape.store = settings.store;
  if (settings.stream_usage !== undefined) shape.streamUsage = settings.stream_usage;
  if (settings.include_encrypted_reasoning !== undefined) shape.includeEncryptedReasoning = settings.include_encrypted_reasoning;
  if (settings.cache_control) {
    const { system, last_message: lastMessage, last_tool: lastTool } = settings.cache_control;
    shape.cacheControl = {
      ...(system !== undefined ? { system } : {}),
      ...(lastMessage !== undefined ? { lastMessage } : {}),
      ...(lastTool !== undefined ? { lastTool } : {}),
    };
  }
  if (settings.effort_in_output_config !== undefined) shape.effortInOutputConfig = settings.effort_in_output_config;
  if (settings.field_order) shape.fieldOrder = settings.field_order;
  if (settings.tools_without_parameters) shape.toolsWithoutParameters = settings.tools_without_parameters;
  if (settings.omit_tool_strict !== undefined) shape.omitToolStrict = settings.omit_tool_strict;
  return Object.keys(shape).length > 0 ? shape : undefined;
}

const NUMERIC_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];

/** Drops keys by name at every level of a schema, but never a property that happens to be named so. */
function dropKeywords(schema: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => dropKeywords(entry, keys));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (keys.includes(key)) continue;
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, dropKeywords(sub, keys)]));
    } else out[key] = dropKeywords(value, keys);
  }
  return out;
}

/** properties, required, type first at every object level, as the AI SDK re-serialises schemas. */
function orderPropertiesRequiredType(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(orderPropertiesRequiredType);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema).map(([key, value]): [string, unknown] => {
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      return [key, Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, orderPropertiesRequiredType(sub)]))];
    }
    return [key, orderPropertiesRequiredType(value)];
  });
  const rank = (key: string) => ['properties', 'required', 'type'].indexOf(key);
  const first = entries.filter(([key]) => rank(key) >= 0).sort(([a], [b]) => rank(a) - rank(b));
  return Object.fromEntries([...first, ...entries.filter(([key]) => rank(key) < 0)]);
}

/** A schema after the named steps (omit-empty-parameters is decided per tool, see reshapeTools). */
export function reshapeSchema(schema: JsonSchema, steps: readonly ToolSchemaStep[]): JsonSchema {
  let out: JsonSchema = schema;
  for (const step of steps) {
    switch (step) {
      case 'drop-$schema': {
        const { $schema: _drop, ...rest } = out;
        out = rest;
        break;
      }
      case 'drop-top-additional-properties':
        if (out['additionalProperties'] === false) {
          const { additionalProperties: _drop, ...rest } = out;
          out = rest;
        }
        break;
      case 'drop-numeric-bounds':
        out = dropKeywords(out, NUMERIC_BOUNDS) as JsonSchema;
        break;
      case 'drop-defaults':
        out = dropKeywords(out, ['default']) as JsonSchema;
        break;
      case 'order-properties-required-type':
        out = orderPropertiesRequiredType(out) as JsonSchema;
        break;
      case 'omit-empty-parameters':
        break;
    }
  }
  return out;
}

function hasNoProperties(schema: JsonSchema): boolean {
  const properties = schema['properties'];
  return properties === undefined || (typeof properties === 'object' && properties !== null && Object.keys(properties).length === 0);
}

/**
 * The tool list on one wire: a profile tool's per-wire schema and extras first, then the named
 * schema steps, then the extras every tool gets. Returns the tools and the names of those sent
 * without a parameters object.
 */
export function reshapeTools(
  tools: readonly ToolDefinition[],
  declared: readonly ResolvedTool[] | undefined,
  wire: WireApi | undefined,
  settings: Pick<EffectiveSettings, 'toolSchema' | 'toolExtras'>,
): { tools: ToolDefinition[]; withoutParameters: string[] } {
  const byName = new Map((declared ?? []).map((tool) => [tool.name, tool]));
  const withoutParameters: string[] = [];
  const reshaped = tools.map((tool): ToolDefinition => {
    const decl = byName.get(tool.name);
    const wireExtras = wire ? decl?.extras_by_wire?.[wire] : undefined;
    const extras = { ...tool.extras, ...settings.toolExtras, ...wireExtras };
    const withExtras = Object.keys(extras).length > 0 ? { ...tool, extras } : tool;
    if (withExtras.kind !== 'function') return withExtras;
    const perWire = wire && decl?.parameters_by_wire && wire in decl.parameters_by_wire ? decl.parameters_by_wire[wire] : undefined;
    if (perWire === null || (settings.toolSchema.includes('omit-empty-parameters') && hasNoProperties(withExtras.parameters))) {
      withoutParameters.push(tool.name);
      return withExtras;
    }
    const parameters = perWire ?? reshapeSchema(withExtras.parameters, settings.toolSchema);
    return { ...withExtras, parameters };
  });
  return { tools: reshaped, withoutParameters };
}
