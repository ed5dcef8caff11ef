// Neutral conversation items: what the engine keeps as history and what wire adapters lower into
// each API's request. Shapes follow the Responses API items (reference/providers-and-streaming.md §2)
// with the extra fields other wires need to round-trip (Anthropic thinking signatures).

export type ContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' | 'original' }
  | { type: 'output_text'; text: string };

export type MessageRole = 'user' | 'assistant' | 'developer' | 'system';

export interface MessageItem {
  type: 'message';
  role: MessageRole;
  content: ContentPart[];
  /** Server-assigned id (Responses `msg_...`), kept only to echo it back where a wire wants it. */
  id?: string;
  /**
   * Anthropic's citations on this text block (web_search_result_location ...), kept to send the
   * block back as it came; other wires leave them out.
   */
  citations?: unknown[];
}

export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  /** Summary parts (Responses reasoning summaries). */
  summary: { type: 'summary_text'; text: string }[];
  /** Raw reasoning text (Chat `reasoning_content`, Anthropic `thinking`, Responses `reasoning_text`). */
  content?: { type: 'reasoning_text'; text: string }[];
  /** Responses encrypted reasoning, replayed because `store` is false. */
  encrypted_content?: string | null;
  /** Anthropic thinking block signature; required to send the thinking back. */
  signature?: string;
  /** Anthropic `redacted_thinking` block data. */
  redacted_data?: string;
}

export interface FunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  /** JSON text exactly as the model produced it (may be malformed). */
  arguments: string;
  id?: string;
}

export type ToolOutput = string | ContentPart[];

export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: ToolOutput;
  /** Not sent on the Responses wire; Anthropic renders it as `is_error`. */
  is_error?: boolean;
}

export interface CustomToolCallItem {
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  input: string;
  id?: string;
}

export interface CustomToolCallOutputItem {
  type: 'custom_tool_call_output';
  call_id: string;
  output: ToolOutput;
  is_error?: boolean;
}

/**
 * What the provider's own search did (Responses `web_search_call`, Anthropic's `server_tool_use` +
 * `web_search_tool_result`), kept to be sent back.
 */
export type WebSearchAction =
  | { type: 'search'; query?: string; queries?: string[] }
  | { type: 'open_page'; url?: string }
  | { type: 'find_in_page'; url?: string; pattern?: string }
  | { type: 'other' };

export interface WebSearchCallItem {
  type: 'web_search_call';
  id?: string;
  status: string;
  action?: WebSearchAction;
  /** The pages the search found, where the wire reports them (Anthropic). */
  results?: WebSearchHit[];
  /** Why the search failed, as the wire says it (Anthropic's error_code, e.g. `max_uses_exceeded`). */
  error?: string;
  /**
   * The wire's own blocks, sent back unchanged on that wire: Anthropic requires its search blocks
   * (with their encrypted_content) verbatim in later requests. Other wires render the search as text.
   */
  raw?: { wire: 'messages'; blocks: unknown[] };
}

export interface WebSearchHit {
  title: string;
  url: string;
  /** How old the page is, as the provider words it ("2 days ago"). */
  page_age?: string;
}

export type ConversationItem =
  | MessageItem
  | ReasoningItem
  | FunctionCallItem
  | FunctionCallOutputItem
  | CustomToolCallItem
  | CustomToolCallOutputItem
  | WebSearchCallItem;

export function userText(text: string): MessageItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

export function assistantText(text: string): MessageItem {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
}

/** The plain text of a message's content parts. */
export function messageText(item: MessageItem): string {
  return item.content
    .map((part) => (part.type === 'input_image' ? '' : part.text))
    .join('');
}
