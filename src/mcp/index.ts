// Public surface of the MCP room (client side). Importing it does not load the SDK: only
// starting a manager with an enabled server does (sdk.ts). See docs/mcp.md.
export {
  approvalModeFor,
  decideMcpApproval,
  MCP_APPROVAL_NEVER_MESSAGE,
  persistentApprovalEdit,
  requiresApprovalByAnnotations,
  requiresApprovalForMode,
} from './approval.js';
export type { McpApprovalDecision, McpApprovalInput, McpToolHints } from './approval.js';
export { probeMcpServers } from './doctor.js';
export type { McpServerProbe } from './doctor.js';
export { MCP_DEFAULT_ENV_VARS } from './env.js';
export { mcpLaunchTimesFile } from './launch-order.js';
export {
  createMcpManager,
  DEFAULT_OPTIONAL_STARTUP_GRACE_MS,
  DEFAULT_RESTART_BACKOFF,
  McpConnectionManager,
  McpStartupError,
} from './manager.js';
export type { McpManagerOptions, McpStartupSummary } from './manager.js';
export { MAX_TOOL_NAME_LENGTH, nameMcpTools, namingConventionForHarness } from './naming.js';
export type { McpNamingConvention, McpToolRef, NamedMcpTool } from './naming.js';
export {
  listMcpResources,
  listMcpResourceTemplates,
  MCP_RESOURCE_TOOL_NAMES,
  mcpResourceToolDefinitions,
  readMcpResource,
} from './resources.js';
export type { ResourceArgs } from './resources.js';
export { DEFAULT_MCP_IMAGE_MAX_BYTES, DEFAULT_MCP_OUTPUT_MAX_BYTES, mapMcpResult } from './results.js';
export type { MappedMcpResult, MapResultOptions } from './results.js';
export { mcpSdkLoaded } from './sdk.js';
export type * from './types.js';
export { persistToolApproval } from './persist-approval.js';
export type { PersistOutcome } from './persist-approval.js';
export type { ProcessHooks } from './connection.js';
