// Tools about tools: tool search over deferred tools, tool_call dispatch, evidence notes. A tool of
// the original rig cannot run is declared `unavailable` and never bound (registry.ts omittedTools).
import { CapabilityOptionError, type HarnessProfile, type ResolvedTool } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { asArgs, fail, functionSpec, numberArg, ok, stringArg } from './common.js';

const LOADED_KEY = 'harness.loadedDeferredTools';

/** Names of deferred tools the model has loaded in this thread (the turn loop adds them to requests). */
export function loadedDeferredTools(threadState: Map<string, unknown>): Set<string> {
  let loaded = threadState.get(LOADED_KEY) as Set<string> | undefined;
  if (!loaded) {
    loaded = new Set();
    threadState.set(LOADED_KEY, loaded);
  }
  return loaded;
}

/** A tool that tool search can load besides the profile's deferred ones (a thread's MCP tools). */
export interface DeferredToolEntry {
  name: string;
  description?: string;
  parameters?: Record<string, unknown> | null;
}

const EXTRA_KEY = 'harness.extraDeferredTools';

/** Makes `list()` searchable by this thread's tool search (the list is read on every search). */
export function setExtraDeferredTools(threadState: Map<string, unknown>, list: () => DeferredToolEntry[]): void {
  threadState.set(EXTRA_KEY, list);
}

function extraDeferredTools(threadState: Map<string, unknown>): DeferredToolEntry[] {
  const list = threadState.get(EXTRA_KEY) as (() => DeferredToolEntry[]) | undefined;
  return list ? list() : [];
}

const CALLABLE_KEY = 'harness.extraCallableTools';

/** Lets tool_call reach tools that are not the profile's own (a thread's MCP tools, in Qwen Code). */
export function setExtraCallableTools(threadState: Map<string, unknown>, lookup: (name: string) => ToolSpec | undefined): void {
  threadState.set(CALLABLE_KEY, lookup);
}

function extraCallableTool(threadState: Map<string, unknown>, name: string): ToolSpec | undefined {
  const lookup = threadState.get(CALLABLE_KEY) as ((name: string) => ToolSpec | undefined) | undefined;
  return lookup?.(name);
}

function describeTool(tool: DeferredToolEntry): string {
  return JSON.stringify({ name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} });
}

/**
 * tool.search: `select:A,B` loads those deferred tools; other text ranks deferred tools by how many
 * query words their name and description contain. Loaded tools are returned with their schemas.
 */
export function createToolSearchTool(tool: ResolvedTool, profile: HarnessProfile): ToolSpec {
  const fromProfile: DeferredToolEntry[] = profile.tools.filter((entry) => entry.exposure === 'deferred');
  return functionSpec(
    tool,
    { description: 'Search and load deferred tools.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, parallelSafe: true },
    async (args, ctx) => {
      const query = (stringArg(args, 'query') ?? '').trim();
      const max = Math.max(Math.trunc(numberArg(args, 'max_results') ?? 5), 1);
      if (query === '') return fail('query must not be empty');
      const searchable = [...fromProfile, ...extraDeferredTools(ctx.threadState)];
      let found: DeferredToolEntry[];
      if (query.startsWith('select:')) {
        const wanted = query.slice('select:'.length).split(',').map((name) => name.trim()).filter(Boolean);
        const missing = wanted.filter((name) => !searchable.some((entry) => entry.name === name));
        if (missing.length > 0) return fail(`No deferred tool named ${missing.join(', ')}. Deferred tools: ${searchable.map((t) => t.name).join(', ') || '(none)'}`);
        found = searchable.filter((entry) => wanted.includes(entry.name));
      } else {
        const words = query.toLowerCase().split(/\s+/);
        found = searchable
          .map((entry) => {
            const text = `${entry.name} ${entry.description ?? ''}`.toLowerCase();
            return { entry, score: words.filter((word) => text.includes(word)).length };
          })
          .filter((ranked) => ranked.score > 0)
          .sort((a, b) => b.score - a.score)
          .slice(0, max)
          .map((ranked) => ranked.entry);
      }
      if (found.length === 0) return ok('No matching deferred tools.');
      const loaded = loadedDeferredTools(ctx.threadState);
      for (const entry of found) loaded.add(entry.name);
      return ok(`Loaded ${found.length} tool(s); they can be called now:\n${found.map(describeTool).join('\n')}`);
    },
  );
}

/** tool.call: call a deferred tool by name (Qwen Code's tool_call). `lookup` finds its bound spec. */
export function createToolCallTool(tool: ResolvedTool, lookup: (name: string) => ToolSpec | undefined): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Call a tool by name.', parameters: { type: 'object', properties: { name: { type: 'string' }, arguments: { type: 'object' } }, required: ['name', 'arguments'] }, parallelSafe: false },
    async (args, ctx) => {
      const name = stringArg(args, 'name') ?? '';
      const target = name === tool.name ? undefined : (lookup(name) ?? extraCallableTool(ctx.threadState, name));
      if (!target) return fail(`Unknown tool "${name}". Use tool_search to find tools.`);
      return target.handle(asArgs(args['arguments']), ctx);
    },
  );
}

/** notes.evidence: little-coder's evidence notebook, per thread. */
export function createEvidenceTool(tool: ResolvedTool): ToolSpec {
  const action = tool.options['action'];
  if (action !== 'add' && action !== 'get' && action !== 'list') {
    throw new CapabilityOptionError('options.action', 'must be "add", "get" or "list"');
  }
  return functionSpec(
    tool,
    { description: 'Evidence notebook.', parameters: { type: 'object', properties: {} }, parallelSafe: false },
    async (args, ctx) => {
      const key = 'harness.evidence';
      const notes = (ctx.threadState.get(key) as Record<string, string>[] | undefined) ?? [];
      ctx.threadState.set(key, notes);
      if (action === 'add') {
        const entry = { id: `E${notes.length + 1}`, source: stringArg(args, 'source') ?? '', note: stringArg(args, 'note') ?? '', snippet: stringArg(args, 'snippet') ?? '' };
        notes.push(entry);
        return ok(`Recorded evidence ${entry.id}.`);
      }
      if (action === 'get') {
        const entry = notes.find((note) => note['id'] === stringArg(args, 'id'));
        return entry ? ok(JSON.stringify(entry)) : fail(`No evidence with id ${stringArg(args, 'id')}.`);
      }
      return ok(notes.length === 0 ? 'No evidence recorded yet.' : notes.map((note) => `${note['id']}: ${note['note']} (${note['source']})`).join('\n'));
    },
  );
}
