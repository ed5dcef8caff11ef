// A tools/call result as the model sees it: text, images and structured content mapped to
// neutral tool output (protocol ToolOutput), oversized output cut with a marker saying how much
// was left out, and the mcp_tool_call item's `result` field.
import type { ContentPart, ToolOutput } from '../protocol/index.js';
import type { McpCallToolResult, McpContentBlock } from './types.js';

/** Text kept per call before the marker (Codex truncates tool output to a similar budget). */
export const DEFAULT_MCP_OUTPUT_MAX_BYTES = 64 * 1024;
/** Image bytes (base64 text) kept per call; images past it are replaced by a note. */
export const DEFAULT_MCP_IMAGE_MAX_BYTES = 8 * 1024 * 1024;

export interface MapResultOptions {
  /** The model takes image input (else images become a note, as Codex does). */
  supportsImages?: boolean;
  maxOutputBytes?: number;
  maxImageBytes?: number;
  /**
   * Codex's rule (the native harness): structured content, when there is some, is sent as its
   * compact JSON text instead of the content blocks. Otherwise the blocks are sent, and structured
   * content only when no block is text (the spec asks servers to render it as text too).
   */
  structuredFirst?: boolean;
}

export interface MappedMcpResult {
  /** What goes back to the model: a string when the result is text only. */
  output: ToolOutput;
  /** False when the server flagged the result as an error (isError). */
  success: boolean;
  /** For the mcp_tool_call item. */
  item: { content: unknown[]; structured_content: unknown };
  truncated: boolean;
}

export function mapMcpResult(result: McpCallToolResult, options: MapResultOptions = {}): MappedMcpResult {
  const maxText = options.maxOutputBytes ?? DEFAULT_MCP_OUTPUT_MAX_BYTES;
  let imageBudget = options.maxImageBytes ?? DEFAULT_MCP_IMAGE_MAX_BYTES;
  const parts: ContentPart[] = [];
  // No wire has a tool-result field for JSON: structured content goes as its compact JSON text.
  const structured = result.structuredContent !== undefined && result.structuredContent !== null;
  const content = [...(result.content ?? [])];
  const asJson: McpContentBlock = { type: 'text', text: JSON.stringify(result.structuredContent) };
  const blocks: McpContentBlock[] =
    structured && options.structuredFirst ? [asJson] : structured && !content.some((b) => b.type === 'text') ? [...content, asJson] : content;
  for (const block of blocks) {
    const image = imageOf(block);
    if (image) {
      if (!options.supportsImages) parts.push(text('<image content omitted because you do not support image input>'));
      else if (image.data.length > imageBudget) parts.push(text(`<image omitted: ${image.mimeType}, ${image.data.length} base64 bytes, over the size limit>`));
      else {
        imageBudget -= image.data.length;
        parts.push({ type: 'input_image', image_url: `data:${image.mimeType};base64,${image.data}` });
      }
      continue;
    }
    parts.push(text(describeBlock(block)));
  }
  const { parts: cut, truncated } = truncateText(parts, maxText);
  const onlyText = cut.every((p) => p.type === 'input_text');
  const output: ToolOutput = onlyText ? cut.map((p) => (p as { text: string }).text).join('\n') : cut;
  return {
    output,
    success: result.isError !== true,
    item: { content: result.content ?? [], structured_content: result.structuredContent ?? null },
    truncated,
  };
}

function text(value: string): ContentPart {
  return { type: 'input_text', text: value };
}

function imageOf(block: McpContentBlock): { mimeType: string; data: string } | undefined {
  if (block.type === 'image' && typeof block['data'] === 'string') {
    return { mimeType: String(block['mimeType'] ?? 'image/png'), data: block['data'] };
  }
  const resource = block.type === 'resource' ? (block['resource'] as Record<string, unknown> | undefined) : undefined;
  const mime = typeof resource?.['mimeType'] === 'string' ? resource['mimeType'] : '';
  if (resource && typeof resource['blob'] === 'string' && mime.startsWith('image/')) return { mimeType: mime, data: resource['blob'] };
  return undefined;
}

/** Every non-image block as text the model can use. */
function describeBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block['text'] ?? '');
    case 'audio':
      return `<audio content omitted: ${String(block['mimeType'] ?? 'audio')}, ${String(block['data'] ?? '').length} base64 bytes>`;
    case 'resource_link': {
      const name = block['title'] ?? block['name'] ?? block['uri'];
      const mime = typeof block['mimeType'] === 'string' ? ` (${block['mimeType']})` : '';
      return `Resource link: ${String(name)} at ${String(block['uri'])}${mime}`;
    }
    case 'resource': {
      const resource = (block['resource'] ?? {}) as Record<string, unknown>;
      const uri = String(resource['uri'] ?? '');
      if (typeof resource['text'] === 'string') return resource['text'];
      const size = typeof resource['blob'] === 'string' ? resource['blob'].length : 0;
      return `<embedded resource ${uri}: ${String(resource['mimeType'] ?? 'binary')}, ${size} base64 bytes; read it with read_mcp_resource if needed>`;
    }
    default:
      return JSON.stringify(block);
  }
}

/** Keeps text parts up to `maxBytes` (UTF-8) in order; the first cut part ends with the marker. */
function truncateText(parts: ContentPart[], maxBytes: number): { parts: ContentPart[]; truncated: boolean } {
  const total = parts.reduce((n, p) => n + (p.type === 'input_text' ? Buffer.byteLength(p.text) : 0), 0);
  if (total <= maxBytes) return { parts, truncated: false };
  let left = maxBytes;
  const out: ContentPart[] = [];
  let marked = false;
  for (const part of parts) {
    if (part.type !== 'input_text') {
      out.push(part);
      continue;
    }
    if (marked) continue;
    const bytes = Buffer.byteLength(part.text);
    if (bytes <= left) {
      out.push(part);
      left -= bytes;
      continue;
    }
    const kept = utf8Prefix(part.text, left);
    out.push(text(`${kept}\n[... MCP output truncated: ${total - maxBytes + (left - Buffer.byteLength(kept))} of ${total} bytes omitted ...]`));
    marked = true;
  }
  return { parts: out, truncated: true };
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, not splitting a character. */
function utf8Prefix(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}
