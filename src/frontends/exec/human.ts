// Human output of `rig exec`: progress (commands, edits, plans, retries) goes to stderr, and stdout
// carries only the answer, so `rig exec ... > answer.txt` captures just that. Agent messages either
// stream to stdout as they arrive (a terminal) or are printed to stderr when complete, leaving stdout
// to the caller, who writes the final answer there once the turn is over (a pipe or a file).
import type { ThreadEvent, ThreadItem } from '../../protocol/index.js';

export interface HumanRendererOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** 'stream' (the default): agent messages stream to stdout. 'stderr': each is printed to stderr when complete. */
  agentMessages?: 'stream' | 'stderr';
}

export function createHumanRenderer(options: HumanRendererOptions): (event: ThreadEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const bold = (text: string) => (options.color ? `\x1b[1m${text}\x1b[22m` : text);
  const streaming = (options.agentMessages ?? 'stream') === 'stream';
  const streamed = new Set<string>();
  let lineOpen = false;

  const endLine = () => {
    if (lineOpen) options.stdout('\n');
    lineOpen = false;
  };

  const describeItem = (item: ThreadItem, phase: 'started' | 'completed' | 'updated'): string | undefined => {
    switch (item.type) {
      case 'command_execution':
        if (phase === 'started') return `${bold('$')} ${item.command}`;
        // An update only says the command is still running (e.g. left in the background).
        if (phase === 'updated') return undefined;
        if (item.status === 'declined') return dim(`  declined: ${firstLine(item.aggregated_output)}`);
        return dim(`  exit ${item.exit_code ?? '?'}${summarizeOutput(item.aggregated_output)}`);
      case 'file_change':
        if (phase !== 'completed') return undefined;
        return item.changes.map((c) => `${bold(kindLetter(c.kind))} ${c.path}`).join('\n') + (item.status === 'failed' ? dim('  (failed)') : '');
      case 'todo_list':
        // The completed list repeats the last update.
        if (phase === 'completed') return undefined;
        return item.items.map((t) => `${t.completed ? '[x]' : '[ ]'} ${t.text}`).join('\n');
      case 'error':
        return `warning: ${item.message}`;
      case 'mcp_tool_call':
        if (phase === 'started') return `${bold('mcp')} ${item.server}.${item.tool}`;
        return phase === 'completed' && item.status === 'failed' ? dim(`  failed: ${item.error?.message ?? 'no reason given'}`) : undefined;
      case 'web_search':
        return phase === 'started' ? `${bold('search')} ${item.query}` : undefined;
      case 'reasoning':
        return phase === 'completed' && item.text.trim() !== '' ? dim(`thinking: ${item.text.trim()}`) : undefined;
      default:
        return undefined;
    }
  };

  return (event) => {
    switch (event.type) {
      case 'item.agent_message.delta':
        if (!streaming) return;
        streamed.add(event.item_id);
        options.stdout(event.delta);
        lineOpen = !event.delta.endsWith('\n');
        return;
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const phase = event.type.slice('item.'.length) as 'started' | 'updated' | 'completed';
        if (event.item.type === 'agent_message') {
          if (phase !== 'completed') return;
          if (!streaming) {
            if (event.item.text !== '') options.stderr(event.item.text.endsWith('\n') ? event.item.text : `${event.item.text}\n`);
            return;
          }
          if (!streamed.has(event.item.id)) {
            options.stdout(event.item.text);
            lineOpen = !event.item.text.endsWith('\n');
          }
          endLine();
          return;
        }
        const text = describeItem(event.item, phase);
        if (text) {
          endLine();
          options.stderr(`${text}\n`);
        }
        return;
      }
      case 'model.retry':
        // A retry starts the answer over: close the partial line rather than glue the next attempt to it.
        endLine();
        return;
      case 'approval.requested':
        endLine();
        options.stderr(`approval needed: ${event.request.kind === 'exec' ? event.request.command.join(' ') : event.request.paths.join(', ')}\n`);
        return;
      case 'turn.failed':
        endLine();
        return;
      case 'error':
        endLine();
        options.stderr(`error: ${event.message}\n`);
        return;
      default:
        return;
    }
  };
}

function kindLetter(kind: 'add' | 'delete' | 'update'): string {
  return kind === 'add' ? 'A' : kind === 'delete' ? 'D' : 'M';
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function summarizeOutput(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return '';
  return `, ${lines.length} line${lines.length === 1 ? '' : 's'} of output`;
}
