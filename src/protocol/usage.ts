// Token usage as Codex reports it in `turn.completed` (cumulative per thread).
export interface TokenUsage {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  /** Searches the provider ran by itself (Anthropic's usage.server_tool_use.web_search_requests); absent when none. */
  web_search_requests?: number;
}

export function emptyUsage(): TokenUsage {
  return {
    input_tokens: 0,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
  };
}

export function addUsage(total: TokenUsage, more: TokenUsage): TokenUsage {
  return {
    input_tokens: total.input_tokens + more.input_tokens,
    cached_input_tokens: total.cached_input_tokens + more.cached_input_tokens,
    cache_write_input_tokens: total.cache_write_input_tokens + more.cache_write_input_tokens,
    output_tokens: total.output_tokens + more.output_tokens,
    reasoning_output_tokens: total.reasoning_output_tokens + more.reasoning_output_tokens,
    ...(total.web_search_requests || more.web_search_requests
      ? { web_search_requests: (total.web_search_requests ?? 0) + (more.web_search_requests ?? 0) }
      : {}),
  };
}
