// The approval parameters Codex's shell tools share: a model under on-request may ask to run a
// command outside the sandbox, with a justification and a reusable prefix rule.
import { z } from './schema.js';
import type { ExecRequest } from '../spec.js';

export const escalationFields = {
  sandbox_permissions: z
    .enum(['use_default', 'require_escalated'])
    .optional()
    .describe('Use "require_escalated" to ask the user to run this command outside the sandbox; give a justification.'),
  justification: z.string().optional().describe('One sentence for the user explaining why escalation is needed.'),
  prefix_rule: z
    .array(z.string())
    .optional()
    .describe('With require_escalated: an argv prefix (e.g. ["npm","test"]) the user may approve for the rest of the session.'),
};

export interface EscalationArgs {
  sandbox_permissions?: 'use_default' | 'require_escalated';
  justification?: string;
  prefix_rule?: string[];
}

export function escalationOf(args: EscalationArgs): ExecRequest['escalation'] {
  if (args.sandbox_permissions !== 'require_escalated') return undefined;
  return {
    ...(args.justification ? { justification: args.justification } : {}),
    ...(args.prefix_rule ? { prefixRule: args.prefix_rule } : {}),
  };
}
