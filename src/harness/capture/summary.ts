// A first request reduced to what a harness is judged on, in the vocabulary of the capture files
// (test/fixtures/harness-tools/README.md): field names and order, setting values, where the system
// prompt goes, message roles and content layout, cache breakpoints, and per tool its name, kind,
// description-free schema and extra fields. Texts are left out: a summary can be compared with a
// capture of another product without holding its words. Pure; used by the fidelity test and by
// `rig harness diff`.
import type { WireApi } from '../../model/types.js';

export interface ContentSummary {
  type: string;
  leading_tag?: string;
  prompt?: 'verbatim' | 'json-quoted';
  cache_control?: unknown;
}

export interface MessageSummary {
  role: string;
  /** `string` for plain string content, else the parts. */
  content: 'string' | ContentSummary[];
  /** Set when this string content is the user's prompt. */
  prompt?: 'verbatim' | 'json-quoted';
  other_fields?: string[];
}

export interface ToolSummary {
  name: string;
  kind: string;
  parameters: unknown;
  extras: Record<string, unknown>;
}

export interface RequestSummary {
  fields: string[];
  /** Values of the fields that are settings (not content, not ids). */
  settings: Record<string, unknown>;
  /** Fields whose presence counts, not their value (ids, session keys, client metadata). */
  present: string[];
  system_placement: string;
  message_roles: string[];
  messages: MessageSummary[];
  cache_control: string[];
  tools: ToolSummary[];
}

/** Body fields that hold content (compared through the other parts of the summary). */
const CONTENT_FIELDS = new Set(['model', 'messages', 'input', 'instructions', 'system', 'tools']);
/** Fields compared by presence: their values are ids or client metadata. */
export const PRESENCE_FIELDS = new Set(['prompt_cache_key', 'metadata', 'client_metadata', 'user', 'session_id']);
const SCHEMA_TEXT_KEYS = new Set(['description', 'title', 'examples', 'markdownDescription']);

/** A schema without its prose (the capture README's stripping rule): property names stay. */
export function stripSchemaText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripSchemaText);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_TEXT_KEYS.has(key) && typeof value !== 'object') continue;
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, stripSchemaText(sub)]));
    } else out[key] = stripSchemaText(value);
  }
  return out;
}

function leadingTag(text: string): string | undefined {
  const match = /^\s*<([a-z][a-z_ -]*[a-z])>/i.exec(text);
  return match?.[1];
}

function promptKind(text: string, prompt: string | undefined): 'verbatim' | 'json-quoted' | undefined {
  if (prompt === undefined) return undefined;
  if (text === prompt) return 'verbatim';
  if (text === JSON.stringify(prompt)) return 'json-quoted';
  return undefined;
}

function partSummary(part: Record<string, unknown>, prompt: string | undefined): ContentSummary {
  const out: ContentSummary = { type: String(part['type']) };
  const text = typeof part['text'] === 'string' ? part['text'] : undefined;
  if (text !== undefined) {
    const kind = promptKind(text, prompt);
    if (kind) out.prompt = kind;
    else {
      const tag = leadingTag(text);
      if (tag) out.leading_tag = tag;
    }
  }
  if (part['cache_control'] !== undefined) out.cache_control = part['cache_control'];
  return out;
}

function messageSummary(wire: WireApi, message: Record<string, unknown>, prompt: string | undefined): MessageSummary {
  const role = wire === 'responses'
    ? message['type'] === undefined ? `${String(message['role'])} (item without type field)` : `${String(message['type'])}:${String(message['role'])}`
    : String(message['role']);
  const content = message['content'];
  const known = new Set(['type', 'role', 'content', 'id']);
  const other = Object.keys(message).filter((key) => !known.has(key));
  const summary: MessageSummary = { role, content: 'string' };
  if (typeof content === 'string') {
    const kind = promptKind(content, prompt);
    if (kind) summary.prompt = kind;
  } else if (Array.isArray(content)) {
    summary.content = content.map((part) => partSummary(part as Record<string, unknown>, prompt));
  }
  if (other.length > 0) summary.other_fields = other;
  return summary;
}

