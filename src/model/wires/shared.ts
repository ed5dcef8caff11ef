// Pieces every wire adapter needs: how a freeform (custom) tool is presented on wires that only
// know JSON function tools, how tool outputs become text, and call-id bookkeeping.
import type { ContentPart, CustomToolDefinition, JsonSchema, ModelRequest, ToolOutput, WebSearchCallItem } from './shared-types.js';
import { resolveCompat, type ResolvedCompat } from '../compat.js';
import type { WireApi } from '../types.js';

/** The flags a body is built with: the provider's, else the wire's generic defaults. */
export function compatOrDefault(wire: WireApi, compat: ResolvedCompat | undefined): ResolvedCompat {
  return compat ?? resolveCompat({ id: '', base_url: '', wire_api: wire });
}

/** The body with `order`'s keys first, in that order (an original's field order), the rest after. */
export function orderFields(body: Record<string, unknown>, order: readonly string[] | undefined): Record<string, unknown> {
  if (!order?.length) return body;
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in body) out[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * Chat and Messages have no freeform tools, so a custom tool becomes a function taking one string
 * field `input`; the description carries the grammar so the model still knows the format.
 */
export function wrappedCustomToolSchema(): JsonSchema {
  return {
    type: 'object',
    properties: { input: { type: 'string', description: 'The raw tool input, in the format described above.' } },
    required: ['input'],
    additionalProperties: false,
  };
}

export function wrappedCustomToolDescription(tool: CustomToolDefinition): string {
  const format = tool.format;
  if (!format || format.type === 'text') return tool.description;
  return (
    `${tool.description}\n\nPut the whole tool input in the string field \`input\`. ` +
    `It must match this ${format.syntax} grammar:\n${format.definition}`
  );
}

/** The `input` string from a wrapped custom tool call's JSON arguments (raw text if malformed). */
export function unwrapCustomToolInput(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { input?: unknown }).input === 'string') {
      return (parsed as { input: string }).input;
    }
  } catch {
    // fall through: hand the raw text to the tool, which reports the problem to the model
  }
  return argumentsJson;
}

export function customToolNames(request: ModelRequest): Set<string> {
  return new Set(request.tools.filter((t) => t.kind === 'custom').map((t) => t.name));
}

/** Tool output as plain text, for wires whose tool results are strings. */
export function toolOutputText(output: ToolOutput): string {
  if (typeof output === 'string') return output;
  return output
    .map((part: ContentPart) => (part.type === 'input_image' ? '[image]' : part.text))
    .join('\n');
}

/** Object input for wires that need tool-call arguments as JSON objects (Anthropic tool_use). */
export function argumentsObject(argumentsJson: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // malformed arguments were already answered with an error result; replay an empty object
  }
  return {};
}

/** Data URL -> base64 parts, for Anthropic image sources. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match?.[1] || match[2] === undefined) return undefined;
  return { mediaType: match[1], data: match[2] };
}

/**
 * A search another wire ran (Anthropic's server search), for a wire that cannot replay its blocks:
 * the query and the pages found, as assistant text, which is what the model saw of it.
 */
export function webSearchText(item: WebSearchCallItem): string {
  const query = item.action?.type === 'search' ? item.action.query ?? item.action.queries?.join(', ') : undefined;
  const head = `[web search${query ? `: ${JSON.stringify(query)}` : ''}]`;
  if (item.error) return `${head} failed: ${item.error}`;
  const hits = (item.results ?? []).map((hit, i) => `${i + 1}. ${hit.title} <${hit.url}>`);
  return hits.length > 0 ? [head, ...hits].join('\n') : `${head} no results`;
}
