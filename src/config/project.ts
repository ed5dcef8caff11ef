// Project-level config: `.rig/config.toml` files between the project root and the cwd, trusted or
// not, and the keys a project may not set (they would let a cloned repo redirect credentials or run
// commands: providers, base URLs, notify, profiles, trust itself).
import fs from 'node:fs';
import path from 'node:path';
import type { Table } from './overrides.js';
import type { TrustLevel } from './schema.js';

export const PROJECT_CONFIG_DIR = '.rig';

/** Top-level keys (or dotted paths) dropped from project configs. */
export const PROJECT_RESTRICTED_KEYS: readonly string[] = [
  'openai_base_url',
  'chatgpt_base_url',
  'apps_mcp_product_sku',
  'responses_api_metadata',
  'model_provider',
  'model_providers',
  'notify',
  'profile',
  'profiles',
  'experimental_realtime_webrtc_call_base_url',
  'experimental_realtime_ws_base_url',
  'otel',
  'features.respect_system_proxy',
  // rig runs this binary outside the sandbox: a cloned repository must not pick it.
  'ripgrep',
  // rig: a project must not vouch for itself or for other folders.
  'projects',
];

/**
 * A leftover 0-byte `.rig` file (older rig versions' mount placeholder) makes `.rig/config.toml`
 * fail with ENOTDIR, which statSync reports even with throwIfNoEntry off: that means "no file".
 */
function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Nearest ancestor of `dir` (inclusive) holding any marker; undefined if none or markers is empty. */
export function findProjectRoot(dir: string, markers: readonly string[]): string | undefined {
  if (markers.length === 0) return undefined;
  let cur = path.resolve(dir);
  for (;;) {
    if (markers.some((m) => m !== '' && exists(path.join(cur, m)))) return cur;
    const parent = path.dirname(cur);
    if (parent === cur) return undefined;
    cur = parent;
  }
}

/** `.rig/config.toml` files from the project root down to `cwd`, lowest precedence first. */
export function projectConfigFiles(cwd: string, root: string | undefined): string[] {
  const dirs: string[] = [];
  let cur = path.resolve(cwd);
  const stop = root ?? cur;
  for (;;) {
    dirs.push(cur);
    if (cur === stop) break;
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  return dirs
    .reverse()
    .map((d) => path.join(d, PROJECT_CONFIG_DIR, 'config.toml'))
    .filter(isFile);
}

export interface ProjectEntry {
  trust_level?: TrustLevel;
  allow_wider_safety?: boolean;
}

interface TrustSource {
  projects?: Record<string, ProjectEntry>;
  project_root_markers?: readonly string[];
}

/**
 * The `[projects."<path>"]` entry that applies to `dir`: looked up for the folder itself, then its
 * project root (by `project_root_markers`), then its git root. Entries are absolute paths. Only
 * entries with a trust level count (an entry is first of all a trust decision).
 */
export function projectEntry(config: TrustSource, dir: string): ProjectEntry | undefined {
  const entries = config.projects ?? {};
  const byPath = new Map<string, ProjectEntry>();
  for (const [key, entry] of Object.entries(entries)) {
    if (entry.trust_level) byPath.set(path.resolve(key), entry);
  }
  if (byPath.size === 0) return undefined;
  const abs = path.resolve(dir);
  const candidates = [abs, findProjectRoot(abs, config.project_root_markers ?? ['.git']), findProjectRoot(abs, ['.git'])];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const entry = byPath.get(candidate) ?? byPath.get(realpathOr(candidate));
    if (entry) return entry;
  }
  return undefined;
}

/** Does the user's config let the project at `dir` widen safety settings and rules? */
export function projectMayWidenSafety(config: TrustSource, dir: string): boolean {
  return projectEntry(config, dir)?.allow_wider_safety === true;
}

/** The explicit trust entry that applies to `dir` (see projectEntry). */
export function projectTrustLevel(config: TrustSource, dir: string): TrustLevel | undefined {
  return projectEntry(config, dir)?.trust_level;
}

/** True when `dir` (or its project or git root) is marked `trust_level = "trusted"`. */
export function isProjectTrusted(config: TrustSource, dir: string): boolean {
  return projectTrustLevel(config, dir) === 'trusted';
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** Removes restricted keys from a project layer; returns the dotted names that were dropped. */
export function dropRestrictedKeys(layer: Table): string[] {
  const dropped: string[] = [];
  for (const key of PROJECT_RESTRICTED_KEYS) {
    const [head, sub] = key.split('.') as [string, string | undefined];
    if (!(head in layer)) continue;
    if (sub === undefined) {
      delete layer[head];
      dropped.push(key);
      continue;
    }
    const table = layer[head];
    if (table !== null && typeof table === 'object' && sub in table) {
      delete (table as Table)[sub];
      dropped.push(key);
    }
  }
  return dropped;
}
