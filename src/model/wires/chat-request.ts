// Chat Completions requests: the history folded into messages (chat.ts has the stream side).
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions/completions';
import type { ContentPart, ModelRequest, ToolOutput } from './shared-types.js';
import type { WireShape } from '../types.js';
import type { ResolvedCompat } from '../compat.js';
import { compatOrDefault, orderFields, toolOutputText, wrappedCustomToolDescription, wrappedCustomToolSchema, webSearchText } from './shared.js';
import { rememberFold, resumeFold } from './history-memo.js';

// ---- request types -------------------------------------------------------------------------

type ChatBody = ChatCompletionCreateParamsStreaming & Record<string, unknown>;
/** Assistant message with the reasoning field DeepSeek/Kimi/Qwen want echoed back. */
type ChatMessage = ChatCompletionMessageParam & { reasoning_content?: string };

// ---- request lowering ----------------------------------------------------------------------

function userContent(parts: ContentPart[], form: WireShape['userContent']): ChatCompletionMessageParam['content'] {
  if (!parts.some((p) => p.type === 'input_image')) {
    if (form !== 'parts') return partsText(parts);
    return parts.flatMap((p) => (p.type === 'input_image' ? [] : [{ type: 'text' as const, text: p.text }]));
  }
  return parts.map((p) =>
    p.type === 'input_image'
      ? { type: 'image_url' as const, image_url: { url: p.image_url, ...(p.detail === 'low' || p.detail === 'high' ? { detail: p.detail } : {}) } }
      : { type: 'text' as const, text: p.text },
  );
}

function partsText(parts: ContentPart[]): string {
  return parts.map((p) => (p.type === 'input_image' ? '' : p.text)).join('');
}

/** The role a non-assistant message goes out as, after the provider's quirk flags. */
function messageRole(role: 'user' | 'system' | 'developer', first: boolean, compat: ResolvedCompat): 'user' | 'system' | 'developer' {
  const mapped = role === 'developer' ? compat.developer_role : role;
  // Many compatible servers reject a system/developer message after the first one (Qwen/vLLM
  // templates raise); as in Codex's DeepSeek fix-up, later ones go as user where the flag says so.
  if (mapped !== 'user' && !first && compat.later_system_as_user) return 'user';
  return mapped;
}

/**
 * A tool result as Chat Completions takes it: tool messages carry text only, so each image is named
 * in the text and itself moved to `images`, which go out in a user message after the tool results
 * (as the agents that speak this wire do: the model sees the image, told which call it came from).
 */
function chatToolOutput(callId: string, output: ToolOutput, images: ContentPart[]): string {
  if (typeof output === 'string' || !output.some((part) => part.type === 'input_image')) return toolOutputText(output);
  const count = output.filter((part) => part.type === 'input_image').length;
  images.push({ type: 'input_text', text: `${count === 1 ? 'The image' : `The ${count} images`} returned by tool call ${callId}:` });
  return output
    .map((part) => {
      if (part.type !== 'input_image') return part.text;
      images.push(part);
      return '[image: sent in the next user message]';
    })
    .join('\n');
}

/**
 * Consecutive assistant-side items (reasoning, text, tool calls) form one assistant message. The
 * fold resumes where the thread's last request left it settled (history-memo.ts).
 */
