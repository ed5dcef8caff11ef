// Anthropic's server web search on the Messages wire: the `web_search_20250305` tool in the request,
// and the `server_tool_use` + `web_search_tool_result` blocks it streams. The API runs the search
// itself inside one response; the blocks (their encrypted_content above all) must come back
// unchanged in later requests, so the neutral WebSearchCallItem keeps them whole in `raw`.
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ConversationItem, ModelRequest, WebSearchCallItem, WebSearchHit } from './shared-types.js';

/** The versioned type of the server tool rig sends (the one Claude Code's WebSearch uses). */
export const SERVER_WEB_SEARCH_TYPE = 'web_search_20250305';

type Block = Record<string, unknown>;

/** The server tool for the request's hosted search; undefined when the request has none. */
export function serverWebSearchTool(request: ModelRequest): Block | undefined {
  const hosted = request.hostedWebSearch;
  if (!hosted) return undefined;
  return {
    type: SERVER_WEB_SEARCH_TYPE,
    name: 'web_search',
    ...(hosted.maxUses !== undefined ? { max_uses: hosted.maxUses } : {}),
    ...(hosted.allowedDomains?.length ? { allowed_domains: hosted.allowedDomains } : {}),
    ...(hosted.blockedDomains?.length ? { blocked_domains: hosted.blockedDomains } : {}),
    ...(hosted.userLocation ? { user_location: { type: 'approximate', ...hosted.userLocation } } : {}),
  };
}

/** A search's blocks for the next request: copies, so cache breakpoints never touch the history. */
export function replayedSearchBlocks(item: WebSearchCallItem): ContentBlockParam[] {
  if (item.raw?.wire !== 'messages') return [];
  return structuredClone(item.raw.blocks) as ContentBlockParam[];
}

/** An assistant text block with the citations it came with. */
export function citedTextBlock(text: string, citations: unknown[]): ContentBlockParam {
  return { type: 'text', text, citations } as ContentBlockParam;
}

// ---- stream parsing ------------------------------------------------------------------------

/** A server_tool_use block for web_search, its input streaming as JSON. */
export interface OpenSearchUse {
  type: 'server_tool_use';
  start: Block;
  json: string;
}

/** The searches of one response: each use waits for the result block that answers it. */
export class SearchBlocks {
  private readonly uses = new Map<string, Block>();

  /** The use block as it will be sent back: its start fields with the input it streamed. */
  closeUse(open: OpenSearchUse): void {
    let input: unknown = open.start['input'] ?? {};
    if (open.json) {
      try {
        input = JSON.parse(open.json);
      } catch {
        // a cut input: keep what the start block said; the result block carries the outcome
      }
    }
    this.uses.set(String(open.start['id']), { ...open.start, input });
  }

  /** The result block closes its search: one neutral item holding both blocks. */
  closeResult(result: Block): ConversationItem {
    const id = String(result['tool_use_id'] ?? '');
    const use = this.uses.get(id);
    this.uses.delete(id);
    return searchItem(id, use, result);
  }

  /**
   * Uses the stream ended without answering (a paused turn): shown, but not sent back, since a
   * use without its result is not a valid assistant turn.
   */
  unanswered(): ConversationItem[] {
    const items = [...this.uses].map(([id, use]) => {
      const item = searchItem(id, use, undefined);
      delete item.raw;
      return item;
    });
    this.uses.clear();
    return items;
  }
}

function searchItem(id: string, use: Block | undefined, result: Block | undefined): WebSearchCallItem {
  const input = use?.['input'] as { query?: unknown } | undefined;
  const query = typeof input?.query === 'string' ? input.query : undefined;
  const content = result?.['content'];
  const error = content && !Array.isArray(content) && typeof (content as Block)['error_code'] === 'string' ? String((content as Block)['error_code']) : undefined;
  const results = Array.isArray(content) ? content.flatMap(hitOf) : undefined;
  return {
    type: 'web_search_call',
    id,
    status: !result ? 'incomplete' : error ? 'failed' : 'completed',
    action: { type: 'search', ...(query !== undefined ? { query } : {}) },
    ...(results ? { results } : {}),
    ...(error ? { error } : {}),
    raw: { wire: 'messages', blocks: [use, result].filter((block): block is Block => block !== undefined) },
  };
}

function hitOf(entry: unknown): WebSearchHit[] {
  const block = entry as Block | null;
  if (!block || block['type'] !== 'web_search_result' || typeof block['url'] !== 'string') return [];
  const title = typeof block['title'] === 'string' ? block['title'] : block['url'];
  const age = typeof block['page_age'] === 'string' ? { page_age: block['page_age'] } : {};
  return [{ title, url: block['url'], ...age }];
}

/** Anthropic's count of the searches it ran (usage.server_tool_use.web_search_requests). */
export function webSearchRequests(usage: unknown): number | undefined {
  const server = (usage as { server_tool_use?: { web_search_requests?: unknown } } | null | undefined)?.server_tool_use;
  return typeof server?.web_search_requests === 'number' ? server.web_search_requests : undefined;
}
