// How each finished item looks in the transcript. `compact` is the scrollback's view (long
// outputs and diffs collapsed); the pager (Ctrl+T) renders the same items expanded.
import { basename } from 'node:path';
import type { ThreadItem } from '../../../protocol/index.js';
import { describeUserInputItem } from '../../user-input-format.js';
import { sanitize, type Line, type Span, type Style } from '../text/styled.js';
import { truncateLine, wrap, type WrapMode } from '../text/wrap.js';
import { diffStats, renderDiff } from './diff.js';
import { renderMarkdown } from './markdown.js';
import { theme } from './theme.js';

export interface ItemContext {
  width: number;
  mode: WrapMode;
  hyperlinks: boolean;
  /** Show command output and diffs in full (the pager). */
  expanded: boolean;
}

/** Output lines a finished command keeps in the scrollback (head and tail). */
export const COMMAND_HEAD_LINES = 2;
export const COMMAND_TAIL_LINES = 3;
/** Diff lines a file change keeps in the scrollback. */
export const DIFF_LINES = 60;

const SHELL_SAFE = /^[A-Za-z0-9_\-+=.,/:@%^]+$/;

export function shellQuote(argument: string): string {
  if (argument !== '' && SHELL_SAFE.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** An argv as a shell command line; `bash -lc SCRIPT` shows as the script itself. */
export function commandLine(argv: readonly string[]): string {
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]!) && (argv[1] === '-c' || argv[1] === '-lc')) return argv[2]!;
  return argv.map(shellQuote).join(' ');
}

function bullet(style: Style = theme.dim): Span {
  return { text: '• ', style };
}

function paragraph(text: string, context: ItemContext, first: Line, rest: Line, style?: Span['style']): Line[] {
  return sanitize(text)
    .split('\n')
    .flatMap((line, index) => wrap([style ? { text: line, style } : { text: line }], { width: context.width, mode: context.mode, first: index === 0 ? first : rest, rest }));
}

export function renderUserMessage(text: string, images: readonly string[] | undefined, context: ItemContext): Line[] {
  const prompt: Line = [{ text: '› ', style: theme.user }];
  const out = paragraph(text, context, prompt, [{ text: '  ' }], theme.userText);
  for (const image of images ?? []) out.push([{ text: '  ' }, { text: `[image ${basename(image)}]`, style: theme.token }]);
  return out;
}

/** Output lines, collapsed to head and tail unless expanded. */
export function outputLines(output: string, context: ItemContext, gutter: Line): Line[] {
  const lines = sanitize(output).replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  const keep = (line: string, index: number): Line => {
    const styled: Line = [...(index === 0 ? gutter : [{ text: ' '.repeat(gutterWidth(gutter)) }]), { text: line, style: theme.dim }];
    // Output is dimmed reference material: cut to the width rather than wrapped.
    return context.expanded ? styled : truncateLine(styled, context.width);
  };
  if (context.expanded || lines.length <= COMMAND_HEAD_LINES + COMMAND_TAIL_LINES + 1) return lines.map(keep);
  const hidden = lines.length - COMMAND_HEAD_LINES - COMMAND_TAIL_LINES;
  return [
    ...lines.slice(0, COMMAND_HEAD_LINES).map(keep),
    [{ text: ' '.repeat(gutterWidth(gutter)) }, { text: `… ${hidden} more lines (ctrl+t shows all)`, style: theme.dim }],
    ...lines.slice(-COMMAND_TAIL_LINES).map((line, index) => keep(line, index + 1)),
  ];
}

function gutterWidth(gutter: Line): number {
  return gutter.reduce((sum, part) => sum + part.text.length, 0);
}

