// Sub-agent settings: `[agents]` (Codex's keys and defaults), its roles from `[agents.<role>]`
// tables and from role files (`agents/<role>.toml` under RIG_HOME, or a role's `config_file`), and
// `[features] multi_agent_v2`. Read when a thread is built; the core agents service applies them.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, formatKeyPath } from './errors.js';
import { readConfigFile } from './files.js';
import type { RigConfig } from './resolve.js';
import { findProjectRoot, isProjectTrusted, PROJECT_CONFIG_DIR } from './project.js';
import { agentRoleSchema, type ApprovalPolicyName, type SandboxMode } from './schema.js';

/** Codex's defaults (reference/tools-native.md §9). */
export const DEFAULT_AGENT_MAX_THREADS = 6;
export const DEFAULT_AGENT_MAX_DEPTH = 1;

const LIMIT_KEYS = new Set([
  'enabled',
  'max_concurrent_threads_per_session',
  'max_threads',
  'max_depth',
  'default_subagent_model',
  'default_subagent_reasoning_effort',
  'interrupt_message',
]);

export interface AgentRole {
  name: string;
  description?: string;
  model?: string;
  reasoningEffort?: string;
  developerInstructions?: string;
  harness?: string;
  provider?: string;
  sandboxMode?: SandboxMode;
  approvalPolicy?: ApprovalPolicyName;
  nicknames?: string[];
  /** Where the role was defined, for messages. */
  source: string;
}

export interface AgentsSettings {
  enabled: boolean;
  /** Codex's multi_agent_v2 tool set (task paths) instead of v1 (thread ids). */
  v2: boolean;
  maxThreads: number;
  maxDepth: number;
  defaultModel?: string;
  defaultReasoningEffort?: string;
  /** Codex's interrupt_message: an interrupted turn leaves a note the model sees (default true). */
  interruptMessage: boolean;
  roles: Map<string, AgentRole>;
  warnings: string[];
}

type RoleTable = {
  name?: string;
  description?: string;
  config_file?: string;
  nickname_candidates?: string[];
  model?: string;
  model_reasoning_effort?: string;
  developer_instructions?: string;
  harness?: string;
  model_provider?: string;
  sandbox_mode?: SandboxMode;
  approval_policy?: ApprovalPolicyName;
};

/** Reads and checks one role file; the message names the file and key. */
function readRoleFile(file: string, referencedBy: string): RoleTable {
  const read = readConfigFile(file);
  if (!read) throw new ConfigError(`${referencedBy}: role file ${file} does not exist; create it or remove config_file`);
  const parsed = agentRoleSchema().safeParse(read.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = formatKeyPath(issue.path as PropertyKey[]);
    const keys = issue.code === 'unrecognized_keys' ? ` (unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')})` : '';
    throw new ConfigError(
      `${file}: ${where ? `${where}: ` : ''}${issue.message}${keys}; a role file may set name, description, model, model_reasoning_effort, developer_instructions, nickname_candidates, harness, model_provider, sandbox_mode, approval_policy`,
    );
  }
  return parsed.data as RoleTable;
}

function toRole(name: string, table: RoleTable, source: string): AgentRole {
  return {
    name,
    source,
    ...(table.description !== undefined ? { description: table.description } : {}),
    ...(table.model !== undefined ? { model: table.model } : {}),
    ...(table.model_reasoning_effort !== undefined ? { reasoningEffort: table.model_reasoning_effort } : {}),
    ...(table.developer_instructions !== undefined ? { developerInstructions: table.developer_instructions } : {}),
    ...(table.harness !== undefined ? { harness: table.harness } : {}),
    ...(table.model_provider !== undefined ? { provider: table.model_provider } : {}),
    ...(table.sandbox_mode !== undefined ? { sandboxMode: table.sandbox_mode } : {}),
    ...(table.approval_policy !== undefined ? { approvalPolicy: table.approval_policy } : {}),
    ...(table.nickname_candidates !== undefined ? { nicknames: table.nickname_candidates } : {}),
  };
}

/** `<dir>/*.toml` role files by role name (a file's `name` key, else its file name). */
function roleFilesIn(dir: string, into: Map<string, { table: RoleTable; file: string }>): void {
  let files: string[] = [];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.toml')).sort();
  } catch {
    // No role folder here.
  }
  for (const file of files) {
    const full = path.join(dir, file);
    const role = readRoleFile(full, dir);
    into.set(role.name ?? file.slice(0, -'.toml'.length), { table: role, file: full });
  }
}

