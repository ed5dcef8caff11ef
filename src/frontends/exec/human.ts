// Human output of `rig exec`: the answer streams to stdout; progress (commands, edits, plans,
// retries) goes to stderr so `rig exec ... > answer.txt` captures only the answer.
import type { ThreadEvent, ThreadItem } from '../../protocol/index.js';

export interface HumanRendererOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
}

export function createHumanRenderer(options: HumanRendererOptions): (event: ThreadEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const bold = (text: string) => (options.color ? `\x1b[1m${text}\x1b[22m` : text);
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
        return item.items.map((t) => `${t.completed ? '[x]' : '[ ]'} ${t.text}`).join('\n');
      case 'error':
        return `warning: ${item.message}`;
      case 'mcp_tool_call':
        return phase === 'started' ? `${bold('mcp')} ${item.server}.${item.tool}` : undefined;
      case 'reasoning':
        return undefined;
      default:
        return undefined;
    }
  };

  return (event) => {
    switch (event.type) {
      case 'item.agent_message.delta':
        streamed.add(event.item_id);
        options.stdout(event.delta);
        lineOpen = !event.delta.endsWith('\n');
        return;
      case 'item.started':
      case 'item.updated':
      case 'item.completed': {
        const phase = event.type.slice('item.'.length) as 'started' | 'updated' | 'completed';
        if (event.item.type === 'agent_message') {
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
