// fs.edit: exact-text replacement edits of every harness (Edit, edit, StrReplaceFile, edit_file).
// Each style names its arguments and replies like its original; the rules are shared: every old
// text is counted in the original file, zero hits or (without replace-all) several hits fail, and
// the result goes through the one file-change engine.
import type { ResolvedTool } from '../../harness/profile.js';
import type { FileEdit, ToolContext, ToolResult, ToolSpec } from '../spec.js';
import {
  type Args,
  asArgs,
  boolArg,
  checkReadBeforeEdit,
  displayPath,
  fail,
  functionSpec,
  ok,
  readTextFile,
  recordFileState,
  resolvePath,
  stringArg,
  styleOption,
} from './common.js';

const STYLES = ['claude', 'claude-bare', 'zcode', 'kimi', 'kimi-cli', 'qwen', 'opencode', 'pi', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

interface Replacement {
  oldText: string;
  newText: string;
  replaceAll: boolean;
}

interface ArgNames {
  path: string;
  old: string;
  new: string;
  replaceAll?: string;
}

const NAMES: Record<Style, ArgNames> = {
  claude: { path: 'file_path', old: 'old_string', new: 'new_string', replaceAll: 'replace_all' },
  'claude-bare': { path: 'file_path', old: 'old_string', new: 'new_string', replaceAll: 'replace_all' },
  zcode: { path: 'file_path', old: 'old_string', new: 'new_string', replaceAll: 'replace_all' },
  kimi: { path: 'path', old: 'old_string', new: 'new_string', replaceAll: 'replace_all' },
  'kimi-cli': { path: 'path', old: 'old', new: 'new', replaceAll: 'replace_all' },
  qwen: { path: 'file_path', old: 'old_string', new: 'new_string', replaceAll: 'replace_all' },
  opencode: { path: 'filePath', old: 'oldString', new: 'newString', replaceAll: 'replaceAll' },
  pi: { path: 'path', old: 'oldText', new: 'newText' },
  deepseek: { path: 'path', old: 'search', new: 'replace' },
};

/** The replacements a call asks for, or an error text. */
function replacementsOf(style: Style, args: Args): Replacement[] | string {
  const names = NAMES[style];
  const one = (source: Args): Replacement | string => {
    const oldText = stringArg(source, names.old);
    const newText = stringArg(source, names.new);
    if (oldText === undefined) return `Edit failed: missing ${names.old}`;
    if (newText === undefined) return `Edit failed: missing ${names.new}`;
    return { oldText, newText, replaceAll: boolArg(source, names.replaceAll) === true };
  };
  let sources: Args[];
  if (style === 'pi') {
    const edits = args['edits'];
    if (!Array.isArray(edits) || edits.length === 0) return 'Edit failed: edits must be a non-empty array of {oldText, newText}';
    sources = edits.map(asArgs);
  } else if (style === 'kimi-cli') {
    const edit = args['edit'];
    sources = Array.isArray(edit) ? edit.map(asArgs) : [asArgs(edit)];
    if (sources.length === 0) return 'Edit failed: edit must be an edit or a non-empty list of edits';
  } else {
    sources = [args];
  }
  const out: Replacement[] = [];
  for (const source of sources) {
    const replacement = one(source);
    if (typeof replacement === 'string') return replacement;
    out.push(replacement);
  }
  return out;
}

function countOccurrences(haystack: string, needle: string): number {
  if (needle === '') return Infinity;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

function notFound(style: Style): string {
  if (style === 'kimi-cli') return 'No replacements were made. The old string was not found in the file.';
  if (style === 'deepseek') return 'edit_file failed: search not found';
  return `Edit failed: ${NAMES[style].old} not found`;
}

function multiple(style: Style, count: number): string {
  const names = NAMES[style];
  if (!names.replaceAll) return `Edit failed: ${names.old} found ${count} times; provide more context so it matches exactly once`;
  return `Edit failed: ${names.old} found multiple times; set ${names.replaceAll} to true or provide more context`;
}

function successText(style: Style, ctx: ToolContext, absolute: string, edits: number, replaced: number): string {
  const rel = displayPath(ctx, absolute);
  switch (style) {
    case 'claude':
    case 'kimi':
      return `Replaced ${replaced} occurrence(s) in ${rel}`;
    case 'claude-bare':
    case 'zcode':
      return `The file ${absolute} has been updated successfully.`;
    case 'kimi-cli':
      return `File successfully edited. Applied ${edits} edit(s) with ${replaced} total replacement(s).`;
    case 'qwen':
      return `Successfully modified file: ${absolute} (${replaced} replacements).`;
    case 'opencode':
      return 'Edit applied successfully.';
    case 'pi':
      return `Successfully replaced ${edits} block(s) in ${rel}.`;
    case 'deepseek':
      return `Edited ${rel}: ${replaced} replacement(s).`;
  }
}

async function createWithEmptyOld(style: Style, absolute: string, content: string, ctx: ToolContext): Promise<ToolResult> {
  const outcome = await ctx.caps.applyChanges([{ path: absolute, kind: 'add', content }]);
  if (!outcome.ok) return fail(`Edit failed: ${outcome.message}`);
  recordFileState(ctx, absolute, content);
  return ok(style === 'qwen' ? `Created new file: ${absolute} with provided content.` : successText(style, ctx, absolute, 1, 1));
}

async function editFileTool(style: Style, readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const names = NAMES[style];
  const pathArg = stringArg(args, names.path);
  if (!pathArg) return fail(`Edit failed: missing ${names.path}`);
  const absolute = resolvePath(ctx, pathArg);
  const replacements = replacementsOf(style, args);
  if (typeof replacements === 'string') return fail(replacements);
  const file = readTextFile(absolute);
  const first = replacements[0];
  if (file.kind === 'missing') {
    // Claude- and Gemini-lineage edits create a file when old_string is empty.
    if (replacements.length === 1 && first && first.oldText === '' && ['claude', 'claude-bare', 'zcode', 'kimi', 'qwen'].includes(style)) {
      return createWithEmptyOld(style, absolute, first.newText, ctx);
    }
    return fail(`Edit failed: ${displayPath(ctx, absolute)} does not exist`);
  }
  if (file.kind === 'directory') return fail(`Edit failed: ${absolute} is a directory, not a file`);
  if (file.kind === 'binary') return fail('Edit failed: file is not UTF-8 text');
  if (file.kind === 'error') return fail(`Edit failed: ${file.message}`);
  if (readFirst) {
    const problem = checkReadBeforeEdit(ctx, absolute, file.content);
    if (problem) return fail(problem);
  }
  const original = file.content;
  let content = original;
  let replaced = 0;
  for (const replacement of replacements) {
    if (replacement.oldText === replacement.newText) {
      return fail(`Edit failed: ${names.old} and ${names.new} are the same; there is nothing to change`);
    }
    const count = countOccurrences(original, replacement.oldText);
    if (count === 0) return fail(notFound(style));
    if (count > 1 && !replacement.replaceAll) return fail(multiple(style, count));
    if (replacement.replaceAll) {
      const here = countOccurrences(content, replacement.oldText);
      content = content.split(replacement.oldText).join(replacement.newText);
      replaced += here;
    } else {
      const at = content.indexOf(replacement.oldText);
      if (at === -1) return fail(notFound(style));
      content = content.slice(0, at) + replacement.newText + content.slice(at + replacement.oldText.length);
      replaced += 1;
    }
  }
  const edit: FileEdit = { path: absolute, kind: 'update', content, expectedContent: original };
  const outcome = await ctx.caps.applyChanges([edit]);
  if (!outcome.ok) return fail(`Edit failed: ${outcome.message}`);
  recordFileState(ctx, absolute, content);
  return ok(successText(style, ctx, absolute, replacements.length, replaced));
}

export function createEditTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  const readFirst = tool.options['read_before_edit'] === true;
  const names = NAMES[style];
  return functionSpec(
    tool,
    {
      description: 'Replace exact text in a file.',
      parameters: {
        type: 'object',
        properties: { [names.path]: { type: 'string' }, [names.old]: { type: 'string' }, [names.new]: { type: 'string' } },
        required: [names.path, names.old, names.new],
      },
      parallelSafe: false,
    },
    (args, ctx) => editFileTool(style, readFirst, args, ctx),
  );
}
