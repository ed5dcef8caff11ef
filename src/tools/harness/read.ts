// fs.read: the Read tools of every emulated harness. One reader, with each original's argument
// names, line numbering, default and maximum line counts, footers and error texts as a style.
import { CapabilityOptionError, type ResolvedTool } from '../../harness/profile.js';
import type { ContentPart, ToolOutput } from '../../protocol/index.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import {
  type Args,
  boolArg,
  displayPath,
  fail,
  functionSpec,
  imageMimeType,
  numberArg,
  numberOption,
  ok,
  readTextFile,
  readWorkspaceFile,
  recordFileState,
  resolvePath,
  splitLines,
  stringArg,
  styleOption,
} from './common.js';
import { isNotebookPath, renderNotebook } from './notebook.js';
import { readOpencode } from './read-opencode.js';

const STYLES = ['claude', 'zcode', 'kimi', 'opencode', 'pi', 'qwen', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

interface StyleRules {
  pathArgs: string[];
  offsetArg: string;
  limitArg: string;
  /** Offset value that means the first line (1 for 1-based, 0 for 0-based). */
  offsetBase: 0 | 1;
  defaultLines: number;
  /** Hard cap on lines per call (kimi reads at most 1000 whatever n_lines says). */
  maxLines: number;
  maxLineChars: number;
  /** Output budget in bytes before the read stops (pi 50KB, kimi 100KB). */
  maxBytes: number;
  numbering: 'tab' | 'cat-n' | 'colon' | 'none';
  /** Appended to a line cut at maxLineChars (Kimi's marker counts toward the limit). */
  lineCutMarker: string;
}

const KIMI_LINE_MARKER = '[...truncated]';

const RULES: Record<Style, StyleRules> = {
  claude: { pathArgs: ['file_path'], offsetArg: 'offset', limitArg: 'limit', offsetBase: 1, defaultLines: 2000, maxLines: Infinity, maxLineChars: 2000, maxBytes: Infinity, numbering: 'tab', lineCutMarker: '...' },
  zcode: { pathArgs: ['file_path'], offsetArg: 'offset', limitArg: 'limit', offsetBase: 1, defaultLines: Infinity, maxLines: Infinity, maxLineChars: 2000, maxBytes: Infinity, numbering: 'tab', lineCutMarker: '...' },
  kimi: { pathArgs: ['path'], offsetArg: 'line_offset', limitArg: 'n_lines', offsetBase: 1, defaultLines: 1000, maxLines: 1000, maxLineChars: 2000, maxBytes: 100 * 1024, numbering: 'cat-n', lineCutMarker: KIMI_LINE_MARKER },
  opencode: { pathArgs: ['filePath'], offsetArg: 'offset', limitArg: 'limit', offsetBase: 1, defaultLines: 2000, maxLines: Infinity, maxLineChars: 2000, maxBytes: Infinity, numbering: 'colon', lineCutMarker: '...' },
  pi: { pathArgs: ['path'], offsetArg: 'offset', limitArg: 'limit', offsetBase: 1, defaultLines: 2000, maxLines: 2000, maxLineChars: Infinity, maxBytes: 50 * 1024, numbering: 'none', lineCutMarker: '...' },
  qwen: { pathArgs: ['file_path'], offsetArg: 'offset', limitArg: 'limit', offsetBase: 0, defaultLines: 2000, maxLines: Infinity, maxLineChars: 2000, maxBytes: Infinity, numbering: 'none', lineCutMarker: '...' },
  deepseek: { pathArgs: ['path'], offsetArg: 'start_line', limitArg: 'max_lines', offsetBase: 1, defaultLines: 2000, maxLines: Infinity, maxLineChars: Infinity, maxBytes: Infinity, numbering: 'none', lineCutMarker: '...' },
};

/** Error texts: the reference's where it states one, else the original's wording of the condition. */
function missingFile(style: Style, shown: string, ctx: ToolContext): string {
  if (style === 'claude' || style === 'zcode') return `File does not exist. Note: your current working directory is ${ctx.cwd}.`;
  if (style === 'kimi') return `\`${shown}\` does not exist.`;
  return `File not found: ${shown}`;
}

function directoryGiven(style: Style, shown: string): string {
  if (style === 'claude' || style === 'zcode') return `EISDIR: illegal operation on a directory, read '${shown}'. Use Bash with ls to list a directory.`;
  if (style === 'kimi') return `\`${shown}\` is not a file.`;
  return `Read failed: ${shown} is a directory, not a file`;
}

const NOT_UTF8 = 'Read failed: file is not UTF-8 text';

function numberLine(numbering: StyleRules['numbering'], n: number, text: string): string {
  switch (numbering) {
    case 'tab':
      return `${n}\t${text}`;
    case 'cat-n':
      return `${String(n).padStart(6)}\t${text}`;
    case 'colon':
      return `${n}: ${text}`;
    case 'none':
      return text;
  }
}

interface Window {
  /** 0-based index of the first line shown. */
  start: number;
  lines: string[];
  truncatedLines: number[];
  stoppedBy: 'end' | 'limit' | 'max-lines' | 'bytes';
}

function selectLines(all: string[], start: number, limit: number, rules: StyleRules): Window {
  const lines: string[] = [];
  const truncatedLines: number[] = [];
  let bytes = 0;
  let stoppedBy: Window['stoppedBy'] = 'end';
  for (let index = start; index < all.length; index++) {
    if (lines.length >= limit) {
      stoppedBy = limit >= rules.maxLines ? 'max-lines' : 'limit';
      break;
    }
    let line = all[index] ?? '';
    if (line.length > rules.maxLineChars) {
      line = rules.lineCutMarker === KIMI_LINE_MARKER
        ? `${line.slice(0, rules.maxLineChars - KIMI_LINE_MARKER.length)}${KIMI_LINE_MARKER}`
        : `${line.slice(0, rules.maxLineChars)}${rules.lineCutMarker}`;
      truncatedLines.push(index + 1);
    }
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > rules.maxBytes && lines.length > 0) {
      stoppedBy = 'bytes';
      break;
    }
    bytes += size;
    lines.push(line);
  }
  return { start, lines, truncatedLines, stoppedBy };
}

