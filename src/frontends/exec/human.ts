// Human output of `rig exec` (and the line REPL), modelled on `codex exec`: a header block naming
// what runs and how, each command with the tail of its output and its exit status, file changes
// with their diffs, harness file reads and searches, the reason of every failure, and the tokens
// used. All of it goes to stderr; stdout carries only the answer, so `rig exec ... > answer.txt`
// captures just that. Agent messages either stream to stdout as they arrive (a terminal) or are
// printed to stderr when complete, leaving stdout to the caller, who writes the final answer there
// once the turn is over (a pipe or a file).
import { isAbsolute, relative } from 'node:path';
import type { FileToolItem, ThreadEvent, ThreadItem, TokenUsage } from '../../protocol/index.js';
import { kindLetter, renderDiff, shellQuote } from '../approval-format.js';
import { describeUserInputItem } from '../user-input-format.js';

export interface HumanRendererOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** 'stream' (the default): agent messages stream to stdout. 'stderr': each is printed to stderr when complete. */
  agentMessages?: 'stream' | 'stderr';
  /** Lines of a command's output shown, from its end (default 10). */
  tailLines?: number;
  /** File paths under this directory are shown relative to it. */
  cwd?: string;
  /** Print the tokens used when a turn ends (rig exec does; a REPL shows them its own way). */
  showTokens?: boolean;
}

/** What the header says about a run; all of it is known once the session is open. */
export interface RunFacts {
  version: string;
  workdir: string;
  model: string;
  provider: { id: string; name: string };
  harness: string;
  sandbox: string;
  approvals: string;
  sessionId: string;
  reasoningEffort?: string;
}

const RULE = '--------';
const DEFAULT_TAIL_LINES = 10;
const MAX_LINE_CHARS = 240;
const DIFF_LINES_PER_FILE = 40;

/** The block `rig exec` prints first, as `codex exec` does: what runs, where, and how. */
export function renderHeader(facts: RunFacts, color: boolean): string {
  const label = (name: string) => (color ? `\x1b[1m${name}:\x1b[22m` : `${name}:`);
  const provider = facts.provider.name && facts.provider.name !== facts.provider.id ? `${facts.provider.id} (${facts.provider.name})` : facts.provider.id;
  const rows: [string, string][] = [
    ['workdir', facts.workdir],
    ['model', facts.model],
    ['provider', provider],
    ['harness', facts.harness],
    ['sandbox', facts.sandbox],
    ['approvals', facts.approvals],
    ...(facts.reasoningEffort ? ([['reasoning effort', facts.reasoningEffort]] as [string, string][]) : []),
    ['session id', facts.sessionId],
  ];
  return [`rig ${facts.version}`, RULE, ...rows.map(([name, value]) => `${label(name)} ${value}`), RULE, ''].join('\n');
}

/** "tokens used: 12,345 (input 10,000 of which 8,000 cached, output 2,345)". */
export function formatTokens(usage: TokenUsage): string {
  const n = groupThousands;
  const total = usage.input_tokens + usage.output_tokens;
  const cached = usage.cached_input_tokens > 0 ? ` of which ${n(usage.cached_input_tokens)} cached` : '';
  const reasoning = usage.reasoning_output_tokens > 0 ? ` of which ${n(usage.reasoning_output_tokens)} reasoning` : '';
  // The provider bills its own searches apart from tokens (Anthropic's web_search_requests).
  const searches = usage.web_search_requests ? `; ${n(usage.web_search_requests)} web search${usage.web_search_requests === 1 ? '' : 'es'} by the provider` : '';
  return `tokens used: ${n(total)} (input ${n(usage.input_tokens)}${cached}, output ${n(usage.output_tokens)}${reasoning})${searches}`;
}

/**
 * 12345 -> "12,345", as toLocaleString('en-US') writes it. Written out because the first
 * toLocaleString of a process initialises ICU's number formatting, ~15 ms at the end of every
 * `rig exec` for one line.
 */
export function groupThousands(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
}

