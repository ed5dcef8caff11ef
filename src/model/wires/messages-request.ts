// Anthropic Messages requests: the history folded into alternating messages, tools, the body
// (messages.ts has the stream side).
import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam, Tool as MessagesTool } from '@anthropic-ai/sdk/resources/messages/messages';
import { citedTextBlock, replayedSearchBlocks, serverWebSearchTool } from './messages-web-search.js';
import type { ContentPart, ConversationItem, ModelRequest, ToolOutput } from './shared-types.js';
import { orderFields, argumentsObject, parseDataUrl, wrappedCustomToolDescription, wrappedCustomToolSchema } from './shared.js';
import { rememberFold, resumeFold } from './history-memo.js';

// ---- request types -------------------------------------------------------------------------

type MessagesBody = MessageCreateParamsStreaming & Record<string, unknown>;
const EPHEMERAL = { type: 'ephemeral' as const };
/** Anthropic requires max_tokens; this is used unless the request sets maxOutputTokens. */
export const DEFAULT_MAX_TOKENS = 32_000;

// ---- request lowering ----------------------------------------------------------------------

function lowerParts(parts: ContentPart[]): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of parts) {
    if (part.type !== 'input_image') {
      if (part.text) blocks.push({ type: 'text', text: part.text }); // empty text blocks are rejected
      continue;
    }
    const data = parseDataUrl(part.image_url);
    blocks.push(
      data
        ? ({ type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } } as ContentBlockParam)
        : { type: 'image', source: { type: 'url', url: part.image_url } },
    );
  }
  return blocks;
}

function lowerToolOutput(output: ToolOutput): string | ContentBlockParam[] {
  return typeof output === 'string' ? output : lowerParts(output);
}

function lowerItem(item: ConversationItem): { role: 'user' | 'assistant'; blocks: ContentBlockParam[] } {
  switch (item.type) {
    case 'message': {
      // Anthropic has one top-level system prompt; later developer/system items ride as user text.
      const role = item.role === 'assistant' ? 'assistant' : 'user';
      if (role === 'assistant' && item.citations?.length) {
        const text = item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('');
        return { role, blocks: [citedTextBlock(text, item.citations)] };
      }
      return { role, blocks: lowerParts(item.content) };
    }
    case 'reasoning': {
      if (item.redacted_data) return { role: 'assistant', blocks: [{ type: 'redacted_thinking', data: item.redacted_data }] };
      // Thinking without its signature is rejected, so reasoning from other wires is not replayed.
      if (!item.signature) return { role: 'assistant', blocks: [] };
      const text = (item.content?.length ? item.content : item.summary).map((c) => c.text).join('');
      return { role: 'assistant', blocks: [{ type: 'thinking', thinking: text, signature: item.signature }] };
    }
    case 'function_call':
      return { role: 'assistant', blocks: [{ type: 'tool_use', id: item.call_id, name: item.name, input: argumentsObject(item.arguments) }] };
    case 'custom_tool_call':
      return { role: 'assistant', blocks: [{ type: 'tool_use', id: item.call_id, name: item.name, input: { input: item.input } }] };
    case 'web_search_call':
      // Anthropic's own search goes back as it came; the Responses API's has nothing to send here.
      return { role: 'assistant', blocks: replayedSearchBlocks(item) };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return {
        role: 'user',
        blocks: [
          {
            type: 'tool_result',
            tool_use_id: item.call_id,
            content: lowerToolOutput(item.output) as never,
            ...(item.is_error ? { is_error: true } : {}),
          },
        ],
      };
  }
}

/**
 * Consecutive same-role items merge into one message (the API wants alternating roles). Every
 * message but the last is settled: the fold resumes at the item that opened the last one
 * (history-memo.ts), so the last is always built fresh and may take the caching marker.
 */
function lowerMessages(request: ModelRequest, cacheLastMessage: boolean): MessageParam[] {
  type Message = { role: 'user' | 'assistant'; content: ContentBlockParam[] };
  const input = request.input;
  const settings = ['messages'];
  const resumed = resumeFold<Message>(input, settings);
  const messages = resumed.messages;
  let lastOpenedAt = resumed.from;
  for (let index = resumed.from; index < input.length; index++) {
    const { role, blocks } = lowerItem(input[index]!);
    if (blocks.length === 0) continue;
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else {
      messages.push({ role, content: blocks });
      lastOpenedAt = index;
    }
  }
  if (messages.length > resumed.reused) rememberFold(input, settings, lastOpenedAt, messages, messages.length - 1, resumed.reused);
  // Prompt caching: a breakpoint on the last block caches the whole conversation prefix.
  const lastBlock = cacheLastMessage ? messages[messages.length - 1]?.content.at(-1) : undefined;
  if (lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
    (lastBlock as { cache_control?: unknown }).cache_control = EPHEMERAL;
  }
  return messages;
}

function lowerTools(request: ModelRequest, cacheLastTool: boolean): MessagesTool[] {
  const tools: MessagesTool[] = request.tools.map((tool) =>
    tool.kind === 'function'
      ? { name: tool.name, description: tool.description, input_schema: tool.parameters as MessagesTool['input_schema'], ...tool.extras }
      : {
          name: tool.name,
          description: wrappedCustomToolDescription(tool),
          input_schema: wrappedCustomToolSchema() as MessagesTool['input_schema'],
          ...tool.extras,
        },
  );
  const search = serverWebSearchTool(request);
  if (search) tools.push(search as unknown as MessagesTool);
  const last = cacheLastTool ? tools.at(-1) : undefined;
  if (last) last.cache_control = EPHEMERAL;
  return tools;
}

/** Claude Code's effort levels: rig's and Codex's names folded onto low / medium / high. */
function outputEffort(effort: string): string {
  if (effort === 'minimal' || effort === 'low') return 'low';
  if (effort === 'high' || effort === 'xhigh' || effort === 'max' || effort === 'ultra') return 'high';
  return effort;
}

export function buildMessagesBody(request: ModelRequest): Record<string, unknown> {
  const shape = request.wireShape ?? {};
  const cache = { system: true, lastMessage: true, lastTool: true, ...shape.cacheControl };
  const tools = lowerTools(request, cache.lastTool);
  const system = { type: 'text' as const, text: request.instructions, ...(cache.system ? { cache_control: EPHEMERAL } : {}) };
  const body: MessagesBody = {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    ...(request.instructions ? { system: [system] } : {}),
    messages: lowerMessages(request, cache.lastMessage),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && shape.toolChoice !== undefined && shape.toolChoice !== null ? { tool_choice: shape.toolChoice as MessagesBody['tool_choice'] } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    stream: true,
  };
  const out: Record<string, unknown> = { ...body, ...request.extraBody };
  // The configured effort wins over a profile's per-model default in extra_body.
  if (shape.effortInOutputConfig && request.reasoningEffort !== undefined && request.reasoningEffort !== 'none') {
    out['output_config'] = { ...(out['output_config'] as object | undefined), effort: outputEffort(request.reasoningEffort) };
  }
  return orderFields(out, shape.fieldOrder);
}

