// fs.edit: exact-text replacement edits of every harness (Edit, edit, StrReplaceFile, edit_file).
// Each style names its arguments and replies like its original. Most styles share one rule (every
// old text is counted in the original file; zero hits or, without replace-all, several hits fail);
// opencode and pi match as leniently as their originals (opencode-replace.ts, pi-edit.ts). The
// result always goes through the one file-change engine.
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
  readWorkspaceFile,
  recordFileState,
  resolvePath,
  STALE_FILE_ERROR,
  stringArg,
  styleOption,
  UNREAD_FILE_ERROR,
} from './common.js';
import { opencodeReplace } from './opencode-replace.js';
import { applyPiEdits, lineEndingOf, piEditsOf, stripBom, toLf, withLineEnding } from './pi-edit.js';

const STYLES = ['claude', 'claude-bare', 'zcode', 'kimi', 'kimi-cli', 'qwen', 'opencode', 'pi', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

/** Styles that share the exact-match rules below (opencode and pi have their own matching). */
type ExactStyle = Exclude<Style, 'opencode' | 'pi'>;

const CLAUDE_FAMILY: readonly Style[] = ['claude', 'claude-bare', 'zcode'];

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
function replacementsOf(style: ExactStyle, args: Args): Replacement[] | string {
  const names = NAMES[style];
  const one = (source: Args): Replacement | string => {
    const oldText = stringArg(source, names.old);
    const newText = stringArg(source, names.new);
    if (oldText === undefined) return `Edit failed: missing ${names.old}`;
    if (newText === undefined) return `Edit failed: missing ${names.new}`;
    return { oldText, newText, replaceAll: boolArg(source, names.replaceAll) === true };
  };
  let sources: Args[];
  if (style === 'kimi-cli') {
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

// Claude Code's Edit errors and replies, as issue 11 quotes them (Claude Code is closed source; the
// sentences are the ones its models see). zcode is a Claude Code derivative and answers the same.
const CLAUDE_NOT_FOUND = 'String to replace not found in file.';
const CLAUDE_IDENTICAL = 'No changes to make: old_string and new_string are exactly the same.';
const CLAUDE_EXISTS = 'Cannot create new file - file already exists.';

function claudeMultiple(count: number, oldText: string): string {
  return (
    `Found ${count} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. ` +
    `To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${oldText}`
  );
}

function notFound(style: Style, oldText: string): string {
  if (CLAUDE_FAMILY.includes(style)) return `${CLAUDE_NOT_FOUND}\nString: ${oldText}`;
  if (style === 'kimi-cli') return 'No replacements were made. The old string was not found in the file.';
  if (style === 'deepseek') return 'edit_file failed: search not found';
  return `Edit failed: ${NAMES[style].old} not found`;
}

function multiple(style: Style, count: number, oldText: string): string {
  if (CLAUDE_FAMILY.includes(style)) return claudeMultiple(count, oldText);
  const names = NAMES[style];
  if (!names.replaceAll) return `Edit failed: ${names.old} found ${count} times; provide more context so it matches exactly once`;
  return `Edit failed: ${names.old} found multiple times; set ${names.replaceAll} to true or provide more context`;
}

function identical(style: Style): string {
  if (CLAUDE_FAMILY.includes(style)) return CLAUDE_IDENTICAL;
  const names = NAMES[style];
  return `Edit failed: ${names.old} and ${names.new} are the same; there is nothing to change`;
}

function successText(style: ExactStyle, ctx: ToolContext, absolute: string, edits: number, replaced: number): string {
  const rel = displayPath(ctx, absolute);
  switch (style) {
    case 'claude':
    case 'claude-bare':
    case 'zcode':
      return `The file ${absolute} has been updated successfully.`;
    case 'kimi':
      return `Replaced ${replaced} occurrence(s) in ${rel}`;
    case 'kimi-cli':
      return `File successfully edited. Applied ${edits} edit(s) with ${replaced} total replacement(s).`;
    case 'qwen':
      return `Successfully modified file: ${absolute} (${replaced} replacements).`;
    case 'deepseek':
      return `Edited ${rel}: ${replaced} replacement(s).`;
  }
}

async function commit(ctx: ToolContext, edit: FileEdit, reply: string): Promise<ToolResult> {
  const outcome = await ctx.caps.applyChanges([edit]);
  if (!outcome.ok) return fail(`Edit failed: ${outcome.message}`);
  recordFileState(ctx, edit.path, edit.content ?? '');
  return ok(reply);
}

async function createWithEmptyOld(style: ExactStyle, absolute: string, content: string, ctx: ToolContext): Promise<ToolResult> {
  const reply = style === 'qwen' ? `Created new file: ${absolute} with provided content.` : successText(style, ctx, absolute, 1, 1);
  return commit(ctx, { path: absolute, kind: 'add', content }, reply);
}

async function editFileTool(style: ExactStyle, readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const names = NAMES[style];
  const pathArg = stringArg(args, names.path);
  if (!pathArg) return fail(`Edit failed: missing ${names.path}`);
  const absolute = resolvePath(ctx, pathArg);
  const replacements = replacementsOf(style, args);
  if (typeof replacements === 'string') return fail(replacements);
  const file = await readWorkspaceFile(ctx, absolute);
  const first = replacements[0];
  const claude = CLAUDE_FAMILY.includes(style);
  if (claude && first && first.oldText === first.newText) return fail(CLAUDE_IDENTICAL);
  if (file.kind === 'missing') {
    // Claude- and Gemini-lineage edits create a file when old_string is empty.
    if (replacements.length === 1 && first && first.oldText === '' && [...CLAUDE_FAMILY, 'kimi', 'qwen'].includes(style)) {
      return createWithEmptyOld(style, absolute, first.newText, ctx);
    }
    if (claude) return fail(`File does not exist. Note: your current working directory is ${ctx.cwd}.`);
    return fail(`Edit failed: ${displayPath(ctx, absolute)} does not exist`);
  }
  if (file.kind === 'directory') return fail(`Edit failed: ${absolute} is a directory, not a file`);
  if (file.kind === 'binary') return fail('Edit failed: file is not UTF-8 text');
  if (file.kind === 'error') return fail(`Edit failed: ${file.message}`);
  // An empty old_string may only fill an empty file; anything else would be a second "create".
  if (claude && first?.oldText === '' && file.content.trim() !== '') return fail(CLAUDE_EXISTS);
  if (readFirst) {
    const problem = checkReadBeforeEdit(ctx, absolute, file.content);
    if (problem) return fail(problem);
  }
  const original = file.content;
  let content = original;
  let replaced = 0;
  for (const replacement of replacements) {
    if (replacement.oldText === replacement.newText) return fail(identical(style));
    if (claude && replacement.oldText === '' && original.trim() === '') {
      content = replacement.newText;
      replaced = 1;
      continue;
    }
    const count = countOccurrences(original, replacement.oldText);
    if (count === 0) return fail(notFound(style, replacement.oldText));
    if (count > 1 && !replacement.replaceAll) return fail(multiple(style, count, replacement.oldText));
    if (replacement.replaceAll) {
      const here = countOccurrences(content, replacement.oldText);
      content = content.split(replacement.oldText).join(replacement.newText);
      replaced += here;
    } else {
      const at = content.indexOf(replacement.oldText);
      if (at === -1) return fail(notFound(style, replacement.oldText));
      content = content.slice(0, at) + replacement.newText + content.slice(at + replacement.oldText.length);
      replaced += 1;
    }
  }
  return commit(ctx, { path: absolute, kind: 'update', content, expectedContent: original }, successText(style, ctx, absolute, replacements.length, replaced));
}

// opencode's FileTime.assert wording (anomalyco/opencode packages/opencode/src/file/time.ts);
// rig compares content, not modification times, so the times it lists are left out.
function opencodeReadFirst(problem: string, path: string): string {
  if (problem === UNREAD_FILE_ERROR) return `You must read the file ${path} before overwriting it. Use the Read tool first`;
  if (problem === STALE_FILE_ERROR) return `File ${path} has been modified since it was last read.\n\nPlease read the file again before modifying it.`;
  return problem;
}

/** opencode's edit (packages/opencode/src/tool/edit.ts @ 00937b9): lenient matching, its error texts. */
async function opencodeEdit(readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const pathArg = stringArg(args, 'filePath');
  if (!pathArg) return fail('filePath is required');
  const oldString = stringArg(args, 'oldString');
  const newString = stringArg(args, 'newString');
  if (oldString === undefined) return fail('Edit failed: missing oldString');
  if (newString === undefined) return fail('Edit failed: missing newString');
  if (oldString === newString) return fail('No changes to apply: oldString and newString are identical.');
  const path = resolvePath(ctx, pathArg);
  const file = await readWorkspaceFile(ctx, path);
  if (oldString === '') {
    // An empty oldString writes newString as the whole file, new or not.
    if (file.kind === 'directory') return fail(`Path is a directory, not a file: ${path}`);
    const edit: FileEdit = file.kind === 'text' ? { path, kind: 'update', content: newString, expectedContent: file.content } : { path, kind: file.kind === 'missing' ? 'add' : 'update', content: newString };
    return commit(ctx, edit, 'Edit applied successfully.');
  }
  if (file.kind === 'missing') return fail(`File ${path} not found`);
  if (file.kind === 'directory') return fail(`Path is a directory, not a file: ${path}`);
  if (file.kind === 'binary') return fail('Edit failed: file is not UTF-8 text');
  if (file.kind === 'error') return fail(`Edit failed: ${file.message}`);
  if (readFirst) {
    const problem = checkReadBeforeEdit(ctx, path, file.content);
    if (problem) return fail(opencodeReadFirst(problem, path));
  }
  // The texts take the file's line ending before matching.
  const ending = file.content.includes('\r\n') ? '\r\n' : '\n';
  const inEnding = (text: string) => (ending === '\n' ? text.replace(/\r\n/g, '\n') : text.replace(/\r\n/g, '\n').replace(/\n/g, '\r\n'));
  const result = opencodeReplace(file.content, inEnding(oldString), inEnding(newString), boolArg(args, 'replaceAll') === true);
  if ('error' in result) return fail(result.error);
  return commit(ctx, { path, kind: 'update', content: result.content, expectedContent: file.content }, 'Edit applied successfully.');
}

/** pi's edit with edits[] (see pi-edit.ts); paths in its texts are the path as the model gave it. */
async function piEdit(readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const pathArg = stringArg(args, 'path');
  if (!pathArg) return fail('Edit failed: missing path');
  const edits = piEditsOf(args);
  if (typeof edits === 'string') return fail(edits);
  const path = resolvePath(ctx, pathArg);
  const file = await readWorkspaceFile(ctx, path);
  if (file.kind === 'missing') return fail(`File not found: ${pathArg}`);
  if (file.kind === 'directory') return fail(`Could not edit file: ${pathArg}. Path is not a file.`);
  if (file.kind === 'binary') return fail('Edit failed: file is not UTF-8 text');
  if (file.kind === 'error') return fail(`Edit failed: ${file.message}`);
  if (readFirst) {
    const problem = checkReadBeforeEdit(ctx, path, file.content);
    if (problem) return fail(problem);
  }
  const { bom, text } = stripBom(file.content);
  const ending = lineEndingOf(text);
  const result = applyPiEdits(toLf(text), edits, pathArg);
  if ('error' in result) return fail(result.error);
  const content = bom + withLineEnding(result.next, ending);
  return commit(ctx, { path, kind: 'update', content, expectedContent: file.content }, `Successfully replaced ${edits.length} block(s) in ${pathArg}.`);
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
    (args, ctx) => {
      if (style === 'opencode') return opencodeEdit(readFirst, args, ctx);
      if (style === 'pi') return piEdit(readFirst, args, ctx);
      return editFileTool(style, readFirst, args, ctx);
    },
  );
}