export function renderItem(item: ThreadItem, context: ItemContext): Line[] {
  switch (item.type) {
    case 'user_message':
      return renderUserMessage(item.text, item.images, context);
    case 'agent_message':
      return renderMarkdown(sanitize(item.text), context);
    case 'reasoning':
      return item.text.trim() === '' ? [] : paragraph(item.text.trim(), context, [], [], theme.reasoning);
    case 'command_execution': {
      const ok = item.status === 'completed' && (item.exit_code === 0 || item.exit_code === null);
      const verb = item.status === 'declined' ? 'Declined' : item.status === 'in_progress' ? 'Running' : 'Ran';
      const status: Span[] = item.status === 'failed' || (item.exit_code !== null && item.exit_code !== 0) ? [{ text: ` (exit ${item.exit_code ?? '?'})`, style: theme.error }] : [];
      const head = wrap([{ text: verb, style: theme.bold }, { text: ' ' }, { text: sanitize(item.command).replace(/\n/g, ' ⏎ ') }, ...status], {
        width: context.width,
        mode: context.mode,
        first: [bullet(ok ? theme.success : item.status === 'declined' ? theme.dim : theme.error)],
        rest: [{ text: '  ' }],
      });
      return [...head, ...outputLines(item.aggregated_output, context, [{ text: '  └ ', style: theme.dim }])];
    }
    case 'file_change': {
      const out: Line[] = [];
      const failed = item.status === 'failed';
      for (const change of item.changes) {
        const verb = change.kind === 'add' ? 'Added' : change.kind === 'delete' ? 'Deleted' : 'Edited';
        const stats = change.diff ? diffStats(change.diff) : undefined;
        const counts: Span[] = stats ? [{ text: ' (' }, { text: `+${stats.added}`, style: theme.added }, { text: ' ' }, { text: `-${stats.removed}`, style: theme.removed }, { text: ')' }] : [];
        out.push(...wrap([{ text: verb, style: theme.bold }, { text: ' ' }, { text: change.path, style: { link: `file://${change.path}` } }, ...counts, ...(failed ? [{ text: ' (failed)', style: theme.error }] : [])], {
          width: context.width,
          mode: context.mode,
          first: [bullet(failed ? theme.error : theme.success)],
          rest: [{ text: '  ' }],
        }));
        if (change.diff) {
          const lines = renderDiff(change.diff, context).map((line) => [{ text: '  ' }, ...line]);
          if (!context.expanded && lines.length > DIFF_LINES) {
            out.push(...lines.slice(0, DIFF_LINES), [{ text: '  ' }, { text: `… ${lines.length - DIFF_LINES} more diff lines (ctrl+t shows all)`, style: theme.dim }]);
          } else out.push(...lines);
        }
      }
      if (failed && item.error) out.push(...paragraph(item.error.message, context, [{ text: '  └ ', style: theme.dim }], [{ text: '    ' }], theme.error));
      return out;
    }
    case 'file_tool': {
      const failed = item.status === 'failed';
      const verb = item.action === 'read' ? 'Read' : item.action === 'list' ? 'Listed' : 'Searched';
      const where = item.scope ? [{ text: ' in ' }, { text: item.scope, style: { link: `file://${item.scope}` } }] : [];
      const detail = failed ? sanitize(item.error?.message ?? 'failed') : sanitize(item.summary);
      return wrap(
        [
          { text: verb, style: theme.bold },
          { text: ' ' },
          item.action === 'search' ? { text: sanitize(item.target) } : { text: item.target, style: { link: `file://${item.target}` } },
          ...where,
          ...(detail ? [{ text: ` (${detail})`, style: failed ? theme.error : theme.dim }] : []),
        ],
        { width: context.width, mode: context.mode, first: [bullet(failed ? theme.error : theme.success)], rest: [{ text: '  ' }] },
      );
    }
    case 'mcp_tool_call': {
      const failed = item.status === 'failed';
      const head = wrap([{ text: 'Called', style: theme.bold }, { text: ` ${item.server}.${item.tool}` }, ...(failed ? [{ text: ` failed: ${sanitize(item.error?.message ?? 'no reason given')}`, style: theme.error }] : [])], {
        width: context.width,
        mode: context.mode,
        first: [bullet(failed ? theme.error : theme.success)],
        rest: [{ text: '  ' }],
      });
      const result = item.result ? JSON.stringify(item.result.structured_content ?? item.result.content) : '';
      return [...head, ...(result && result !== 'null' ? outputLines(result, context, [{ text: '  └ ', style: theme.dim }]) : [])];
    }
    case 'web_search':
      return wrap([{ text: 'Searched', style: theme.bold }, { text: ` ${sanitize(item.query)}` }], { width: context.width, mode: context.mode, first: [bullet()], rest: [{ text: '  ' }] });
    case 'todo_list':
      return renderPlan(item.items, context);
    case 'user_input':
      return describeUserInputItem(item)
        .split('\n')
        .flatMap((line, index) =>
          wrap([{ text: sanitize(line), style: index === 0 || line.startsWith('?') ? {} : theme.dim }], { width: context.width, mode: context.mode, first: index === 0 ? [bullet()] : [{ text: '  ' }], rest: [{ text: '  ' }] }),
        );
    case 'tool_call': {
      const failed = item.status === 'failed';
      return wrap([{ text: 'Called', style: theme.bold }, { text: ` ${item.tool}` }, ...(failed ? [{ text: ` failed: ${sanitize(item.output ?? 'no reason given')}`, style: theme.error }] : [])], {
        width: context.width,
        mode: context.mode,
        first: [bullet(failed ? theme.error : theme.success)],
        rest: [{ text: '  ' }],
      });
    }
    case 'collab_agent_tool_call': {
      const failed = item.status === 'failed';
      const agents = (item.agent_paths ?? item.receiver_thread_ids).join(', ');
      return wrap([{ text: 'Agents', style: theme.bold }, { text: ` ${item.tool}${agents ? ` ${sanitize(agents)}` : ''}` }], {
        width: context.width,
        mode: context.mode,
        first: [bullet(failed ? theme.error : theme.success)],
        rest: [{ text: '  ' }],
      });
    }
    case 'context_compaction':
      return [[bullet(), { text: 'Context compacted', style: theme.dim }]];
    case 'error':
      return paragraph(item.message, context, [{ text: '■ ', style: theme.error }], [{ text: '  ' }], theme.error);
  }
}

export function renderPlan(entries: readonly { text: string; completed: boolean }[], context: ItemContext): Line[] {
  const out: Line[] = [[bullet(), { text: 'Plan', style: theme.bold }]];
  for (const entry of entries) {
    const mark: Span = entry.completed ? { text: '✔ ', style: theme.success } : { text: '☐ ', style: theme.dim };
    out.push(...wrap([{ text: sanitize(entry.text), ...(entry.completed ? { style: theme.done } : {}) }], { width: context.width, mode: context.mode, first: [{ text: '  ' }, mark], rest: [{ text: '    ' }] }));
  }
  return out;
}
