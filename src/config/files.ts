// Reading one config file into a layer, and making the paths inside a layer absolute.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { ConfigError } from './errors.js';
import type { Table } from './overrides.js';
import type { ConfigLayer, ProfileConfig } from './schema.js';

export interface ConfigFile {
  path: string;
  text: string;
  data: Table;
}

/** Reads and parses a TOML file; undefined if it does not exist. */
export function readConfigFile(file: string): ConfigFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(`${file}: cannot read config file: ${(err as Error).message}`);
  }
  try {
    return { path: file, text, data: parseToml(text, { unsafeKeyBehaviour: 'drop' }) as Table };
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? err.message;
      throw new ConfigError(`${file}:${err.line}:${err.column}: invalid TOML: ${reason}\n${err.codeblock}`.trimEnd());
    }
    throw err;
  }
}

/** `~/x` -> `$HOME/x`; relative -> against `baseDir`. */
export function resolveConfigPath(p: string, baseDir: string, env: NodeJS.ProcessEnv): string {
  if (p === '~' || p.startsWith('~/')) return path.join(env['HOME'] ?? os.homedir(), p.slice(1));
  return path.resolve(baseDir, p);
}

const PATH_KEYS = ['model_instructions_file', 'experimental_compact_prompt_file', 'replay_file', 'harnesses_dir'] as const;

/**
 * Paths in a file are relative to that file's folder (as in Codex); in `-c` overrides, to the cwd.
 * Done per layer, before merging, while it is still known where each value came from.
 */
export function resolveLayerPaths(layer: ConfigLayer, baseDir: string, env: NodeJS.ProcessEnv): void {
  resolveSectionPaths(layer, baseDir, env);
  for (const profile of Object.values(layer.profiles ?? {})) resolveSectionPaths(profile, baseDir, env);
}

function resolveSectionPaths(section: ProfileConfig, baseDir: string, env: NodeJS.ProcessEnv): void {
  for (const key of PATH_KEYS) {
    const value = section[key];
    if (value !== undefined) section[key] = resolveConfigPath(value, baseDir, env);
  }
  for (const server of Object.values(section.mcp_servers ?? {})) {
    if (server.cwd !== undefined) server.cwd = resolveConfigPath(server.cwd, baseDir, env);
  }
  // A role's config_file is relative to the file that names it, like every other path.
  for (const [key, role] of Object.entries(section.agents ?? {})) {
    if (isRoleTable(role) && typeof role.config_file === 'string') {
      (section.agents as Record<string, { config_file?: string }>)[key] = { ...role, config_file: resolveConfigPath(role.config_file, baseDir, env) };
    }
  }
  const roots = section.sandbox_workspace_write?.writable_roots;
  if (section.sandbox_workspace_write && roots) {
    section.sandbox_workspace_write.writable_roots = roots.map((r) => resolveConfigPath(r, baseDir, env));
  }
}

function isRoleTable(value: unknown): value is { config_file?: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
