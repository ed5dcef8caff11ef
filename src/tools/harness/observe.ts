// Harness tools that read or search without a shell (Claude Code's Read, Grep, Glob, LS and the
// other harnesses' equivalents) leave no command_execution item behind, so a run's reader would
// not see them. Each such tool is wrapped to emit a file_tool item: what it read or searched for,
// and one line about the result (or why it failed).
import type { FileToolItem } from '../../protocol/index.js';
import type { ToolFactory } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';

type Action = FileToolItem['action'];

/** Argument names, across the emulated harnesses, of what a call reads, lists or looks for. */
const TARGET_ARGS: Record<Action, readonly string[]> = {
  read: ['file_path', 'path', 'filePath', 'absolute_path', 'target_file', 'file'],
  search: ['pattern', 'query', 'regex', 'glob', 'search'],
  list: ['path', 'directory', 'dir', 'dir_path', 'target_directory'],
};
const SCOPE_ARGS = ['path', 'directory', 'dir', 'include', 'glob'];

export function observeFileTool(factory: ToolFactory<ToolSpec>, action: Action): ToolFactory<ToolSpec> {
  return (tool, profile) => {
    const spec = factory(tool, profile);
    return {
      ...spec,
      handle: async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
        const fields = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
        const target = firstString(fields, TARGET_ARGS[action]) ?? (action === 'list' ? '.' : '');
        const scope = action === 'search' ? firstString(fields, SCOPE_ARGS.filter((key) => fields[key] !== target)) : undefined;
        const item: FileToolItem = {
          id: ctx.newItemId(),
          type: 'file_tool',
          tool: spec.name,
          action,
          target,
          ...(scope !== undefined ? { scope } : {}),
          arguments: args,
          summary: '',
          status: 'in_progress',
          error: null,
        };
        ctx.emitItem('started', item);
        let result: ToolResult;
        try {
          result = await spec.handle(args, ctx);
        } catch (error) {
          ctx.emitItem('completed', { ...item, status: 'failed', error: { message: error instanceof Error ? error.message : String(error) } });
          throw error;
        }
        const text = outputText(result);
        ctx.emitItem(
          'completed',
          result.success
            ? { ...item, status: 'completed', summary: summarize(action, text) }
            : { ...item, status: 'failed', error: { message: firstLine(text) || 'failed' } },
        );
        return result;
      },
    };
  };
}

function firstString(fields: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function outputText(result: ToolResult): string {
  if (typeof result.output === 'string') return result.output;
  return result.output.map((part) => (part.type === 'input_image' ? '[image]' : part.text)).join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** "120 lines", "an image", "no matches": counted from what the tool returned to the model. */
function summarize(action: Action, text: string): string {
  if (text === '[image]') return 'an image';
  const lines = text.split('\n').filter((line) => line.trim() !== '').length;
  if (lines === 0) return action === 'read' ? 'empty' : 'nothing found';
  // Harnesses answer an empty search with a sentence ("No files found", "No matches found").
  if (action !== 'read' && lines === 1 && /\bno\b.*\b(found|match)/i.test(text)) return 'nothing found';
  const unit = action === 'read' ? 'line' : action === 'list' ? 'entry' : 'result line';
  const plural = unit === 'entry' ? 'entries' : `${unit}s`;
  return `${lines} ${lines === 1 ? unit : plural}`;
}
