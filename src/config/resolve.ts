// Turns the merged layers into the resolved config every room reads: defaults filled in, so readers
// never repeat a fallback. Defaults follow Codex where the concept is the same.
import { resolveMcpServers, type KeyLocator, type ResolvedMcpServer } from './mcp-servers.js';
import type {
  ConfigLayer,
  ProfileConfig,
  ProviderConfig,
  SandboxMode,
  TrustLevel,
  WireApiName,
} from './schema.js';

export const DEFAULT_MODEL_PROVIDER = 'openai';
export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32768;
export const DEFAULT_PROJECT_ROOT_MARKERS: readonly string[] = ['.git'];
export const DEFAULT_REQUEST_MAX_RETRIES = 4;
export const DEFAULT_STREAM_MAX_RETRIES = 5;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;

export interface GranularApproval {
  sandbox_approval: boolean;
  rules: boolean;
  skill_approval: boolean;
  request_permissions: boolean;
  mcp_elicitations: boolean;
}

export type ResolvedApprovalPolicy =
  | 'untrusted'
  | 'on-request'
  | 'on-failure'
  | 'never'
  | { granular: GranularApproval };

export type ResolvedProvider = ProviderConfig & {
  name: string;
  wire_api: WireApiName;
  request_max_retries: number;
  stream_max_retries: number;
  stream_idle_timeout_ms: number;
};

type Defaulted =
  | 'model_provider'
  | 'model_providers'
  | 'approval_policy'
  | 'sandbox_mode'
  | 'sandbox_workspace_write'
  | 'shell_environment_policy'
  | 'project_doc_max_bytes'
  | 'project_doc_fallback_filenames'
  | 'project_root_markers'
  | 'harness_guidance'
  | 'features'
  | 'mcp_servers'
  | 'profiles'
  | 'projects';

/** The resolved config: a merged layer with defaults applied. Field names are the TOML keys. */
export type RigConfig = Omit<ConfigLayer, Defaulted> & {
  model_provider: string;
  model_providers: Record<string, ResolvedProvider>;
  approval_policy: ResolvedApprovalPolicy;
  sandbox_mode: SandboxMode;
  sandbox_workspace_write: {
    /** Absolute paths (config-relative paths resolved, --add-dir appended). */
    writable_roots: string[];
    network_access: boolean;
    exclude_tmpdir_env_var: boolean;
    exclude_slash_tmp: boolean;
    allow_unix_sockets: boolean;
  };
  shell_environment_policy: {
    inherit: 'all' | 'core' | 'none';
    ignore_default_excludes: boolean;
    exclude: string[];
    include_only: string[];
    set: Record<string, string>;
    experimental_use_profile: boolean;
  };
  project_doc_max_bytes: number;
  project_doc_fallback_filenames: string[];
  project_root_markers: string[];
  harness_guidance: boolean;
  features: Record<string, boolean>;
  /** Validated, transport chosen, Codex's defaults applied, timeouts in milliseconds. */
  mcp_servers: Record<string, ResolvedMcpServer>;
  profiles: Record<string, ProfileConfig>;
  projects: Record<string, { trust_level?: TrustLevel; allow_wider_safety?: boolean }>;
};

/**
 * `trust` is the explicit trust entry for the session's project, if any. Like Codex: with an
 * explicit entry (trusted or untrusted) the default sandbox is workspace-write, else read-only;
 * a project marked untrusted defaults to the `untrusted` approval policy, anything else `on-request`.
 */
export function applyDefaults(merged: ConfigLayer, trust: TrustLevel | undefined, locateKey?: KeyLocator): RigConfig {
  const { profile: _legacySelector, ...rest } = merged;
  const sww = merged.sandbox_workspace_write ?? {};
  const sep = merged.shell_environment_policy ?? {};
  const providers: Record<string, ResolvedProvider> = {};
  for (const [id, p] of Object.entries(merged.model_providers ?? {})) {
    providers[id] = {
      ...p,
      name: p.name ?? id,
      wire_api: p.wire_api ?? 'responses',
      request_max_retries: p.request_max_retries ?? DEFAULT_REQUEST_MAX_RETRIES,
      stream_max_retries: p.stream_max_retries ?? DEFAULT_STREAM_MAX_RETRIES,
      stream_idle_timeout_ms: p.stream_idle_timeout_ms ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    };
  }
  return {
    ...rest,
    model_provider: merged.model_provider ?? DEFAULT_MODEL_PROVIDER,
    model_providers: providers,
    approval_policy: resolveApproval(merged.approval_policy, trust),
    sandbox_mode: merged.sandbox_mode ?? (trust ? 'workspace-write' : 'read-only'),
    sandbox_workspace_write: {
      writable_roots: sww.writable_roots ?? [],
      network_access: sww.network_access ?? false,
      exclude_tmpdir_env_var: sww.exclude_tmpdir_env_var ?? false,
      exclude_slash_tmp: sww.exclude_slash_tmp ?? false,
      allow_unix_sockets: sww.allow_unix_sockets ?? false,
    },
    shell_environment_policy: {
      inherit: sep.inherit ?? 'all',
      ignore_default_excludes: sep.ignore_default_excludes ?? true,
      exclude: sep.exclude ?? [],
      include_only: sep.include_only ?? [],
      set: sep.set ?? {},
      experimental_use_profile: sep.experimental_use_profile ?? false,
    },
    project_doc_max_bytes: merged.project_doc_max_bytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES,
    project_doc_fallback_filenames: merged.project_doc_fallback_filenames ?? [],
    project_root_markers: merged.project_root_markers ?? [...DEFAULT_PROJECT_ROOT_MARKERS],
    harness_guidance: merged.harness_guidance ?? true,
    features: merged.features ?? {},
    mcp_servers: resolveMcpServers(merged.mcp_servers, locateKey),
    profiles: merged.profiles ?? {},
    projects: merged.projects ?? {},
  };
}

function resolveApproval(
  value: ConfigLayer['approval_policy'],
  trust: TrustLevel | undefined,
): ResolvedApprovalPolicy {
  if (value === undefined) return trust === 'untrusted' ? 'untrusted' : 'on-request';
  if (typeof value === 'string') return value;
  // A granular category left out cannot prompt: its requests are declined automatically.
  const g = value.granular;
  return {
    granular: {
      sandbox_approval: g.sandbox_approval ?? false,
      rules: g.rules ?? false,
      skill_approval: g.skill_approval ?? false,
      request_permissions: g.request_permissions ?? false,
      mcp_elicitations: g.mcp_elicitations ?? false,
    },
  };
}