/** `requested` is the number of lines the call asked for (or the default), before any cap. */
function render(style: Style, rules: StyleRules, window: Window, total: number, requested: number, endsWithNewline: boolean): ToolOutput {
  const body = window.lines.map((line, i) => numberLine(rules.numbering, window.start + i + 1, line)).join('\n');
  const first = window.start + 1;
  const last = window.start + window.lines.length;
  switch (style) {
    case 'claude':
    case 'zcode':
      return body;
    case 'kimi': {
      // Kimi CLI's ReadFile (MoonshotAI/kimi-cli src/kimi_cli/tools/file/read.py @ 4a550ef): the
      // message's clauses in this order, and tool_result_to_message (src/kimi_cli/soul/message.py)
      // sends it as `<system>message</system>` before the numbered lines.
      let message = window.lines.length > 0 ? `${window.lines.length} lines read from file starting from line ${first}.` : 'No lines read from file.';
      message += ` Total lines in file: ${total}.`;
      // The line cap only shows when more than it was asked for: the default asks for exactly 1000.
      if (requested > rules.maxLines && window.lines.length >= rules.maxLines) message += ` Max ${rules.maxLines} lines reached.`;
      else if (window.stoppedBy === 'bytes') message += ` Max ${rules.maxBytes} bytes reached.`;
      else if (window.lines.length < requested) message += ' End of file reached.';
      if (window.truncatedLines.length > 0) message += ` Lines [${window.truncatedLines.join(', ')}] were truncated.`;
      // Each line keeps its newline, as the original joins the lines it read.
      const lastHasNewline = last < total || endsWithNewline;
      const text = body === '' ? '' : `${body}${lastHasNewline ? '\n' : ''}`;
      return [`<system>${message}</system>`, text].filter((part) => part !== '').map((part) => ({ type: 'input_text' as const, text: part }));
    }
    case 'pi':
      if (last < total) return `${body}\n\n[Showing lines ${first}-${last} of ${total}. Use offset=${last + 1} to continue.]`;
      return body;
    case 'qwen':
      if (window.start > 0 || last < total) {
        return `Showing lines ${first}-${last} of ${total} total lines.\n\n---\n\n${body}`;
      }
      return body;
    case 'opencode':
    case 'deepseek':
      return body;
  }
}

