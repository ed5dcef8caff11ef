// The closed sets of values config keys take, and their types. Kept apart from the schema so that
// the schema's parts (schema.ts, schema-tables.ts) and the rooms that only need a list of names can
// import them without loading any schema code.
// `max` and `ultra` are newer Codex efforts; anything else is passed through with a warning.
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'ultra'] as const;
export const REASONING_SUMMARIES = ['auto', 'concise', 'detailed', 'none'] as const;
export const VERBOSITIES = ['low', 'medium', 'high'] as const;
export const WIRE_APIS = ['responses', 'chat', 'messages'] as const;
export const APPROVAL_POLICIES = ['untrusted', 'on-request', 'on-failure', 'never'] as const;
export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const WEB_SEARCH_MODES = ['disabled', 'cached', 'live'] as const;
/** Search backends rig can call itself when the wire has no search of its own (see src/web/). */
export const WEB_SEARCH_PROVIDERS = ['brave', 'tavily', 'searxng', 'custom'] as const;
/** Codex's and Claude Code's hook events (the hooks room fires them; see src/hooks/events.ts). */
export const HOOK_EVENT_KEYS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
  'SessionEnd',
] as const;
export const HOOK_HANDLER_TYPES = ['command', 'prompt', 'agent', 'http', 'mcp_tool'] as const;
export const ENV_INHERIT = ['all', 'core', 'none'] as const;
export const TRUST_LEVELS = ['trusted', 'untrusted'] as const;
/** How an MCP server's tool calls are approved (Codex's AppToolApproval). */
export const MCP_APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'] as const;

export type SandboxMode = (typeof SANDBOX_MODES)[number];
export type WireApiName = (typeof WIRE_APIS)[number];
export type TrustLevel = (typeof TRUST_LEVELS)[number];
export type McpApprovalMode = (typeof MCP_APPROVAL_MODES)[number];
export type ApprovalPolicyName = (typeof APPROVAL_POLICIES)[number];
/** Whether the session takes the terminal's alternate screen. */
export const ALTERNATE_SCREEN_MODES = ['never', 'auto', 'always'] as const;
