// fs.write: every harness's Write/write/WriteFile/write_file. The write goes through the one
// file-change engine (caps.applyChanges); read-before-edit applies to overwriting existing files.
import type { ResolvedTool } from '../../harness/profile.js';
import type { FileEdit, ToolContext, ToolResult, ToolSpec } from '../spec.js';
import {
  type Args,
  checkReadBeforeEdit,
  displayPath,
  fail,
  functionSpec,
  ok,
  readWorkspaceFile,
  recordFileState,
  resolvePath,
  stringArg,
  styleOption,
} from './common.js';

const STYLES = ['claude', 'zcode', 'kimi', 'kimi-cli', 'opencode', 'pi', 'qwen', 'deepseek'] as const;
type Style = (typeof STYLES)[number];

const PATH_ARGS: Record<Style, string[]> = {
  claude: ['file_path'],
  zcode: ['file_path'],
  kimi: ['path'],
  'kimi-cli': ['path'],
  opencode: ['filePath'],
  pi: ['path'],
  qwen: ['file_path'],
  deepseek: ['path'],
};

function successText(style: Style, ctx: ToolContext, absolute: string, bytes: number, existed: boolean, appended: boolean): string {
  const rel = displayPath(ctx, absolute);
  switch (style) {
    case 'claude':
      // Claude Code's Write replies (issue 11: success text for every Claude-family profile; the
      // create wording is the one reference/harnesses.md §4.4 gives for zcode, which derives from it).
      return existed ? `The file ${absolute} has been updated successfully.` : `File created successfully at: ${absolute}`;
    case 'zcode':
      return `File created successfully at: ${absolute}`;
    case 'kimi':
    case 'kimi-cli':
      return `File successfully ${appended ? 'appended to' : 'overwritten'}. Current size: ${bytes} bytes.`;
    case 'opencode':
      return 'Wrote file successfully.';
    case 'pi':
      return `Successfully wrote ${bytes} bytes to ${rel}`;
    case 'qwen':
      return existed ? `Successfully overwrote file: ${absolute}.` : `Successfully created and wrote to new file: ${absolute}.`;
    case 'deepseek':
      return existed ? `Wrote ${bytes} bytes to ${rel}` : `Created ${rel} (${bytes} bytes)`;
  }
}

async function writeFileTool(style: Style, readFirst: boolean, args: Args, ctx: ToolContext): Promise<ToolResult> {
  const pathArg = stringArg(args, ...PATH_ARGS[style]);
  const content = stringArg(args, 'content');
  if (!pathArg) return fail(`Write failed: missing ${PATH_ARGS[style][0]}`);
  if (content === undefined) return fail('Write failed: missing content');
  const absolute = resolvePath(ctx, pathArg);
  const current = await readWorkspaceFile(ctx, absolute);
  if (current.kind === 'directory') return fail(`Write failed: ${absolute} is a directory`);
  if (current.kind === 'error') return fail(`Write failed: ${current.message}`);
  const existed = current.kind === 'text' || current.kind === 'binary';
  if (current.kind === 'text' && readFirst) {
    const problem = checkReadBeforeEdit(ctx, absolute, current.content);
    if (problem) return fail(problem);
  }
  const append = stringArg(args, 'mode') === 'append';
  if (append && current.kind === 'binary') return fail('Write failed: cannot append to a binary file');
  const newContent = append && current.kind === 'text' ? current.content + content : content;
  const edit: FileEdit =
    current.kind === 'text'
      ? { path: absolute, kind: 'update', content: newContent, expectedContent: current.content }
      : { path: absolute, kind: existed ? 'update' : 'add', content: newContent };
  const outcome = await ctx.caps.applyChanges([edit]);
  if (!outcome.ok) return fail(`Write failed: ${outcome.message}`);
  recordFileState(ctx, absolute, newContent);
  return ok(successText(style, ctx, absolute, Buffer.byteLength(append ? newContent : content), existed, append));
}

export function createWriteTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption(tool, STYLES, 'claude');
  const readFirst = tool.options['read_before_edit'] === true;
  return functionSpec(
    tool,
    {
      description: 'Create or overwrite a file.',
      parameters: {
        type: 'object',
        properties: { [PATH_ARGS[style][0] ?? 'path']: { type: 'string' }, content: { type: 'string' } },
        required: [PATH_ARGS[style][0] ?? 'path', 'content'],
      },
      parallelSafe: false,
    },
    (args, ctx) => writeFileTool(style, readFirst, args, ctx),
  );
}
