// What a model client streams, whatever the wire. Exactly one terminal event (`completed` or
// `error`) ends every stream.
import type { ConversationItem } from './conversation.js';
import type { TokenUsage } from './usage.js';

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'content_filter' | 'other';

export type ModelErrorKind =
  | 'auth' // missing or rejected key
  | 'bad_request' // 4xx not retried
  | 'context_length' // the request did not fit: compaction may help
  | 'quota'
  | 'rate_limit' // retries exhausted
  | 'server' // 5xx, retries exhausted
  | 'connection' // could not connect, retries exhausted
  | 'stream' // stream cut / idle / malformed, retries exhausted
  | 'aborted';

export interface ModelError {
  kind: ModelErrorKind;
  /** One line for users: what went wrong and what to do. */
  message: string;
  status?: number;
}

export type ModelEvent =
  | { type: 'created'; response_id?: string }
  | { type: 'text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string; summary: boolean }
  | { type: 'tool_call_started'; call_id: string; name: string; kind: 'function' | 'custom' }
  | { type: 'tool_call_delta'; call_id: string; delta: string }
  /** A completed output item (message, reasoning, function_call, custom_tool_call); authoritative. */
  | { type: 'item_done'; item: ConversationItem }
  /**
   * The previous attempt broke and is being retried: everything streamed since the last `created`
   * must be discarded.
   */
  | { type: 'retry'; attempt: number; max_attempts: number; delay_ms: number; reason: string }
  | { type: 'completed'; stop_reason: StopReason; usage?: TokenUsage; response_id?: string }
  | { type: 'error'; error: ModelError };
