// Finds every hook of a session, lowest precedence first (the order they are reported and folded
// in): $RIG_HOME/config.toml `[hooks]`, $RIG_HOME/hooks.json, then per project folder from the
// project root down to the cwd `.rig/config.toml` `[hooks]` and `.rig/hooks.json`. Each layer's
// hooks all run (layers add handlers; they do not replace each other's, unlike other keys).
// Project hooks run only in a trusted project and only once their hash is confirmed.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from '../config/index.js';
import { findKeyLine } from '../config/locate.js';
import { parseHookEvents, type HookLocator } from './config.js';
import { findJsonLine } from './json-locate.js';
import { readHookTrust } from './trust.js';
import type { HookDefinition, HookScope } from './types.js';

export type HookStatus =
  /** Runs. */
  | 'active'
  /** `[hooks.state."<key>"] enabled = false` in the user config. */
  | 'disabled'
  /** A project hook in a project that is not trusted. */
  | 'untrusted-project'
  /** A project hook never confirmed. */
  | 'unconfirmed'
  /** A project hook whose content changed since it was confirmed. */
  | 'modified';

export interface HookListEntry extends HookDefinition {
  status: HookStatus;
}

export interface LoadHooksOptions {
  home: string;
  cwd: string;
  /** The project root (config's project_root_markers); undefined: the cwd alone is the project. */
  projectRoot?: string;
  /** The project is marked trusted in the user config. */
  projectTrusted: boolean;
  ignoreUserConfig?: boolean;
  /** Run unconfirmed project hooks of a trusted project (Codex's --dangerously-bypass-hook-trust). */
  bypassConfirmation?: boolean;
}

export interface LoadedHooks {
  /** The handlers that run, in order. */
  active: HookDefinition[];
  /** Every configured handler with its status (for `rig hooks`-style listings and confirmation). */
  all: HookListEntry[];
  /** Project hooks waiting for confirmation (unconfirmed or modified) in a trusted project. */
  pending: HookListEntry[];
  warnings: string[];
}

