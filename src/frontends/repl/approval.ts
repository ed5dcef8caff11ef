// Asks the user about an approval request on the terminal and turns the answer into a decision.
import type { ApprovalDecision, ApprovalRequest } from '../../protocol/index.js';

export const APPROVAL_QUESTION = 'approve? [y]es / [a]lways for this session / [n]o / [s]top ';

/** What the person is asked about: the command as it would be typed, or the change with its diff. */
export function describeApproval(request: ApprovalRequest): string {
  const why = request.reason ? ` (${request.reason})` : '';
  if (request.kind === 'exec') {
    const where = request.sandboxed ? ' in the sandbox' : ' WITHOUT the sandbox';
    const retry = request.retry_without_sandbox ? ', after the sandbox blocked it' : '';
    return `the agent wants to run \`${request.command_text}\` in ${request.cwd}${where}${retry}${why}`;
  }
  const diffs = request.changes.map((change) => change.diff.trimEnd()).filter((diff) => diff !== '');
  return `the agent wants to change ${request.paths.join(', ')}${why}${diffs.length > 0 ? `\n${diffs.join('\n')}` : ''}`;
}

/** undefined when the answer is not understood (ask again). */
export function parseApprovalAnswer(answer: string): ApprovalDecision | undefined {
  switch (answer.trim().toLowerCase()) {
    case 'y':
    case 'yes':
      return 'approve';
    case 'a':
    case 'always':
      return 'approve_for_session';
    case 'n':
    case 'no':
      return 'deny';
    case 's':
    case 'stop':
      return 'abort';
    default:
      return undefined;
  }
}

/** Asks until the answer is understood; end of input stops the turn. */
export async function askApproval(
  request: ApprovalRequest,
  io: { write: (text: string) => void; readLine: (prompt: string) => Promise<string | undefined> },
): Promise<ApprovalDecision> {
  io.write(`${describeApproval(request)}\n`);
  for (;;) {
    const answer = await io.readLine(APPROVAL_QUESTION);
    if (answer === undefined) return 'abort';
    const decision = parseApprovalAnswer(answer);
    if (decision) return decision;
    io.write('please answer y, a, n or s\n');
  }
}