function systemPlacement(wire: WireApi, body: Record<string, unknown>, items: Record<string, unknown>[]): string {
  if (wire === 'messages') {
    const system = body['system'];
    if (Array.isArray(system)) return `system array of ${system.length} text block${system.length === 1 ? '' : 's'}`;
    return typeof system === 'string' ? 'system string' : 'no system';
  }
  if (wire === 'chat') {
    const first = items[0];
    if (first && (first['role'] === 'system' || first['role'] === 'developer')) {
      return `first message role ${String(first['role'])} (${typeof first['content'] === 'string' ? 'string content' : 'content parts'})`;
    }
    return 'no system message';
  }
  if (typeof body['instructions'] === 'string') return 'instructions field';
  const lead = items.findIndex((item) => item['role'] !== 'system' && item['role'] !== 'developer');
  const count = lead === -1 ? items.length : lead;
  if (count === 0) return 'no instructions field and no system item';
  const first = items[0]!;
  const form = typeof first['content'] === 'string' ? 'string content' : 'content parts';
  return count === 1
    ? `no instructions field; first input item role ${String(first['role'])} (${form})`
    : `no instructions field; first input items (${count}) role ${String(first['role'])} (${form})`;
}

function toolSummary(wire: WireApi, tool: Record<string, unknown>): ToolSummary {
  if (wire === 'chat') {
    const fn = (tool['function'] ?? {}) as Record<string, unknown>;
    const { name, description: _d, parameters, ...extras } = fn;
    return { name: String(name), kind: String(tool['type'] ?? 'function'), parameters: parameters === undefined ? null : stripSchemaText(parameters), extras };
  }
  if (wire === 'messages') {
    const { name, description: _d, input_schema, type, ...extras } = tool;
    const kind = type === undefined || type === 'custom' ? 'function' : String(type);
    return { name: String(name), kind, parameters: input_schema === undefined ? null : stripSchemaText(input_schema), extras };
  }
  const { name, description: _d, parameters, type, format: _f, ...extras } = tool;
  const kind = type === 'function' || type === 'custom' ? String(type) : 'builtin';
  return { name: String(name ?? type), kind, parameters: parameters === undefined ? null : stripSchemaText(parameters), extras: kind === 'builtin' ? { type, ...extras } : extras };
}

function cachePaths(value: unknown, path: string, out: string[]): void {
  if (Array.isArray(value)) value.forEach((entry, index) => cachePaths(entry, `${path}[${index}]`, out));
  else if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key === 'cache_control') out.push(path);
      else if (key !== 'input_schema' && key !== 'parameters') cachePaths(entry, path === '' ? key : `${path}.${key}`, out);
    }
  }
}

/** The summary of a request body as sent on `wire`; `prompt` marks the user's prompt part. */
export function summarizeRequest(wire: WireApi, body: Record<string, unknown>, prompt?: string): RequestSummary {
  const items = ((wire === 'responses' ? body['input'] : body['messages']) ?? []) as Record<string, unknown>[];
  const messages = items.filter((item) => wire !== 'responses' || item['type'] === undefined || item['type'] === 'message');
  const settings: Record<string, unknown> = {};
  const present: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (CONTENT_FIELDS.has(key)) continue;
    if (PRESENCE_FIELDS.has(key)) present.push(key);
    else settings[key] = value;
  }
  const cache: string[] = [];
  cachePaths({ system: body['system'], messages: wire === 'messages' ? body['messages'] : undefined, tools: body['tools'] }, '', cache);
  const summarizedMessages = messages.map((message) => messageSummary(wire, message, prompt));
  return {
    fields: Object.keys(body),
    settings,
    present: present.sort(),
    system_placement: systemPlacement(wire, body, messages),
    message_roles: summarizedMessages.map((message) => message.role),
    messages: summarizedMessages,
    cache_control: cache.sort(),
    tools: ((body['tools'] ?? []) as Record<string, unknown>[]).map((tool) => toolSummary(wire, tool)),
  };
}
