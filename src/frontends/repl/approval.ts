// Asks the person at the REPL about an approval request and turns the answer into the engine's
// decision. What is shown and the choices come from approval-format.ts: a command shell-quoted with
// its directory (and, when it would run outside the sandbox or rerun there after the sandbox
// blocked it, that said first), a change set with each file's diff. "No, and tell the agent what
// to do instead" asks for the person's words, which go to the model with the refusal.
import { isAbsolute, relative } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest } from '../../protocol/index.js';
import { APPROVAL_CHOICES, FEEDBACK_QUESTION, describeApproval, parseApprovalChoice, type ApprovalView } from '../approval-format.js';

export const APPROVAL_QUESTION = 'y/a/n/s? ';

/** The request as approval-format shows it; paths under `cwd` are shown relative to it. */
export function approvalView(request: ApprovalRequest, cwd: string): ApprovalView {
  if (request.kind === 'exec') {
    return {
      kind: 'exec',
      command: request.command,
      cwd: request.cwd,
      // The retry question names what the sandbox blocked; the policy's generic reason adds nothing.
      ...(request.reason && !request.retry_without_sandbox ? { reason: request.reason } : {}),
      sandboxed: request.sandboxed,
      ...(request.retry_without_sandbox ? { unsandboxedRetry: { denial: request.sandbox_denial ?? request.reason ?? 'the sandbox blocked it' } } : {}),
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
  io.write(`${describeApproval(approvalView(request, io.cwd), { color: io.color })}\n${APPROVAL_CHOICES}\n`);
  for (;;) {
    const answer = await io.readLine(APPROVAL_QUESTION);
    if (answer === undefined) return { decision: 'abort' };
    const choice = parseApprovalChoice(answer);
    if (choice === undefined) {
      io.write('please answer y, a, n or s\n');
      continue;
    }
    if (choice !== 'deny_with_feedback') return { decision: choice };
    // An empty line (or the end of input) is a plain no.
    const feedback = (await io.readLine(FEEDBACK_QUESTION))?.trim() ?? '';
    return feedback === '' ? { decision: 'deny' } : { decision: 'deny', feedback };
  }
}
