// web.search: every harness's web search tool (Claude Code WebSearch, DeepSeek-TUI web_search,
// little-coder websearch, the native web_search) over the configured search backend
// ([web_search] provider = ...), whose request goes through the orchestrator like web_fetch (the
// sandbox's network setting and the approval policy decide); or, on the Messages wire without a
// backend, over a side request to the provider's own search (core/provider-web-search.ts). A
// session with neither leaves these tools out of its requests (session-harness: unavailable
// capabilities).
import type { ResolvedTool } from '../../harness/profile.js';
import type { SearchResult } from '../../web/index.js';
import { formatSearchResults } from '../../web/index.js';
import type { SearchAnswerPart, ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { type Args, fail, functionSpec, numberArg, ok, stringArg, styleOption } from './common.js';

const STYLES = ['plain', 'claude', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

/** The query, wherever the harness's schema puts it (DeepSeek accepts query, q or search_query[].q). */
function queryOf(args: Args): string | undefined {
  const direct = stringArg(args, 'query', 'q');
  if (direct !== undefined) return direct;
  const batch = args['search_query'];
  if (Array.isArray(batch) && batch.length > 0) {
    const first = batch[0] as Args;
    return stringArg(first ?? {}, 'q', 'query');
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** A host matches a domain when it is the domain or one of its subdomains. */
function inDomains(url: string, domains: readonly string[]): boolean {
  const host = hostOf(url);
  return domains.some((domain) => {
    const d = domain.toLowerCase().replace(/^\*?\./, '');
    return host === d || host.endsWith(`.${d}`);
  });
}

function domainList(args: Args, name: string): string[] {
  const value = args[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** Claude Code's result for its side request: the query, then each text and search in order. */
function renderClaudeAnswer(query: string, answer: SearchAnswerPart[]): string {
  const parts = answer.map((part) =>
    'text' in part
      ? part.text
      : 'error' in part
        ? `Web search error: ${part.error}`
        : part.links.length > 0
          ? `Links: ${JSON.stringify(part.links)}`
          : 'No links found.',
  );
  return [`Web search results for query: "${query}"`, ...parts, 'Cite the sources above in your answer, as markdown links.'].join('\n\n');
}

/** The provider's own words about its search, for the styles that list results first. */
function answerText(answer: SearchAnswerPart[] | undefined): string {
  return (answer ?? []).flatMap((part) => ('text' in part ? [part.text] : 'error' in part ? [`(search error: ${part.error})`] : [])).join('\n\n');
}

function render(style: Style, query: string, found: SearchResult[], answer?: SearchAnswerPart[]): string {
  if (answer && style === 'claude') return renderClaudeAnswer(query, answer);
  const said = answerText(answer);
  switch (style) {
    case 'claude': {
      // Claude Code's result: the query, the links as JSON, then what the pages say.
      const links = JSON.stringify(found.map((r) => ({ title: r.title, url: r.url })));
      const snippets = found.filter((r) => r.snippet).map((r) => `${r.title}: ${r.snippet}`);
      return [`Web search results for query: "${query}"`, '', `Links: ${links}`, ...(snippets.length > 0 ? ['', ...snippets] : [])].join('\n');
    }
    case 'deepseek':
      // DeepSeek-TUI answers with one JSON object.
      return JSON.stringify({
        query,
        source: 'rig',
        count: found.length,
        message: found.length === 0 ? 'No results found' : `Found ${found.length} result(s)`,
        results: found.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet || null })),
        ...(said ? { summary: said } : {}),
      });
    case 'plain':
      return said ? `${formatSearchResults(query, found)}\n\n${said}` : formatSearchResults(query, found);
  }
}

async function search(style: Style, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const query = queryOf(args)?.trim();
  if (!query) return fail('web search failed: the query is empty; pass the words to search for in "query"');
  if (!ctx.caps.webSearch) return fail('web search is not available in this session: no [web_search] backend is configured and the provider has no search of its own here');
  const allowed = domainList(args, 'allowed_domains');
  const blocked = domainList(args, 'blocked_domains');
  if (allowed.length > 0 && blocked.length > 0) return fail('web search failed: give allowed_domains or blocked_domains, not both');
  const maxResults = numberArg(args, 'max_results', 'numResults');
  const outcome = await ctx.caps.webSearch(query, {
    ...(maxResults !== undefined && maxResults > 0 ? { maxResults: Math.trunc(maxResults) } : {}),
    ...(allowed.length > 0 ? { allowedDomains: allowed } : {}),
    ...(blocked.length > 0 ? { blockedDomains: blocked } : {}),
  });
  if (!outcome.ok) return fail(outcome.message);
  // The backends take no domain filters in a common form: filter what came back.
  const found = outcome.results.filter((r) => (allowed.length === 0 || inDomains(r.url, allowed)) && !inDomains(r.url, blocked));
  return ok(render(style, query, found, outcome.answer));
}

export function createWebSearchTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'plain');
  return functionSpec(
    tool,
    {
      description: 'Search the web; results come back as titled links with a snippet.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      parallelSafe: true,
    },
    (args, ctx) => search(style, args, ctx),
  );
}
