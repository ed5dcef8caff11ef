// fs.glob / fs.ls / fs.file_search: finding files by name, in-process, with each original's
// sorting, path form and result cap.
import { readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { boolArg, fail, functionSpec, numberArg, ok, resolvePath, stringArg, styleOption } from './common.js';
import { byMtime, byName, listPaths } from './walk.js';

const STYLES = ['claude', 'zcode', 'kimi', 'kimi-cli', 'opencode', 'qwen', 'little-coder'] as const;
type Style = (typeof STYLES)[number];

const TRUNCATED = '(Results are truncated. Consider using a more specific path or pattern.)';

function rootOf(style: Style, args: Record<string, unknown>, ctx: ToolContext): string | ToolResult {
  const given = stringArg(args, style === 'kimi-cli' ? 'directory' : 'path');
  const root = given ? resolvePath(ctx, given) : ctx.cwd;
  try {
    if (!statSync(root).isDirectory()) return fail(`${given} is not a directory`);
  } catch {
    return fail(style === 'kimi' || style === 'kimi-cli' ? `\`${given}\` does not exist.` : `Directory not found: ${given}`);
  }
  return root;
}

async function globTool(style: Style, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  let pattern = stringArg(args, 'pattern');
  if (!pattern) return fail('Glob failed: missing pattern');
  let root = rootOf(style, args, ctx);
  if (typeof root !== 'string') return root;
  if (isAbsolute(pattern)) {
    // An absolute pattern searches from its fixed leading directories.
    const parts = pattern.split('/');
    const firstDynamic = parts.findIndex((part) => /[*?[\]{}()!]/.test(part));
    const fixed = firstDynamic === -1 ? parts.length - 1 : firstDynamic;
    root = parts.slice(0, fixed).join('/') || '/';
    pattern = parts.slice(fixed).join('/');
  }
  // Kimi Code documents include_dirs as ignored (files only); the legacy CLI defaults it to true.
  const includeDirs = style === 'kimi-cli' ? (boolArg(args, 'include_dirs') ?? true) : false;
  let found: string[];
  try {
    found = await listPaths({
      root,
      patterns: [pattern],
      includeDirs,
      includeIgnored: boolArg(args, 'include_ignored') === true,
      signal: ctx.signal,
    });
  } catch (error) {
    return searchFailed('Glob', error, root);
  }
  switch (style) {
    case 'claude':
    case 'zcode':
    case 'opencode': {
      if (found.length === 0) return ok('No files found');
      const sorted = await byMtime(found, style === 'opencode' ? 'newest-first' : 'oldest-first');
      const shown = sorted.slice(0, 100);
      return ok(shown.join('\n') + (sorted.length > shown.length ? `\n\n${TRUNCATED}` : ''));
    }
    case 'qwen': {
      if (found.length === 0) return ok(`No files found matching pattern "${pattern}" within ${root}`);
      const sorted = await byMtime(found, 'newest-first');
      return ok(`Found ${sorted.length} file(s) matching "${pattern}" within ${root}, sorted by modification time (newest first):\n${sorted.join('\n')}`);
    }
    case 'little-coder': {
      const sorted = byName(found).map((path) => relative(root, path));
      if (sorted.length === 0) return ok('No files found');
      return ok(sorted.slice(0, 500).join('\n') + (sorted.length > 500 ? `\n\n${TRUNCATED}` : ''));
    }
    case 'kimi':
    case 'kimi-cli': {
      const sorted = byName(found).map((path) => relative(root, path));
      if (sorted.length === 0) return ok(`<system>No matches found for pattern \`${pattern}\`.</system>`);
      let message = `Found ${sorted.length} matches for pattern \`${pattern}\`.`;
      if (sorted.length > 1000) message += ' Only the first 1000 matches are returned. You may want to use a more specific pattern.';
      return ok(`${sorted.slice(0, 1000).join('\n')}\n<system>${message}</system>`);
    }
  }
}

/** A listing that timed out or was interrupted, as a failed result that says what to do. */
async function searchFailed(tool: string, error: unknown, root: string): Promise<ToolResult> {
  const { SearchError } = await import('../search/types.js');
  if (!(error instanceof SearchError)) throw error;
  if (error.kind === 'aborted') return fail(`${tool} interrupted`);
  if (error.kind === 'timeout') return fail(`${tool} failed: ${error.message} listing ${root}; narrow the path or the pattern and try again.`);
  return fail(`${tool} failed: ${error.message}`);
}

export function createGlobTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'Find files by glob pattern.',
      parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] },
      parallelSafe: true,
    },
    (args, ctx) => globTool(style, args, ctx),
  );
}

/** fs.ls: a directory as JSON `[{name, is_dir}]` sorted by name (DeepSeek TUI list_dir). */
export function createListDirTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'List a directory.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const given = stringArg(args, 'path');
      const dir = given ? resolvePath(ctx, given) : ctx.cwd;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return fail(`list_dir failed: ${given ?? dir} does not exist`);
        if (code === 'ENOTDIR') return fail(`list_dir failed: ${given ?? dir} is not a directory`);
        return fail(`list_dir failed: ${(error as Error).message}`);
      }
      const list = entries
        .map((entry) => ({ name: entry.name, is_dir: entry.isDirectory() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return ok(JSON.stringify(list));
    },
  );
}

/** fs.file_search: paths containing the query (case-insensitive), as JSON `[{path, name}]`. */
export function createFileSearchTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Find files whose path contains the query.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const query = (stringArg(args, 'query') ?? '').toLowerCase();
      if (query === '') return fail('file_search failed: query is empty');
      const given = stringArg(args, 'path');
      const root = given ? resolvePath(ctx, given) : ctx.cwd;
      const limit = Math.max(Math.trunc(numberArg(args, 'limit') ?? 20), 1);
      const extensions = Array.isArray(args['extensions']) ? (args['extensions'] as unknown[]).map(String) : [];
      const exclude = Array.isArray(args['exclude']) ? (args['exclude'] as unknown[]).map(String) : [];
      let files: string[];
      try {
        files = byName(await listPaths({ root, signal: ctx.signal }));
      } catch (error) {
        return searchFailed('file_search', error, root);
      }
      const hits = files
        .map((path) => relative(root, path))
        .filter((rel) => rel.toLowerCase().includes(query))
        .filter((rel) => extensions.length === 0 || extensions.some((ext) => rel.endsWith(ext.startsWith('.') ? ext : `.${ext}`)))
        .filter((rel) => !exclude.some((part) => rel.includes(part)))
        .slice(0, limit)
        .map((rel) => ({ path: rel, name: basename(rel) }));
      return ok(JSON.stringify(hits));
    },
  );
}
