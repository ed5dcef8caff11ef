// The approval parameters Codex's shell tools share: a model under on-request may ask to run a
// command outside the sandbox, with a justification and a reusable prefix rule. (Their schema is
// in parameters.ts.)
import type { ExecRequest } from '../spec.js';

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