async function readFileTool(style: Style, rules: StyleRules, args: Args, ctx: ToolContext): Promise<ToolResult> {
  if (style === 'opencode') return readOpencode(args, ctx);
  const pathArg = stringArg(args, ...rules.pathArgs);
  if (pathArg === undefined || pathArg === '') return fail(`Read failed: missing ${rules.pathArgs[0]}`);
  const absolute = resolvePath(ctx, pathArg);
  const shown = style === 'kimi' ? pathArg : style === 'pi' || style === 'deepseek' ? displayPath(ctx, absolute) : absolute;
  const mime = imageMimeType(absolute);
  if (absolute.toLowerCase().endsWith('.pdf') && (style === 'claude' || style === 'zcode')) {
    return fail('Reading PDF files is not available in this build of rig; extract the text with a command (for example pdftotext) instead.');
  }
  const file = await readWorkspaceFile(ctx, absolute);
  if (file.kind === 'missing') return fail(missingFile(style, shown, ctx));
  if (file.kind === 'directory') return fail(directoryGiven(style, shown));
  if (file.kind === 'error') return fail(`Read failed: ${file.message}`);
  if (file.kind === 'binary') {
    if (mime) {
      const image: ContentPart = { type: 'input_image', image_url: `data:${mime};base64,${file.bytes.toString('base64')}` };
      return { output: [image], success: true };
    }
    return fail(NOT_UTF8);
  }
  if (style === 'claude' && isNotebookPath(absolute)) {
    // Claude Code reads a notebook as its cells, ids included, so NotebookEdit can address them.
    recordFileState(ctx, absolute, file.content);
    return renderNotebook(file.content);
  }
  const all = splitLines(file.content);
  const rawOffset = numberArg(args, rules.offsetArg);
  const rawLimit = numberArg(args, rules.limitArg);
  let start: number;
  if (rawOffset !== undefined && rawOffset < 0) {
    // Kimi's tail mode: a negative offset counts back from the end.
    start = Math.max(all.length + Math.trunc(rawOffset), 0);
  } else {
    start = Math.max(Math.trunc(rawOffset ?? rules.offsetBase) - rules.offsetBase, 0);
  }
  const requested = rawLimit !== undefined && rawLimit > 0 ? Math.trunc(rawLimit) : rules.defaultLines;
  const limit = Math.min(requested, rules.maxLines);
  recordFileState(ctx, absolute, file.content);
  if (all.length === 0) {
    if (style === 'claude' || style === 'zcode') return ok('<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>');
    return ok(render(style, rules, { start: 0, lines: [], truncatedLines: [], stoppedBy: 'end' }, 0, requested, false));
  }
  if (start >= all.length) {
    const asGiven = rawOffset ?? 0;
    if (style === 'claude' || style === 'zcode') {
      return ok(`<system-reminder>Warning: the file exists but is shorter than the provided offset (${asGiven}). The file has ${all.length} lines.</system-reminder>`);
    }
    return fail(`Read failed: offset ${asGiven} is beyond the end of the file (${all.length} lines)`);
  }
  const text = render(style, rules, selectLines(all, start, limit, rules), all.length, requested, file.content.endsWith('\n'));
  // Claude refuses any read that would flood the context unless allow_large; ZCode only refuses
  // explicit ranges (its whole-file reads are unbounded) and estimates tokens as chars/3.
  const ranged = rawOffset !== undefined || rawLimit !== undefined;
  const guarded = (style === 'claude' && boolArg(args, 'allow_large') !== true) || (style === 'zcode' && ranged);
  if (guarded) {
    const tokens = Math.ceil((typeof text === 'string' ? text.length : 0) / (style === 'zcode' ? 3 : 4));
    if (tokens > MAX_READ_TOKENS) {
      return fail(
        `File content (${tokens} tokens) exceeds maximum allowed tokens (${MAX_READ_TOKENS}). ` +
          'Use offset and limit to read specific portions of the file, or search for specific content instead of reading the whole file.',
      );
    }
  }
  return ok(text);
}

const MAX_READ_TOKENS = 25_000;

export function createReadTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  const base = RULES[style];
  const numbering = tool.options['line_numbers'];
  if (numbering !== undefined && !['tab', 'cat-n', 'colon', 'none'].includes(numbering as string)) {
    throw new CapabilityOptionError('options.line_numbers', 'must be "tab", "cat-n", "colon" or "none"');
  }
  const rules: StyleRules = {
    ...base,
    numbering: (numbering as StyleRules['numbering'] | undefined) ?? base.numbering,
    defaultLines: numberOption(tool, 'read_default_lines', base.defaultLines),
    maxLineChars: numberOption(tool, 'read_max_line_chars', base.maxLineChars),
  };
  return functionSpec(
    tool,
    {
      description: 'Read a file from the workspace.',
      parameters: {
        type: 'object',
        properties: {
          [rules.pathArgs[0] ?? 'path']: { type: 'string' },
          [rules.offsetArg]: { type: 'integer' },
          [rules.limitArg]: { type: 'integer' },
        },
        required: [rules.pathArgs[0] ?? 'path'],
      },
      parallelSafe: true,
    },
    (args, ctx) => readFileTool(style, rules, args, ctx),
  );
}

/** fs.read_media: an image file as an image content part (Kimi ReadMediaFile). */
export function createReadMediaTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Read an image file and show it.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      parallelSafe: true,
    },
    async (args, ctx) => {
      const pathArg = stringArg(args, 'path', 'file_path');
      if (!pathArg) return fail('ReadMediaFile failed: missing path');
      const absolute = resolvePath(ctx, pathArg);
      const mime = imageMimeType(absolute);
      if (!mime) return fail(`\`${pathArg}\` is not a supported image (png, jpeg, gif, webp).`);
      const file = readTextFile(absolute);
      if (file.kind === 'missing') return fail(`\`${pathArg}\` does not exist.`);
      if (file.kind === 'directory') return fail(`\`${pathArg}\` is not a file.`);
      if (file.kind === 'error') return fail(`ReadMediaFile failed: ${file.message}`);
      const bytes = file.kind === 'binary' ? file.bytes : Buffer.from(file.content);
      if (bytes.length > 20 * 1024 * 1024) return fail(`\`${pathArg}\` is larger than 20 MiB.`);
      return {
        output: [
          { type: 'input_image', image_url: `data:${mime};base64,${bytes.toString('base64')}` },
          { type: 'input_text', text: `<system>Image ${pathArg} (${mime}, ${bytes.length} bytes).</system>` },
        ],
        success: true,
      };
    },
  );
}
