// The approvals (and questions to the person) a thread's turn is waiting on. Each request gets an
// id and an `approval.requested` event; the answer from a front end resolves it and is announced as
// `approval.resolved`. When a turn ends or is interrupted, what is still open resolves as aborted.
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, ThreadEvent } from '../protocol/index.js';

export class ApprovalDesk {
  private readonly open = new Map<string, (answer: ApprovalAnswer) => void>();
  private counter = 0;

  constructor(private readonly emit: (event: ThreadEvent) => void) {}

  /** Ask, and wait for the answer; an aborted signal answers `abort` at once. */
  request(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (signal.aborted) return Promise.resolve({ decision: 'abort' });
    const id = `approval_${this.counter++}`;
    return new Promise((resolve) => {
      this.open.set(id, resolve);
      this.emit({ type: 'approval.requested', request: { ...request, id } as ApprovalRequest });
    });
  }

  /** `feedback` goes with `deny`: the person's instructions, sent to the model with the refusal. */
  answer(requestId: string, decision: ApprovalDecision, feedback?: string, content?: Record<string, unknown>): void {
    const resolve = this.open.get(requestId);
    if (!resolve) throw new Error(`no pending approval with id ${requestId} (it was answered already, or its turn ended)`);
    const words = feedback?.trim() ?? '';
    if (words !== '' && decision !== 'deny') throw new Error(`feedback goes with a deny, not with ${decision}: the agent is told it when the action is declined`);
    if (content !== undefined && decision !== 'approve') throw new Error(`content goes with an approve (the answers to an MCP server's form), not with ${decision}`);
    this.open.delete(requestId);
    this.emit({ type: 'approval.resolved', request_id: requestId, decision, ...(words !== '' ? { feedback: words } : {}) });
    resolve({ decision, ...(words !== '' ? { feedback: words } : {}), ...(content !== undefined ? { content } : {}) });
  }

  /** Open approvals (and questions) resolve as aborted; front ends hear that they are gone. */
  dropAll(): void {
    for (const [id, resolve] of this.open) {
      this.open.delete(id);
      this.emit({ type: 'approval.resolved', request_id: id, decision: 'abort' });
      resolve({ decision: 'abort' });
    }
  }
}
