// Asks the person at the REPL about an approval request and turns the answer into the engine's
// decision. What is shown and the choices come from approval-format.ts: a command shell-quoted with
// its directory (and, when it would run outside the sandbox or rerun there after the sandbox
// blocked it, that said first), a change set with each file's diff. "No, and tell the agent what
// to do instead" asks for the person's words, which go to the model with the refusal.
import { isAbsolute, relative } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest } from '../../protocol/index.js';
import { APPROVAL_CHOICES, FEEDBACK_QUESTION, describeApproval, mcpApprovalChoices, parseApprovalChoice, type ApprovalView } from '../approval-format.js';
import { askElicitation } from './elicitation.js';
import { askUserInput } from './user-input.js';

export const APPROVAL_QUESTION = 'y/a/n/s? ';

export function approvalView(request: Exclude<ApprovalRequest, { kind: 'user_input' }>, cwd: string): ApprovalView {
  if (request.kind === 'mcp_elicitation') {
    return { kind: 'mcp_elicitation', server: request.server, message: request.message, ...(request.url ? { url: request.url } : {}) };
  }
  if (request.kind === 'mcp_tool_call') {
    const hints = [
      ...(request.annotations?.readOnlyHint ? ['read-only'] : []),
      ...(request.annotations?.destructiveHint ? ['destructive'] : []),
      ...(request.annotations?.openWorldHint ? ['reaches outside this machine'] : []),
    ];
    return {
      kind: 'mcp_tool_call',
      server: request.server,
      tool: request.tool,
      arguments: request.arguments,
      ...(hints.length > 0 ? { hints } : {}),
      ...(request.reason ? { reason: request.reason } : {}),
    };
  }
  if (request.kind === 'exec') {
    return {
      kind: 'exec',
      command: request.command,
      cwd: request.cwd,
      // The retry question names what the sandbox blocked; the policy's generic reason adds nothing.
      ...(request.reason && !request.retry_without_sandbox ? { reason: request.reason } : {}),
      sandboxed: request.sandboxed,
      ...(request.retry_without_sandbox ? { unsandboxedRetry: { denial: request.sandbox_denial ?? request.reason ?? 'the sandbox blocked it' } } : {}),
      ...(request.agent_path ? { agentPath: request.agent_path } : {}),
    };
  }
  if (request.kind === 'network') {
    return {
      kind: 'network',
      url: request.url,
      host: request.host,
      purpose: request.purpose,
      ...(request.from ? { from: request.from } : {}),
      sandboxed: request.sandboxed,
      ...(request.reason ? { reason: request.reason } : {}),
    };
  }
  const shown = (path: string) => {
    const rel = relative(cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  return {
    ...(request.agent_path ? { agentPath: request.agent_path } : {}),
    kind: 'file_change',
    changes: request.changes.map((change) => ({
      path: change.move_to ? `${shown(change.path)} → ${shown(change.move_to)}` : shown(change.path),
      kind: change.kind,
      ...(change.diff ? { diff: change.diff } : {}),
    })),
    ...(request.reason ? { reason: request.reason } : {}),
  };
}

export interface ApprovalIo {
  write: (text: string) => void;
  /** undefined at end of input. */
  readLine: (prompt: string) => Promise<string | undefined>;
  /** The thread's directory, for showing paths. */
  cwd: string;
  color: boolean;
}

/** Asks until the answer is understood; end of input stops the turn. */
export async function askApproval(request: ApprovalRequest, io: ApprovalIo): Promise<ApprovalAnswer> {
  if (request.kind === 'mcp_elicitation') return askElicitation(request, io);
  if (request.kind === 'user_input') return askUserInput(request, io);
  const mcp = request.kind === 'mcp_tool_call' ? { session: request.allow_session, always: request.allow_always } : undefined;
  const choices = mcp ? mcpApprovalChoices(mcp) : APPROVAL_CHOICES;
  io.write(`${describeApproval(approvalView(request, io.cwd), { color: io.color })}\n${choices}\n`);
  for (;;) {
    const answer = await io.readLine(APPROVAL_QUESTION);
    if (answer === undefined) return { decision: 'abort' };
    const choice = parseApprovalChoice(answer);
    const offered =
      choice !== undefined &&
      (mcp ? (choice !== 'approve_for_session' || mcp.session) && (choice !== 'approve_always' || mcp.always) : choice !== 'approve_always');
    if (!offered) {
      io.write(`please answer ${mcp ? ['y', ...(mcp.session ? ['a'] : []), ...(mcp.always ? ['d'] : []), 'n', 's'].join(', ') : 'y, a, n or s'}\n`);
      continue;
    }
    if (choice !== 'deny_with_feedback') return { decision: choice };
    // An empty line (or the end of input) is a plain no.
    const feedback = (await io.readLine(FEEDBACK_QUESTION))?.trim() ?? '';
    return feedback === '' ? { decision: 'deny' } : { decision: 'deny', feedback };
  }
}
