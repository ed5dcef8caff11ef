// fs.str_replace_editor: SWE-agent's file editor (view / create / str_replace / insert /
// undo_edit). Views are read in-process; every change goes through caps.applyChanges, and the
// undo history is kept per thread.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { type Args, fail, functionSpec, numberArg, ok, readTextFile, recordFileState, stringArg } from './common.js';

const HISTORY_KEY = 'harness.editorHistory';
const SNIPPET_LINES = 4;

function history(ctx: ToolContext): Map<string, string[]> {
  let map = ctx.threadState.get(HISTORY_KEY) as Map<string, string[]> | undefined;
  if (!map) {
    map = new Map();
    ctx.threadState.set(HISTORY_KEY, map);
  }
  return map;
}

function catN(content: string, firstLine: number): string {
  const lines = content.split('\n');
  return lines.map((line, i) => `${String(i + firstLine).padStart(6)}\t${line}`).join('\n');
}

function snippet(path: string, content: string, aroundLine: number, extraLines: number): string {
  const lines = content.split('\n');
  const start = Math.max(aroundLine - SNIPPET_LINES, 0);
  const end = Math.min(aroundLine + SNIPPET_LINES + extraLines, lines.length);
  return (
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n` +
    `${catN(lines.slice(start, end).join('\n'), start + 1)}\n` +
    'Review the changes and make sure they are as expected. Edit the file again if necessary.'
  );
}

function listTwoLevels(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      out.push(path);
      if (depth < 2 && statSync(path).isDirectory()) walk(path, depth + 1);
    }
  };
  walk(root, 1);
  return out;
}

async function writeWithHistory(ctx: ToolContext, path: string, before: string | undefined, after: string): Promise<string | null> {
  const outcome = await ctx.caps.applyChanges([
    before === undefined ? { path, kind: 'add', content: after } : { path, kind: 'update', content: after, expectedContent: before },
  ]);
  if (!outcome.ok) return outcome.message;
  if (before !== undefined) {
    const list = history(ctx).get(path) ?? [];
    list.push(before);
    history(ctx).set(path, list);
  }
  recordFileState(ctx, path, after);
  return null;
}

async function runEditor(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const command = stringArg(args, 'command');
  const path = stringArg(args, 'path');
  if (!command) return fail('Missing required parameter `command`.');
  if (!path) return fail('Missing required parameter `path`.');
  if (!isAbsolute(path)) {
    return fail(`The path ${path} is not an absolute path, it should start with \`/\`. Maybe you meant ${resolve(ctx.cwd, path)}?`);
  }
  const file = readTextFile(path);
  if (command === 'create') {
    const text = stringArg(args, 'file_text');
    if (text === undefined) return fail('Parameter `file_text` is required for command: create');
    if (file.kind !== 'missing') return fail(`File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);
    const problem = await writeWithHistory(ctx, path, undefined, text);
    return problem ? fail(problem) : ok(`File created successfully at: ${path}`);
  }
  if (file.kind === 'missing') return fail(`The path ${path} does not exist. Please provide a valid path.`);
  if (file.kind === 'directory') {
    if (command !== 'view') return fail(`The path ${path} is a directory and only the \`view\` command can be used on directories`);
    return ok(`Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${[path, ...listTwoLevels(path)].join('\n')}`);
  }
  if (file.kind !== 'text') return fail(`${path} is not a UTF-8 text file`);
  const content = file.content;
  switch (command) {
    case 'view': {
      recordFileState(ctx, path, content);
      const range = Array.isArray(args['view_range']) ? (args['view_range'] as unknown[]).map(Number) : undefined;
      if (!range) return ok(`Here's the result of running \`cat -n\` on ${path}:\n${catN(content, 1)}`);
      const lines = content.split('\n');
      const [first = 1, last = -1] = range;
      if (range.length !== 2 || !Number.isInteger(first) || first < 1 || first > lines.length) {
        return fail(`Invalid \`view_range\`: ${JSON.stringify(range)}. Its first element should be within the range of lines of the file: [1, ${lines.length}]`);
      }
      const end = last === -1 ? lines.length : last;
      if (!Number.isInteger(end) || end < first || end > lines.length) {
        return fail(`Invalid \`view_range\`: ${JSON.stringify(range)}. Its second element should be -1 or between ${first} and ${lines.length}`);
      }
      return ok(`Here's the result of running \`cat -n\` on ${path}:\n${catN(lines.slice(first - 1, end).join('\n'), first)}`);
    }
    case 'str_replace': {
      const oldStr = stringArg(args, 'old_str');
      const newStr = stringArg(args, 'new_str') ?? '';
      if (oldStr === undefined) return fail('Parameter `old_str` is required for command: str_replace');
      const parts = content.split(oldStr);
      if (parts.length === 1) return fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`);
      if (parts.length > 2) {
        const lines: number[] = [];
        let offset = 0;
        for (const part of parts.slice(0, -1)) {
          offset += part.length;
          lines.push(content.slice(0, offset).split('\n').length);
          offset += oldStr.length;
        }
        return fail(`No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines ${JSON.stringify(lines)}. Please ensure it is unique`);
      }
      const after = parts.join(newStr);
      const problem = await writeWithHistory(ctx, path, content, after);
      if (problem) return fail(problem);
      const line = (parts[0] ?? '').split('\n').length - 1;
      return ok(snippet(path, after, line, newStr.split('\n').length));
    }
    case 'insert': {
      const text = stringArg(args, 'new_str');
      const at = numberArg(args, 'insert_line');
      if (text === undefined) return fail('Parameter `new_str` is required for command: insert');
      const lines = content.split('\n');
      if (at === undefined || !Number.isInteger(at) || at < 0 || at > lines.length) {
        return fail(`Invalid \`insert_line\` parameter: ${at}. It should be within the range of lines of the file: [0, ${lines.length}]`);
      }
      const after = [...lines.slice(0, at), ...text.split('\n'), ...lines.slice(at)].join('\n');
      const problem = await writeWithHistory(ctx, path, content, after);
      return problem ? fail(problem) : ok(snippet(path, after, at, text.split('\n').length));
    }
    case 'undo_edit': {
      const previous = history(ctx).get(path)?.pop();
      if (previous === undefined) return fail(`No edit history found for ${path}.`);
      const outcome = await ctx.caps.applyChanges([{ path, kind: 'update', content: previous, expectedContent: content }]);
      if (!outcome.ok) return fail(outcome.message);
      recordFileState(ctx, path, previous);
      return ok(`Last edit to ${path} undone successfully. Here's the result of running \`cat -n\` on ${path}:\n${catN(previous, 1)}`);
    }
    default:
      return fail(`Unrecognized command ${command}. The allowed commands for the str_replace_editor tool are: view, create, str_replace, insert, undo_edit`);
  }
}

export function createStrReplaceEditorTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'View, create and edit files: view, create, str_replace, insert, undo_edit.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] },
          path: { type: 'string' },
          file_text: { type: 'string' },
          old_str: { type: 'string' },
          new_str: { type: 'string' },
          insert_line: { type: 'integer' },
          view_range: { type: 'array', items: { type: 'integer' } },
        },
        required: ['command', 'path'],
      },
      parallelSafe: false,
    },
    runEditor,
  );
}
