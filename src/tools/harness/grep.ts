// fs.grep: content search for every harness (Grep, grep, grep_search, grep_files) through the
// search backend (src/tools/search: ripgrep, else an in-process search in a worker thread).
// Every option the schemas advertise is honoured: context lines, case folding, type and glob
// filters, output modes, head limit and offset, multiline. Output follows each original; rg's
// results are re-sorted and re-shaped here, so the format does not depend on the backend.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import type { ResolvedTool } from '../../harness/profile.js';
import { type FileHits, type GrepNeed, type GrepQuery, MAX_RESULT_LINES } from '../search/types.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { type Args, boolArg, displayPath, fail, functionSpec, numberArg, ok, resolvePath, stringArg, styleOption } from './common.js';
import { FILE_TYPES, byMtime } from './walk.js';

const STYLES = ['claude', 'zcode', 'kimi', 'kimi-cli', 'qwen', 'opencode', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

interface Request {
  query: GrepQuery;
  mode: 'content' | 'files_with_matches' | 'count';
  lineNumbers: boolean;
  headLimit: number;
  offset: number;
}

function parseRequest(style: Style, args: Args, ctx: ToolContext): Request | string {
  const pattern = stringArg(args, 'pattern');
  if (!pattern) return 'Grep failed: missing pattern';
  const rootArg = stringArg(args, 'path');
  const root = rootArg && rootArg !== '.' ? resolvePath(ctx, rootArg) : ctx.cwd;
  const context = numberArg(args, '-C', 'context', 'context_lines') ?? 0;
  const globArg = style === 'opencode' ? stringArg(args, 'include') : stringArg(args, 'glob');
  const includes = Array.isArray(args['include']) ? (args['include'] as unknown[]).map(String) : [];
  const excludes = Array.isArray(args['exclude']) ? (args['exclude'] as unknown[]).map(String) : [];
  const modeArg = stringArg(args, 'output_mode');
  const defaultMode = style === 'qwen' || style === 'opencode' || style === 'deepseek' ? 'content' : 'files_with_matches';
  const mode = modeArg === 'count' || modeArg === 'count_matches' ? 'count' : modeArg === 'content' ? 'content' : modeArg === 'files_with_matches' ? 'files_with_matches' : defaultMode;
  const limitDefault = style === 'claude' || style === 'zcode' || style === 'kimi' ? 250 : style === 'opencode' ? 100 : 0;
  const headLimit = Math.trunc(numberArg(args, 'head_limit', 'limit', 'max_results') ?? limitDefault);
  const query: GrepQuery = {
    pattern,
    root,
    globs: [...(globArg ? [globArg] : []), ...includes],
    excludes,
    ignoreCase: boolArg(args, '-i', 'case_insensitive') === true,
    multiline: boolArg(args, 'multiline') === true,
    before: Math.trunc(numberArg(args, '-B') ?? context),
    after: Math.trunc(numberArg(args, '-A') ?? context),
    includeIgnored: boolArg(args, 'include_ignored') === true,
  };
  const type = stringArg(args, 'type');
  if (type) query.extensions = FILE_TYPES[type.toLowerCase()] ?? [type];
  const lineNumbers = boolArg(args, '-n') ?? (style !== 'kimi-cli');
  return { query, mode, lineNumbers, headLimit, offset: Math.trunc(numberArg(args, 'offset') ?? 0) };
}

/** Applies offset and head limit to output entries (0 = unlimited), reporting truncation. */
function page<T>(entries: T[], request: Request): { shown: T[]; truncated: boolean } {
  const rest = entries.slice(request.offset);
  if (request.headLimit <= 0 || rest.length <= request.headLimit) return { shown: rest, truncated: false };
  return { shown: rest.slice(0, request.headLimit), truncated: true };
}

function rgLines(files: FileHits[], request: Request, show: (path: string) => string): string[] {
  const out: string[] = [];
  const grouped = request.query.before > 0 || request.query.after > 0;
  for (const file of files) {
    let previous = -1;
    for (const hit of file.lines) {
      if (grouped && previous !== -1 && hit.line > previous + 1) out.push('--');
      const sep = hit.match ? ':' : '-';
      out.push(`${show(file.path)}${sep}${request.lineNumbers ? `${hit.line}${sep}` : ''}${hit.text}`);
      previous = hit.line;
    }
  }
  return out;
}

/**
 * The context lines (not matches) within `span` lines before (negative) or after a hit. Lines are
 * in file order, so only the neighbours are looked at: a file matching on every line stays linear.
 */
function contextOf(lines: FileHits['lines'], index: number, span: number): string[] {
  const hit = lines[index]!;
  const out: string[] = [];
  if (span < 0) {
    for (let j = index - 1; j >= 0 && lines[j]!.line >= hit.line + span; j--) if (!lines[j]!.match) out.unshift(lines[j]!.text);
  } else {
    for (let j = index + 1; j < lines.length && lines[j]!.line <= hit.line + span; j++) if (!lines[j]!.match) out.push(lines[j]!.text);
  }
  return out;
}

async function render(style: Style, request: Request, files: FileHits[], searched: number, ctx: ToolContext): Promise<string> {
  const q = request.query;
  const rel = (path: string): string => displayPath(ctx, path);
  switch (style) {
    case 'qwen': {
      if (files.length === 0) return `No matches found for pattern "${q.pattern}" in path "${rel(q.root)}"${q.globs[0] ? ` (filter: "${q.globs[0]}")` : ''}.`;
      const all = files.flatMap((file) => file.lines.filter((hit) => hit.match).map((hit) => ({ file: file.path, hit })));
      const { shown, truncated } = page(all, request);
      const blocks: string[] = [];
      let current = '';
      for (const { file, hit } of shown) {
        if (file !== current) {
          blocks.push(`---\nFile: ${relative(q.root, file) || rel(file)}`);
          current = file;
        }
        blocks.push(`L${hit.line}: ${hit.text}`);
      }
      const head = `Found ${shown.length} match${shown.length === 1 ? '' : 'es'} for pattern "${q.pattern}" in path "${rel(q.root)}"${q.globs[0] ? ` (filter: "${q.globs[0]}")` : ''}${truncated ? ` (showing first ${shown.length} of ${all.length})` : ''}:`;
      return `${head}\n${blocks.join('\n')}\n---`;
    }
    case 'opencode': {
      if (files.length === 0) return 'No files found';
      const ordered = await byMtime(files.map((file) => file.path), 'newest-first');
      const byPath = new Map(files.map((file) => [file.path, file]));
      const all = ordered.flatMap((path) => (byPath.get(path)?.lines ?? []).filter((hit) => hit.match).map((hit) => ({ path, hit })));
      const { shown, truncated } = page(all, request);
      const out = [`Found ${all.length} matches`];
      let current = '';
      for (const { path, hit } of shown) {
        if (path !== current) {
          if (current !== '') out.push('');
          out.push(`${path}:`);
          current = path;
        }
        out.push(`  Line ${hit.line}: ${hit.text}`);
      }
      if (truncated) out.push('', '(Results are truncated. Consider using a more specific path or pattern.)');
      return out.join('\n');
    }
    case 'deepseek': {
      const matches = files.flatMap((file) =>
        file.lines.flatMap((hit, index) =>
          hit.match
            ? [{ file: rel(file.path), line_number: hit.line, line: hit.text, context_before: contextOf(file.lines, index, -q.before), context_after: contextOf(file.lines, index, q.after) }]
            : [],
        ),
      );
      const { shown, truncated } = page(matches, request);
      return JSON.stringify({ matches: shown, total_matches: matches.length, files_searched: searched, truncated });
    }
    default: {
      const absolute = style === 'claude' || style === 'zcode';
      const show = absolute ? (path: string): string => path : rel;
      let entries: string[];
      if (request.mode === 'files_with_matches') {
        const paths = style === 'claude' || style === 'zcode' ? await byMtime(files.map((f) => f.path), 'newest-first') : files.map((f) => f.path);
        entries = paths.map(show);
      } else if (request.mode === 'count') {
        entries = files.map((file) => `${show(file.path)}:${file.matches}`);
      } else {
        entries = rgLines(files, request, show);
      }
      const { shown, truncated } = page(entries, request);
      if (style === 'kimi-cli') {
        if (shown.length === 0) return 'No matches found';
        return shown.join('\n') + (truncated ? `\n... (results truncated to ${request.headLimit} lines)` : '');
      }
      const pagination = truncated || request.offset > 0 ? `\n\n[Showing results with pagination = limit: ${request.headLimit}, offset: ${request.offset}]` : '';
      if (request.mode === 'files_with_matches') {
        if (files.length === 0) return 'No files found';
        return `Found ${shown.length} file${shown.length === 1 ? '' : 's'}\n${shown.join('\n')}${pagination}`;
      }
      if (files.length === 0) return 'No matches found';
      if (request.mode === 'count') {
        const total = files.reduce((sum, file) => sum + file.matches, 0);
        return `${shown.join('\n')}\n\nFound ${total} total occurrence${total === 1 ? '' : 's'} across ${files.length} file${files.length === 1 ? '' : 's'}.${pagination}`;
      }
      return shown.join('\n') + pagination;
    }
  }
}

/** The least the renderer needs: file names and counts come from rg far faster than lines. */
function needOf(style: Style, request: Request): GrepNeed {
  if (style === 'qwen' || style === 'opencode' || style === 'deepseek') return 'lines';
  return request.mode === 'files_with_matches' ? 'files' : request.mode === 'count' ? 'counts' : 'lines';
}

function stoppedNote(): string {
  return `(The search stopped after ${MAX_RESULT_LINES} result lines; narrow the pattern, the path or the glob to see the rest.)`;
}

function searchFailure(kind: string, message: string, root: string): string {
  switch (kind) {
    case 'pattern':
      return `Invalid regular expression: ${message}`;
    case 'timeout':
      return `Grep failed: ${message} searching ${root}; narrow the path, the pattern or the glob and try again.`;
    case 'aborted':
      return 'Grep interrupted';
    default:
      return `Grep failed: ${message}`;
  }
}

export function createGrepTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'Search file contents with a regular expression.',
      parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] },
      parallelSafe: true,
    },
    async (args, ctx): Promise<ToolResult> => {
      const request = parseRequest(style, args, ctx);
      if (typeof request === 'string') return fail(request);
      try {
        statSync(request.query.root);
      } catch {
        return fail(`Path does not exist: ${request.query.root}`);
      }
      const { grepFiles, SearchError } = await import('../search/index.js');
      let result;
      try {
        result = await grepFiles(request.query, needOf(style, request), { signal: ctx.signal, stats: style === 'deepseek' });
      } catch (error) {
        if (!(error instanceof SearchError)) throw error;
        return fail(searchFailure(error.kind, error.message, request.query.root));
      }
      const text = await render(style, request, result.files, result.searched, ctx);
      return ok(result.truncated ? `${text}\n\n${stoppedNote()}` : text);
    },
  );
}
