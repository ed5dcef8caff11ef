// An MCP server's question (elicitation) in ACP terms. ACP's session/request_permission offers a
// person options to pick, not a form to fill, so only a confirmation maps onto it: a form with no
// fields, or with one boolean field (answered true on accept). Anything else (text fields, choices,
// URL mode) is declined with a reason the model reads.
import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, McpElicitationApprovalRequest } from '../../protocol/index.js';

export const ELICITATION_OPTIONS: PermissionOption[] = [
  { optionId: 'accept', name: 'Accept', kind: 'allow_once' },
  { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
];

export type ElicitationPlan =
  | { ask: true; toolCall: ToolCallUpdate; accept: Record<string, unknown> }
  | { ask: false; answer: ApprovalAnswer };

export function planElicitation(request: McpElicitationApprovalRequest): ElicitationPlan {
  const properties = Object.entries((request.requested_schema?.['properties'] ?? {}) as Record<string, { type?: unknown }>);
  const confirm = request.mode === 'form' && (properties.length === 0 || (properties.length === 1 && properties[0]![1].type === 'boolean'));
  if (!confirm) {
    const what = request.mode === 'url' ? `to open ${request.url ?? 'a URL'}` : `to fill in a form (${properties.map(([name]) => name).join(', ')})`;
    return {
      ask: false,
      answer: {
        decision: 'deny',
        feedback: `rig declined it without asking: the server wanted the user ${what}, which an ACP client can only be asked as a yes/no question. Tell the user what the server needs so they can provide it.`,
      },
    };
  }
  const accept = properties.length === 1 ? { [properties[0]![0]]: true } : {};
  return {
    ask: true,
    accept,
    toolCall: { toolCallId: request.item_id ?? request.id, title: `${request.server} asks: ${request.message}`, kind: 'other', status: 'pending', content: [{ type: 'content', content: { type: 'text', text: request.message } }] },
  };
}