/** `.rig/agents/*.toml` from the project root down to `cwd` (deeper folders win). */
function projectRoleFiles(cwd: string, config: RigConfig): string[] {
  const root = findProjectRoot(cwd, config.project_root_markers ?? ['.git']);
  const dirs: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    dirs.unshift(path.join(dir, PROJECT_CONFIG_DIR, 'agents'));
    if (dir === (root ?? path.resolve(cwd)) || path.dirname(dir) === dir) break;
  }
  return dirs;
}

/**
 * The agents settings of a resolved config. Role files in `<home>/agents/` define roles by file
 * name (or their `name` key); in a trusted project, `.rig/agents/` files do too and override the
 * user's (an untrusted project's are ignored, with a warning naming each file). A `[agents.<role>]`
 * table adds to or overrides the user's file, and its `config_file` is read beneath the table's own
 * keys. Throws ConfigError naming the file.
 */
export function resolveAgents(config: RigConfig, home: string, cwd?: string): AgentsSettings {
  const table = (config.agents ?? {}) as Record<string, unknown>;
  const roles = new Map<string, AgentRole>();
  const warnings: string[] = [];
  const fromFiles = new Map<string, { table: RoleTable; file: string }>();
  roleFilesIn(path.join(home, 'agents'), fromFiles);
  const fromProject = new Map<string, { table: RoleTable; file: string }>();
  if (cwd !== undefined) {
    const dirs = projectRoleFiles(cwd, config);
    if (isProjectTrusted(config, cwd)) {
      for (const dir of dirs) roleFilesIn(dir, fromProject);
    } else {
      const ignored = dirs.flatMap((dir) => {
        try {
          return fs.readdirSync(dir).filter((f) => f.endsWith('.toml')).sort().map((f) => path.join(dir, f));
        } catch {
          return [];
        }
      });
      const projectDir = findProjectRoot(cwd, config.project_root_markers ?? ['.git']) ?? path.resolve(cwd);
      for (const file of ignored) {
        warnings.push(
          `agent role file ignored: ${file} (project ${projectDir} is not trusted). To use it, add to ${path.join(home, 'config.toml')}:\n[projects.${JSON.stringify(projectDir)}]\ntrust_level = "trusted"`,
        );
      }
    }
  }
  const names = new Set([...fromFiles.keys(), ...fromProject.keys(), ...Object.keys(table).filter((k) => !LIMIT_KEYS.has(k))]);
  for (const name of names) {
    const inline = (table[name] ?? {}) as RoleTable;
    const file = fromFiles.get(name);
    const project = fromProject.get(name);
    const referenced = inline.config_file ? readRoleFile(inline.config_file, `[agents.${name}] config_file`) : {};
    const merged: RoleTable = { ...(file?.table ?? {}), ...referenced, ...inline, ...(project?.table ?? {}) };
    const source = project ? project.file : table[name] !== undefined ? `[agents.${name}] in config.toml` : file!.file;
    roles.set(name, toRole(name, merged, source));
  }
  const maxThreads = (table['max_concurrent_threads_per_session'] ?? table['max_threads'] ?? DEFAULT_AGENT_MAX_THREADS) as number;
  if (table['max_concurrent_threads_per_session'] !== undefined && table['max_threads'] !== undefined && table['max_threads'] !== maxThreads) {
    warnings.push(`[agents] sets both max_concurrent_threads_per_session and its alias max_threads; using max_concurrent_threads_per_session = ${maxThreads}`);
  }
  return {
    enabled: table['enabled'] === true,
    v2: config.features['multi_agent_v2'] === true,
    maxThreads,
    maxDepth: (table['max_depth'] ?? DEFAULT_AGENT_MAX_DEPTH) as number,
    ...(typeof table['default_subagent_model'] === 'string' ? { defaultModel: table['default_subagent_model'] } : {}),
    ...(typeof table['default_subagent_reasoning_effort'] === 'string' ? { defaultReasoningEffort: table['default_subagent_reasoning_effort'] } : {}),
    interruptMessage: table['interrupt_message'] !== false,
    roles,
    warnings,
  };
}
