// The approval policy setting (`approval_policy`, `-a/--ask-for-approval`):
// its accepted values, the legacy alias, and the names used in messages.

import type { ApprovalPolicyName } from '../protocol/approvals.js';

/** Per-category switches of the granular policy; a category whose switch is false is auto-rejected instead of asked. */
export interface GranularApprovalConfig {
  sandbox_approval: boolean;
  rules: boolean;
  skill_approval: boolean;
  request_permissions: boolean;
  mcp_elicitations: boolean;
}

export type ApprovalPolicyConfig = 'untrusted' | 'on-request' | 'never' | { granular: GranularApprovalConfig };

export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access' | 'external-sandbox';

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicyConfig = 'on-request';

const GRANULAR_KEYS = ['sandbox_approval', 'rules', 'skill_approval', 'request_permissions', 'mcp_elicitations'] as const;

/**
 * Reads a configured value: a name (`on-failure` is the deprecated alias of `on-request`) or
 * `{granular = {...}}`. Throws an Error naming the accepted values.
 */
export function parseApprovalPolicy(value: unknown): ApprovalPolicyConfig {
  if (typeof value === 'string') {
    switch (value as ApprovalPolicyName) {
      case 'untrusted':
      case 'on-request':
      case 'never':
        return value as 'untrusted' | 'on-request' | 'never';
      case 'on-failure':
        return 'on-request';
      case 'granular':
        throw new Error('approval_policy "granular" needs its switches: use {granular = {sandbox_approval = true, rules = true, skill_approval = true, request_permissions = true, mcp_elicitations = true}}');
    }
  }
  if (typeof value === 'object' && value !== null && 'granular' in value) {
    const raw = (value as { granular: unknown }).granular;
    if (typeof raw !== 'object' || raw === null) throw new Error('approval_policy.granular must be a table of boolean switches');
    const table = raw as Record<string, unknown>;
    for (const key of Object.keys(table)) {
      if (!(GRANULAR_KEYS as readonly string[]).includes(key)) {
        throw new Error(`unknown approval_policy.granular key "${key}" (expected one of ${GRANULAR_KEYS.join(', ')})`);
      }
    }
    const granular = {} as GranularApprovalConfig;
    for (const key of GRANULAR_KEYS) {
      const flag = table[key] ?? false;
      if (typeof flag !== 'boolean') throw new Error(`approval_policy.granular.${key} must be true or false`);
      granular[key] = flag;
    }
    return { granular };
  }
  throw new Error(`invalid approval_policy ${JSON.stringify(value)} (expected untrusted, on-request, never, or {granular = {...}}; on-failure is a deprecated alias of on-request)`);
}

export function isGranular(policy: ApprovalPolicyConfig): policy is { granular: GranularApprovalConfig } {
  return typeof policy === 'object';
}

/** The kebab-case name used in config and in the protocol. */
export function approvalPolicyName(policy: ApprovalPolicyConfig): ApprovalPolicyName {
  return isGranular(policy) ? 'granular' : policy;
}

/** The Rust debug spelling Codex uses inside some model-facing messages (`Never`, `UnlessTrusted`, ...). */
export function approvalPolicyDebugName(policy: ApprovalPolicyConfig): string {
  if (isGranular(policy)) {
    const g = policy.granular;
    return `Granular(GranularApprovalConfig { sandbox_approval: ${g.sandbox_approval}, rules: ${g.rules}, skill_approval: ${g.skill_approval}, request_permissions: ${g.request_permissions}, mcp_elicitations: ${g.mcp_elicitations} })`;
  }
  switch (policy) {
    case 'untrusted':
      return 'UnlessTrusted';
    case 'on-request':
      return 'OnRequest';
    case 'never':
      return 'Never';
  }
}

/** Whether the sandbox policy restricts the filesystem (everything except full access and an outer sandbox). */
export function isRestrictedSandbox(mode: SandboxMode): boolean {
  return mode === 'read-only' || mode === 'workspace-write';
}