interface StateEntry {
  enabled?: boolean;
  trusted_hash?: string;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A cheap look before paying for a TOML parse: most config files have no hooks. */
const MENTIONS_HOOKS = /^\s*(\[\[?\s*hooks\b|hooks\s*[.=])/m;

function tomlLayer(file: string, scope: HookScope, out: Layer[]): Record<string, StateEntry> {
  const text = readText(file);
  if (text === undefined || !MENTIONS_HOOKS.test(text)) return {};
  let data: Record<string, unknown>;
  try {
    data = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const hooks = data['hooks'];
  if (hooks === undefined) return {};
  const locate: HookLocator = (p) => {
    const line = findKeyLine(text, p);
    return line === undefined ? file : `${file}:${line}`;
  };
  out.push({ file, scope, events: hooks, locate, reserved: ['state'], warnUnknown: false });
  const state = (hooks as Record<string, unknown>)['state'];
  return state !== null && typeof state === 'object' ? (state as Record<string, StateEntry>) : {};
}

const JSON_TOP_KEYS = new Set(['hooks', 'description', '$schema']);

function jsonLayer(file: string, scope: HookScope, out: Layer[], warnings: string[]): void {
  const text = readText(file);
  if (text === undefined) return;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const line = text.slice(0, jsonErrorOffset(text)).split('\n').length;
    throw new ConfigError(`${file}:${line}: not valid JSON (${message}); hooks.json holds {"hooks": {"PreToolUse": [...]}}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`${file}:1: hooks.json must be a JSON object like {"hooks": {"PreToolUse": [...]}}`);
  }
  const extra = Object.keys(data).filter((k) => !JSON_TOP_KEYS.has(k));
  if (extra.length > 0) {
    warnings.push(`${file}: ignored keys that are not hook settings: ${extra.join(', ')}`);
  }
  const locate: HookLocator = (p) => {
    const line = findJsonLine(text, p);
    return line === undefined ? file : `${file}:${line}`;
  };
  out.push({ file, scope, events: (data as Record<string, unknown>)['hooks'], locate });
}

/**
 * Where a JSON text stops being valid: the longest prefix whose parse only runs out of input (Node
 * 20's messages do not always give a position).
 */
function jsonErrorOffset(text: string): number {
  const truncatedOnly = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (error) {
      return /end of JSON input|Unterminated/i.test((error as Error).message);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (truncatedOnly(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface Layer {
  file: string;
  scope: HookScope;
  events: unknown;
  locate: HookLocator;
  reserved?: string[];
  warnUnknown?: boolean;
}

/** Folders from the project root down to the cwd (just the cwd without a root). */
function projectDirs(cwd: string, root: string | undefined): string[] {
  const dirs: string[] = [];
  let cur = path.resolve(cwd);
  const stop = root ? path.resolve(root) : cur;
  for (;;) {
    dirs.push(cur);
    if (cur === stop) break;
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  return dirs.reverse();
}

export function loadHooks(options: LoadHooksOptions): LoadedHooks {
  const warnings: string[] = [];
  const layers: Layer[] = [];
  let state: Record<string, StateEntry> = {};
  if (!options.ignoreUserConfig) {
    state = tomlLayer(path.join(options.home, 'config.toml'), 'user', layers);
  }
  jsonLayer(path.join(options.home, 'hooks.json'), 'user', layers, warnings);
  const userLayerCount = layers.length;
  for (const dir of projectDirs(options.cwd, options.projectRoot)) {
    const rigDir = path.join(dir, '.rig');
    // $RIG_HOME may itself sit inside the project tree (a home folder); never read it twice.
    if (path.resolve(rigDir) === path.resolve(options.home)) continue;
    tomlLayer(path.join(rigDir, 'config.toml'), 'project', layers);
    jsonLayer(path.join(rigDir, 'hooks.json'), 'project', layers, warnings);
  }
  const byFolder = new Map<string, Layer[]>();
  for (const layer of layers) {
    const folder = path.dirname(layer.file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), layer]);
  }
  const problems: string[] = [];
  const confirmed = readHookTrust(options.home);
  const all: HookListEntry[] = [];
  layers.forEach((layer, index) => {
    let parsed;
    try {
      parsed = parseHookEvents({
        sourcePath: layer.file,
        scope: layer.scope,
        events: layer.events,
        prefix: ['hooks'],
        locate: layer.locate,
        ...(layer.reserved ? { reserved: layer.reserved } : {}),
        ...(layer.warnUnknown !== undefined ? { warnUnknown: layer.warnUnknown } : {}),
      });
    } catch (error) {
      if (error instanceof ConfigError) {
        problems.push(error.message);
        return;
      }
      throw error;
    }
    warnings.push(...parsed.warnings);
    const siblings = byFolder.get(path.dirname(layer.file)) ?? [];
    if (siblings.length > 1 && siblings[0] === layer && parsed.definitions.length > 0) {
      warnings.push(`loading hooks from both ${siblings.map((s) => s.file).join(' and ')}; prefer one of them for this folder`);
    }
    for (const def of parsed.definitions) {
      const entry = def as HookListEntry;
      const st = state[def.key];
      if (st?.enabled === false) entry.status = 'disabled';
      else if (index < userLayerCount) entry.status = 'active';
      else if (!options.projectTrusted) entry.status = 'untrusted-project';
      else {
        const hash = confirmed.get(def.key) ?? st?.trusted_hash;
        entry.status = hash === def.hash || options.bypassConfirmation ? 'active' : hash === undefined ? 'unconfirmed' : 'modified';
      }
      entry.displayOrder = all.length;
      all.push(entry);
    }
  });
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  const untrusted = all.filter((h) => h.status === 'untrusted-project');
  if (untrusted.length > 0) {
    const files = [...new Set(untrusted.map((h) => h.sourcePath))];
    warnings.push(
      `project hooks not run: ${files.join(', ')} (the project is not trusted). To run them, mark the project ` +
        `trusted in ${path.join(options.home, 'config.toml')} and confirm the hooks`,
    );
  }
  const pending = all.filter((h) => h.status === 'unconfirmed' || h.status === 'modified');
  return { active: all.filter((h) => h.status === 'active'), all, pending, warnings };
}
