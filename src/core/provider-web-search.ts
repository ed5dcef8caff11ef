// Web search through the provider's own search as a side request, the way Claude Code runs its
// WebSearch tool: one extra Messages request to the thread's model with only Anthropic's server
// search tool, whose searches and text become the tool's result. Used when the wire is Messages,
// web_search asks for the provider's search, and no [web_search] backend is configured.
//
// The request goes to the model provider, not from the sandbox: like the hosted search tools, it
// is not subject to the sandbox's network setting (the provider runs the search).
import { userText, type WebSearchCallItem } from '../protocol/index.js';
import type { HostedWebSearch, ModelClient, ModelRequest } from '../model/types.js';
import type { SearchAnswerPart, SearchOptions, SearchOutcome } from '../tools/spec.js';
import type { SearchResult } from '../web/index.js';

/** Searches one side request may run (Claude Code's WebSearch allows the same number). */
export const SIDE_SEARCH_MAX_USES = 8;

const INSTRUCTIONS =
  'You run web searches on behalf of a coding agent. Use the web_search tool for the query you are given, ' +
  'then report briefly what the results say that answers it. Do not answer from memory.';

export type SideSearch = (query: string, options: SearchOptions, signal: AbortSignal) => Promise<SearchOutcome>;

export function createSideSearch(client: ModelClient, model: string, settings: Omit<HostedWebSearch, 'externalWebAccess'>): SideSearch {
  return async (query, options, signal) => {
    const domains = options.allowedDomains?.length
      ? { allowedDomains: options.allowedDomains }
      : options.blockedDomains?.length
        ? { blockedDomains: options.blockedDomains }
        : { ...(settings.allowedDomains ? { allowedDomains: settings.allowedDomains } : {}), ...(settings.blockedDomains ? { blockedDomains: settings.blockedDomains } : {}) };
    const request: ModelRequest = {
      model,
      instructions: INSTRUCTIONS,
      input: [userText(`Search the web for: ${query}`)],
      tools: [],
      hostedWebSearch: {
        externalWebAccess: true,
        maxUses: settings.maxUses ?? SIDE_SEARCH_MAX_USES,
        ...domains,
        ...(settings.userLocation ? { userLocation: settings.userLocation } : {}),
      },
    };
    const answer: SearchAnswerPart[] = [];
    const results: SearchResult[] = [];
    for await (const event of client.stream(request, signal)) {
      if (event.type === 'error') return { ok: false, message: `web search failed: the provider's search request failed: ${event.error.message}` };
      if (event.type !== 'item_done') continue;
      const item = event.item;
      if (item.type === 'web_search_call') {
        answer.push(searchPart(item));
        for (const hit of item.results ?? []) results.push({ title: hit.title, url: hit.url, snippet: '' });
      } else if (item.type === 'message' && item.role === 'assistant') {
        const text = item.content.map((part) => (part.type === 'input_image' ? '' : part.text)).join('').trim();
        if (text) answer.push({ text });
      }
    }
    return { ok: true, results, answer };
  };
}

function searchPart(item: WebSearchCallItem): SearchAnswerPart {
  if (item.error) return { error: item.error };
  return { links: (item.results ?? []).map((hit) => ({ title: hit.title, url: hit.url })) };
}