export function createHumanRenderer(options: HumanRendererOptions): (event: ThreadEvent) => void {
  const dim = (text: string) => (options.color ? `\x1b[2m${text}\x1b[22m` : text);
  const bold = (text: string) => (options.color ? `\x1b[1m${text}\x1b[22m` : text);
  const red = (text: string) => (options.color ? `\x1b[31m${text}\x1b[39m` : text);
  const streaming = (options.agentMessages ?? 'stream') === 'stream';
  const tailLines = options.tailLines ?? DEFAULT_TAIL_LINES;
  const streamed = new Set<string>();
  let lineOpen = false;
  let usage: TokenUsage | undefined;

  const endLine = () => {
    if (lineOpen) options.stdout('\n');
    lineOpen = false;
  };

  const commandTail = (output: string): string[] => {
    const lines = output.split('\n');
    while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
    const shown = lines.slice(-tailLines).map((line) => dim(`  ${clip(line)}`));
    if (lines.length > tailLines) shown.unshift(dim(`  … ${lines.length - tailLines} earlier line${lines.length - tailLines === 1 ? '' : 's'}`));
    return shown;
  };

  const shownPath = (path: string): string => {
    if (!options.cwd) return path;
    const rel = relative(options.cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };

  const describeFileTool = (item: FileToolItem): string => {
    const what = item.action === 'search'
      ? `${bold('search')} ${JSON.stringify(item.target)}${item.scope ? ` in ${item.scope}` : ''}`
      : `${bold(item.action)} ${item.target}`;
    if (item.status === 'failed') return `${what} ${red('failed')}: ${item.error?.message ?? 'no reason given'}`;
    return `${what} ${dim(`(${item.summary})`)}`;
  };

  const describeItem = (item: ThreadItem, phase: 'started' | 'completed' | 'updated'): string | undefined => {
    switch (item.type) {
      case 'command_execution': {
        if (phase === 'started') return `${bold('$')} ${item.command}`;
        // An update only says the command is still running (e.g. left in the background).
        if (phase === 'updated') return undefined;
        if (item.status === 'declined') return dim(`  declined: ${firstLine(item.aggregated_output)}`);
        const tail = commandTail(item.aggregated_output);
        const status = item.exit_code !== null ? `exit ${item.exit_code}` : item.status === 'failed' ? 'failed (no exit status: killed or never started)' : 'still running';
        const painted = item.exit_code === 0 ? dim(`  ${status}`) : `  ${red(status)}`;
        return [...tail, painted].join('\n');
      }
      case 'file_change': {
        if (phase !== 'completed') return undefined;
        const lines: string[] = [];
        for (const change of item.changes) {
          lines.push(`${bold(kindLetter(change.kind))} ${shownPath(change.path)}`);
          if (item.status === 'completed' && change.diff) lines.push(...renderDiff(change.diff, { color: options.color, maxDiffLines: DIFF_LINES_PER_FILE }));
        }
        if (item.status === 'failed') lines.push(`  ${red('not changed')}: ${item.error?.message ?? 'no reason given'}`);
        return lines.join('\n');
      }
      case 'file_tool':
        return phase === 'completed' ? describeFileTool(item) : undefined;
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
      case 'user_input':
        return phase === 'completed' ? describeUserInputItem(item) : undefined;
      case 'reasoning':
        return phase === 'completed' && item.text.trim() !== '' ? dim(`thinking: ${item.text.trim()}`) : undefined;
      case 'collab_agent_tool_call': {
        if (phase !== 'completed') return undefined;
        const agents = (item.agent_paths ?? item.receiver_thread_ids).join(', ');
        const line = `${bold('agents')} ${item.tool}${agents ? ` ${agents}` : ''}`;
        return item.status === 'failed' ? `${line} ${red('failed')}` : line;
      }
      default:
        return undefined;
    }
  };

  const printTokens = () => {
    if (options.showTokens && usage && usage.input_tokens + usage.output_tokens > 0) options.stderr(`${dim(formatTokens(usage))}\n`);
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
      case 'usage.updated':
        usage = event.total;
        return;
      case 'mcp.server_status': {
        const line = describeMcpStatus(event);
        endLine();
        options.stderr(`${line}\n`);
        return;
      }
      case 'model.retry':
        // A retry starts the answer over: close the partial line rather than glue the next attempt to it.
        endLine();
        return;
      case 'approval.requested': {
        endLine();
        const request = event.request;
        const what =
          request.kind === 'exec'
            ? `${bold('$')} ${shellQuote(request.command)}`
            : request.kind === 'file_change'
              ? request.paths.join(', ')
              : request.kind === 'network'
                ? request.url
                : request.kind === 'mcp_tool_call'
                  ? `${bold('mcp')} ${request.server}.${request.tool}`
                  : request.kind === 'user_input'
                    ? `${request.tool} asks: ${request.questions.map((q) => q.question).join(' / ')}`
                    : `${request.server} asks: ${request.message}`;
        const reason = 'reason' in request ? request.reason : undefined;
        options.stderr(`approval needed: ${what}${reason ? ` (${reason})` : ''}\n`);
        return;
      }
      case 'turn.completed':
        usage = event.usage;
        endLine();
        printTokens();
        return;
      case 'turn.failed':
        endLine();
        printTokens();
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

/** "mcp: github ready (12 tools, 340 ms)", "mcp: db failed: ..." */
function describeMcpStatus(event: Extract<ThreadEvent, { type: 'mcp.server_status' }>): string {
  const name = `mcp: ${event.server}`;
  switch (event.status) {
    case 'starting':
      return `${name} starting`;
    case 'ready': {
      const tools = event.tool_count === undefined ? '' : `${event.tool_count} tool${event.tool_count === 1 ? '' : 's'}`;
      const took = event.startup_ms === undefined ? '' : `${event.startup_ms} ms`;
      const details = [tools, took].filter((part) => part !== '').join(', ');
      return `${name} ready${details ? ` (${details})` : ''}`;
    }
    case 'failed':
      return `${name} failed${event.required ? ' (required)' : ''}: ${event.error ?? 'no reason given'}`;
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
