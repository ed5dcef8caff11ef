// Public surface of the config room.
export { ConfigError, formatKeyPath } from './errors.js';
export { loadConfig, resolveRigHome } from './load.js';
export type { ConfigFlags, LoadConfigOptions, LoadedConfig } from './load.js';
export {
  checkMcpServersLayer,
  DEFAULT_MCP_STARTUP_TIMEOUT_MS,
  DEFAULT_MCP_TOOL_TIMEOUT_MS,
  MCP_SERVER_NAME,
  resolveMcpServers,
} from './mcp-servers.js';
export type { McpHttpServer, McpStdioServer, ResolvedMcpServer } from './mcp-servers.js';
export { parseOverride } from './overrides.js';
export type { ConfigOverride } from './overrides.js';
export {
  findProjectRoot,
  isProjectTrusted,
  projectMayWidenSafety,
  projectTrustLevel,
  PROJECT_CONFIG_DIR,
  PROJECT_RESTRICTED_KEYS,
} from './project.js';
export {
  DEFAULT_MODEL_PROVIDER,
  DEFAULT_PROJECT_DOC_MAX_BYTES,
  DEFAULT_PROJECT_ROOT_MARKERS,
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
} from './resolve.js';
export type { GranularApproval, ResolvedApprovalPolicy, ResolvedProvider, RigConfig } from './resolve.js';
export {
  APPROVAL_POLICIES,
  ENV_INHERIT,
  HOOK_EVENT_KEYS,
  MCP_APPROVAL_MODES,
  REASONING_EFFORTS,
  REASONING_SUMMARIES,
  SANDBOX_MODES,
  TRUST_LEVELS,
  VERBOSITIES,
  WEB_SEARCH_MODES,
  WIRE_APIS,
} from './schema.js';
export type { ConfigLayer, McpApprovalMode, McpServerTable, ProfileConfig, ProviderConfig, SandboxMode, TrustLevel, WireApiName } from './schema.js';
export { DEFAULT_AGENT_MAX_DEPTH, DEFAULT_AGENT_MAX_THREADS, resolveAgents } from './agents.js';
export type { AgentRole, AgentsSettings } from './agents.js';
