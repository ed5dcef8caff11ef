// web.fetch: every harness's fetch tool (Claude Code and zcode `WebFetch`, opencode and
// little-coder `webfetch`, Kimi `FetchURL`, DeepSeek `fetch_url`) over the orchestrator's network
// runtime, so the sandbox's network setting and the approval policy decide whether rig may fetch
// (tools/orchestrator/network.ts). The page comes back as readable text: Markdown for HTML,
// unless the call asks for the HTML itself (opencode's and DeepSeek's `format: "html"`).
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { fail, functionSpec, numberArg, ok, stringArg } from './common.js';

const DEFAULT_MAX_CHARS = 100_000;

export function createWebFetchTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Fetch a URL and return its content as readable text (HTML converted to Markdown).',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'The absolute http(s) URL' } }, required: ['url'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const url = stringArg(args, 'url');
      if (url === undefined || url.trim() === '') return fail(`${tool.name}: give the url to fetch (an absolute http:// or https:// URL)`);
      if (!ctx.caps.fetchUrl) return fail(`${tool.name}: fetching is not available in this session`);
      const timeout = numberArg(args, 'timeout_ms') ?? (numberArg(args, 'timeout') !== undefined ? numberArg(args, 'timeout')! * 1000 : undefined);
      const maxBytes = numberArg(args, 'max_bytes');
      const outcome = await ctx.caps.fetchUrl({
        url: url.trim(),
        maxChars: maxBytes !== undefined ? Math.max(1, Math.trunc(maxBytes)) : DEFAULT_MAX_CHARS,
        ...(stringArg(args, 'format') === 'html' ? { raw: true } : {}),
        ...(timeout !== undefined && timeout > 0 ? { timeoutMs: Math.trunc(timeout) } : {}),
      });
      if (!outcome.ok) return fail(outcome.message);
      const page = outcome.page;
      const head = [`URL: ${page.url}`, ...(page.title ? [`Title: ${page.title}`] : []), `Content-Type: ${page.contentType}`];
      const prompt = stringArg(args, 'prompt');
      // Claude Code's WebFetch runs the prompt on a small model; rig hands the page and the prompt to the model itself.
      const ask = prompt ? [`Apply this to the page below: ${prompt}`] : [];
      const tail = page.truncated ? ['', `[content truncated: ${page.bytes} bytes read; fetch a more specific URL for the rest]`] : [];
      return ok([...head, ...ask, '', page.content, ...tail].join('\n'));
    },
  );
}