function lowerMessages(request: ModelRequest, compat: ResolvedCompat): ChatMessage[] {
  const shape = request.wireShape ?? {};
  const input = request.input;
  // Everything the fold below reads besides the items themselves.
  const settings = ['chat', request.instructions, shape.userContent, compat.developer_role, compat.later_system_as_user, compat.reasoning_content];
  const resumed = resumeFold<ChatMessage>(input, settings);
  const messages = resumed.messages;
  if (resumed.reused === 0 && request.instructions) messages.push({ role: 'system', content: request.instructions });
  // After how many items, and with how many messages, nothing was left open.
  let settledItems = resumed.from;
  let settledMessages = messages.length;
  let assistant: { content: string; reasoning: string } | undefined;
  const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  const flush = (): void => {
    if (!assistant) return;
    const msg: ChatMessage = {
      role: 'assistant',
      content: assistant.content === '' && calls.length ? null : assistant.content,
      ...(calls.length ? { tool_calls: calls.splice(0) } : {}),
      ...(assistant.reasoning && compat.reasoning_content ? { reasoning_content: assistant.reasoning } : {}),
    };
    messages.push(msg);
    assistant = undefined;
  };
  const open = (): NonNullable<typeof assistant> => (assistant ??= { content: '', reasoning: '' });
  // Images of tool results wait for the end of the run of tool messages (nothing may come between
  // an assistant's tool calls and their results), then follow as one user message.
  const toolImages: ContentPart[] = [];
  const flushToolImages = (): void => {
    if (toolImages.length === 0) return;
    messages.push({ role: 'user', content: userContent(toolImages.splice(0), 'parts') } as ChatMessage);
  };
  for (let index = resumed.from; index < input.length; index++) {
    const item = input[index]!;
    if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') flushToolImages();
    switch (item.type) {
      case 'message':
        if (item.role === 'assistant') {
          open().content += partsText(item.content);
        } else {
          flush();
          const role = messageRole(item.role, messages.length === 0, compat);
          messages.push(
            (role === 'user'
              ? { role, content: userContent(item.content, shape.userContent) }
              : { role, content: partsText(item.content) }) as ChatMessage,
          );
        }
        break;
      case 'reasoning': {
        const text = (item.content?.length ? item.content : item.summary).map((c) => c.text).join('');
        if (text) open().reasoning += text;
        break;
      }
      case 'function_call':
        open();
        calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
        break;
      case 'custom_tool_call':
        open();
        calls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: JSON.stringify({ input: item.input }) } });
        break;
      case 'web_search_call':
        // The Responses API's own search has nothing Chat Completions can replay; Anthropic's
        // reports what it found, which goes back as assistant text.
        if (item.raw) {
          const turn = open();
          const gap = turn.content && !turn.content.endsWith('\n\n') ? '\n\n' : '';
          turn.content += `${gap}${webSearchText(item)}\n\n`;
        }
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        flush();
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: chatToolOutput(item.call_id, item.output, toolImages) });
        break;
    }
    if (assistant === undefined && calls.length === 0 && toolImages.length === 0) {
      settledItems = index + 1;
      settledMessages = messages.length;
    }
  }
  rememberFold(input, settings, settledItems, messages, settledMessages, resumed.reused);
  flush();
  flushToolImages();
  return messages;
}

function lowerTools(request: ModelRequest): ChatCompletionTool[] {
  const bare = new Set(request.wireShape?.toolsWithoutParameters ?? []);
  return request.tools.map((tool) => ({
    type: 'function' as const,
    function:
      tool.kind === 'function'
        ? {
            name: tool.name,
            description: tool.description,
            // A tool the original sends without a parameters object (Qwen Code's get_goal on chat).
            ...(bare.has(tool.name) ? {} : { parameters: tool.parameters }),
            ...(tool.strict ? { strict: true } : {}),
            ...tool.extras,
          }
        : { name: tool.name, description: wrappedCustomToolDescription(tool), parameters: wrappedCustomToolSchema(), ...tool.extras },
  }));
}

export function buildChatBody(request: ModelRequest, flags?: ResolvedCompat): Record<string, unknown> {
  const compat = compatOrDefault('chat', flags);
  const shape = request.wireShape ?? {};
  const hasTools = request.tools.length > 0;
  const toolChoice = shape.toolChoice === undefined ? 'auto' : shape.toolChoice;
  const maxTokensField = compat.max_tokens_field ?? shape.maxTokensField ?? 'max_tokens';
  const body: ChatBody = {
    model: request.model,
    messages: lowerMessages(request, compat),
    ...(hasTools ? { tools: lowerTools(request) } : {}),
    ...(hasTools && toolChoice !== null ? { tool_choice: toolChoice as ChatBody['tool_choice'] } : {}),
    ...(hasTools && request.parallelToolCalls !== undefined && !shape.omitParallelToolCalls ? { parallel_tool_calls: request.parallelToolCalls } : {}),
    stream: true,
    ...(compat.stream_usage && shape.streamUsage !== false ? { stream_options: { include_usage: true } } : {}),
    ...(shape.store === true && compat.store ? { store: false } : {}),
    ...(request.maxOutputTokens !== undefined ? { [maxTokensField]: request.maxOutputTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.reasoningEffort !== undefined ? { reasoning_effort: request.reasoningEffort as ChatBody['reasoning_effort'] } : {}),
    ...(request.outputSchema
      ? { response_format: { type: 'json_schema' as const, json_schema: { name: 'codex_output_schema', schema: request.outputSchema, strict: true } } }
      : {}),
  };
  return orderFields({ ...body, ...request.extraBody }, shape.fieldOrder);
}

