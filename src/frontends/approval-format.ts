// What a person sees when asked to approve something: pure text building, shared by rig exec's
// output, the line REPL and (later) the TUI. A command shows as one shell-quoted line a person
// could paste; a file change shows its diff; a run or a retry outside the sandbox says so before it
// runs; a "no" can carry instructions for the agent, which the engine sends to the model with the
// refusal (ThreadHandle.answerApproval with feedback; the wording is the orchestrator's).

/** A command or file change awaiting a person's answer, as these renderers need it. */
export type ApprovalView = ApprovalSubject & {
  /** Set when a sub-agent asks: its task path (/root/implement_fix), shown first. */
  agentPath?: string;
};

type ApprovalSubject =
  | {
      kind: 'exec';
      command: readonly string[];
      cwd: string;
      reason?: string;
      /** False when approving runs it outside the sandbox (with the user's own access). */
      sandboxed?: boolean;
      /** Set when this is the second attempt of a command the sandbox denied. */
      unsandboxedRetry?: { denial: string };
    }
  | {
      kind: 'file_change';
      changes: readonly { path: string; kind: 'add' | 'delete' | 'update'; diff?: string }[];
      reason?: string;
    }
  | {
      kind: 'mcp_tool_call';
      server: string;
      tool: string;
      arguments: unknown;
      /** What the server says about the tool: "read-only", "destructive", "reaches outside". */
      hints?: string[];
      reason?: string;
    }
  | { kind: 'mcp_elicitation'; server: string; message: string; url?: string }
  | {
      kind: 'network';
      url: string;
      host: string;
      purpose: 'fetch' | 'redirect' | 'search';
      from?: string;
      /** False when approving goes past the sandbox's network setting. */
      sandboxed: boolean;
      reason?: string;
    };

export type ApprovalChoice = 'approve' | 'approve_for_session' | 'approve_always' | 'deny' | 'deny_with_feedback' | 'abort';

export interface FormatOptions {
  color: boolean;
  /** Diff lines shown per file before the rest is summarised (default 40). */
  maxDiffLines?: number;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv as a POSIX shell line: plain words as they are, anything else in single quotes. */
export function shellQuote(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

function quoteWord(word: string): string {
  if (word === '') return "''";
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A unified diff (hunks, `+`/`-`/` ` lines) as coloured, bounded lines. */
export function renderDiff(diff: string, options: FormatOptions & { indent?: string }): string[] {
  const indent = options.indent ?? '  ';
  const max = options.maxDiffLines ?? 40;
  const all = diff.split('\n');
  if (all.at(-1) === '') all.pop();
  const shown = all.slice(0, max).map((line) => indent + paint(line, options.color));
  if (all.length > max) shown.push(`${indent}${dim(`… ${all.length - max} more diff line${all.length - max === 1 ? '' : 's'}`, options.color)}`);
  return shown;
}

function paint(line: string, color: boolean): string {
  if (!color) return line;
  if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[39m`;
  if (line.startsWith('+')) return `\x1b[32m${line}\x1b[39m`;
  if (line.startsWith('-')) return `\x1b[31m${line}\x1b[39m`;
  return line;
}

function dim(text: string, color: boolean): string {
  return color ? `\x1b[2m${text}\x1b[22m` : text;
}

function bold(text: string, color: boolean): string {
  return color ? `\x1b[1m${text}\x1b[22m` : text;
}

export function kindLetter(kind: 'add' | 'delete' | 'update'): string {
  return kind === 'add' ? 'A' : kind === 'delete' ? 'D' : 'M';
}

/** The question, with everything needed to answer it: the exact command, or each file's diff. */
export function describeApproval(view: ApprovalView, options: FormatOptions): string {
  const lines: string[] = [];
  if (view.agentPath) lines.push(`${bold(`Sub-agent ${view.agentPath}`, options.color)} asks:`);
  if (view.kind === 'exec') {
    if (view.unsandboxedRetry) {
      lines.push(`${bold('The command failed inside the sandbox', options.color)}: ${view.unsandboxedRetry.denial}`);
      lines.push(`Run it again WITHOUT the sandbox (it can then change anything you can) in ${view.cwd}?`);
    } else if (view.sandboxed === false) {
      lines.push(`Run this command WITHOUT the sandbox (it can change anything you can) in ${view.cwd}?`);
    } else {
      lines.push(`Run this command in ${view.cwd}?`);
    }
    lines.push(`  ${bold('$', options.color)} ${shellQuote(view.command)}`);
  } else if (view.kind === 'mcp_tool_call') {
    lines.push(`Allow the MCP server ${bold(view.server, options.color)} to run its tool ${bold(view.tool, options.color)}?`);
    lines.push(`  arguments: ${boundedJson(view.arguments)}`);
    if (view.hints?.length) lines.push(`  the server says: ${view.hints.join(', ')}`);
  } else if (view.kind === 'mcp_elicitation') {
    lines.push(`The MCP server ${bold(view.server, options.color)} asks: ${view.message}`);
    if (view.url) lines.push(`  open: ${view.url}`);
  } else if (view.kind === 'network') {
    const past = view.sandboxed ? '' : ' (network access is off in this sandbox; approving allows this request anyway)';
    const what = view.purpose === 'search' ? 'Send this web search' : view.purpose === 'redirect' ? `Follow the redirect from ${view.from ?? 'the page'}` : 'Fetch this URL';
    lines.push(`${what} to ${bold(view.host, options.color)}${past}?`);
    lines.push(`  ${view.url}`);
  } else {
    lines.push(view.changes.length === 1 ? 'Make this change?' : `Make these ${view.changes.length} changes?`);
    for (const change of view.changes) {
      lines.push(`${bold(kindLetter(change.kind), options.color)} ${change.path}`);
      if (change.diff) lines.push(...renderDiff(change.diff, options));
    }
  }
  if ('reason' in view && view.reason) lines.push(`reason: ${view.reason}`);
  return lines.join('\n');
}

export const APPROVAL_CHOICES =
  '[y] yes  [a] yes, and do not ask again this session  [n] no, and tell the agent what to do instead  [s] stop the turn';

/** An MCP tool call's choices: "this session" and "don't ask again" only where the request offers them. */
export function mcpApprovalChoices(offer: { session: boolean; always: boolean }): string {
  return [
    '[y] yes',
    ...(offer.session ? ['[a] yes, for this session'] : []),
    ...(offer.always ? ["[d] yes, and don't ask again (saved in config.toml)"] : []),
    '[n] no, and tell the agent what to do instead',
    '[s] stop the turn',
  ].join('  ');
}

const MAX_ARGUMENT_CHARS = 400;

function boundedJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > MAX_ARGUMENT_CHARS ? `${text.slice(0, MAX_ARGUMENT_CHARS)}… (${text.length} characters)` : text;
}

/** undefined when the answer is not understood (ask again). */
export function parseApprovalChoice(answer: string): ApprovalChoice | undefined {
  switch (answer.trim().toLowerCase()) {
    case 'y':
    case 'yes':
      return 'approve';
    case 'a':
    case 'always':
      return 'approve_for_session';
    case 'd':
    case "don't ask again":
      return 'approve_always';
    case 'n':
    case 'no':
      return 'deny_with_feedback';
    case 's':
    case 'stop':
      return 'abort';
    default:
      return undefined;
  }
}

/** Asked after "no": the person's instructions for the agent (an empty line sends a plain no). */
export const FEEDBACK_QUESTION = 'what should the agent do instead? (empty: just decline) ';

