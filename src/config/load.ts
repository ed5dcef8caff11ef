// Builds the session config from its layers, lowest precedence first:
//   built-in defaults < $RIG_HOME/config.toml < profile ([profiles.NAME] table, then
//   $RIG_HOME/NAME.config.toml) < trusted project .rig/config.toml files (root first, cwd last)
//   < -c overrides (in order) < dedicated CLI flags.
// The project layer sits between profile and -c as in Codex (its precedence 25 vs user 20/profile 21).
// Legacy `profile = "x"` (user config or -c) selects a profile when --profile is not given; rig keeps
// this older Codex behaviour instead of rejecting it, since it costs nothing and breaks no one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './errors.js';
import { readConfigFile, resolveConfigPath, resolveLayerPaths, type ConfigFile } from './files.js';
import { formatKeyPath } from './errors.js';
import { getAtPath, mergeTables, parseOverride, tableAtPath, type Table } from './overrides.js';
import { dropRestrictedKeys, findProjectRoot, projectConfigFiles, projectEntry } from './project.js';
import { narrowProjectLayer } from './project-safety.js';
import { applyDefaults, DEFAULT_PROJECT_ROOT_MARKERS, type RigConfig } from './resolve.js';
import type { ConfigLayer } from './schema.js';
import { locate, validateLayer, type LayerSource } from './validate.js';

export interface ConfigFlags {
  /** -m/--model */
  model?: string;
  /** --provider */
  provider?: string;
  /** -C/--cd, relative to the process cwd; must be an existing directory. */
  cwd?: string;
  /** -s/--sandbox */
  sandbox?: string;
  /** -a/--ask-for-approval */
  approval?: string;
  /** --harness */
  harness?: string;
  /** --add-dir (repeatable): extra writable roots, relative to the process cwd. */
  addDirs?: string[];
}

export interface LoadConfigOptions {
  /** RIG_HOME (see resolveRigHome). */
  home: string;
  /** The process cwd. */
  cwd: string;
  /** --profile NAME */
  profile?: string;
  /** Raw `-c key=value` strings, in command-line order. */
  overrides?: string[];
  flags?: ConfigFlags;
  /** For `~` in paths; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Skip $RIG_HOME/config.toml (profile files and -c still apply). */
  ignoreUserConfig?: boolean;
  /** Unknown keys fail instead of warning. */
  strict?: boolean;
}

export interface LoadedConfig {
  config: RigConfig;
  /** Messages to show the user (unknown keys, ignored project config, ...). */
  warnings: string[];
  /** The session's working directory (-C applied), absolute. */
  cwd: string;
  /** Config files that were applied, lowest precedence first. */
  files: string[];
}

/** $RIG_HOME if set and non-empty, else ~/.rig. */
export function resolveRigHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env['RIG_HOME'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return path.resolve(fromEnv);
  return path.join(env['HOME'] || os.homedir(), '.rig');
}

interface Layer {
  value: ConfigLayer;
  file?: string;
  /** Where the layer came from, for messages about the merged config; `prefix` is its path there. */
  source?: LayerSource;
  prefix?: string[];
}

export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const strict = options.strict ?? false;
  const processCwd = path.resolve(options.cwd);
  const flags = options.flags ?? {};
  const cwd = flags.cwd === undefined ? processCwd : resolveCd(processCwd, flags.cwd);
  const warnings: string[] = [];

  const accept = (data: Table, source: LayerSource, baseDir: string): ConfigLayer => {
    const { value, warnings: w } = validateLayer(data, source, strict);
    warnings.push(...w);
    resolveLayerPaths(value, baseDir, env);
    return value;
  };
  const acceptFile = (file: ConfigFile): Layer => {
    const source: LayerSource = { kind: 'file', path: file.path, text: file.text };
    return { value: accept(file.data, source, path.dirname(file.path)), file: file.path, source };
  };

  const userPath = path.join(options.home, 'config.toml');
  const userFile = options.ignoreUserConfig ? undefined : readConfigFile(userPath);
  const user = userFile ? acceptFile(userFile) : undefined;

  const overrides: Layer[] = (options.overrides ?? []).map((raw) => {
    const { path: keyPath, value } = parseOverride(raw);
    const source: LayerSource = { kind: 'override', raw };
    return { value: accept(tableAtPath(keyPath, value), source, cwd), source };
  });

  const overrideProfile = lastDefined(overrides.map((o) => o.value.profile));
  const profileName = options.profile ?? overrideProfile ?? user?.value.profile;
  const profileLayers = profileName === undefined ? [] : loadProfile(profileName, options.home, user, acceptFile);
  if (profileName !== undefined && profileLayers.length === 0) {
    const byLegacyKey = options.profile === undefined && overrideProfile === undefined;
    const suffix = byLegacyKey ? ` (selected by profile = "${profileName}" in ${userPath})` : '';
    throw new ConfigError(
      `profile "${profileName}" not found: no [profiles.${profileName}] in ${userPath} and no ` +
        `${path.join(options.home, `${profileName}.config.toml`)}${suffix}`,
    );
  }

  // Markers and trust come from layers a project cannot influence.
  const userLevelLayers = [...(user ? [user] : []), ...profileLayers, ...overrides];
  const userLevel = mergeLayers(userLevelLayers);
  const markers = userLevel.project_root_markers ?? [...DEFAULT_PROJECT_ROOT_MARKERS];
  const projectRoot = findProjectRoot(cwd, markers);
  const entry = projectEntry(userLevel, cwd);
  const trust = entry?.trust_level;
  const narrowTo = entry?.allow_wider_safety === true ? undefined : applyDefaults(userLevel, trust, (keyPath) => locateInLayers(userLevelLayers, keyPath));
  const projectLayers = loadProjectLayers(cwd, projectRoot, trust, options.home, warnings, acceptFile, narrowTo);

  const flagLayer = flagsLayer(flags, accept, cwd);
  const layers = [...(user ? [user] : []), ...profileLayers, ...projectLayers, ...overrides, flagLayer];
  const config = applyDefaults(mergeLayers(layers), trust, (keyPath) => locateInLayers(layers, keyPath));
  if (profileName !== undefined) config.profile = profileName;
  else delete config.profile;
  for (const dir of flags.addDirs ?? []) {
    const abs = resolveConfigPath(dir, processCwd, env);
    if (!config.sandbox_workspace_write.writable_roots.includes(abs)) config.sandbox_workspace_write.writable_roots.push(abs);
  }
  const files = layers.flatMap((l) => (l.file ? [l.file] : []));
  return { config, warnings, cwd, files };
}

function resolveCd(processCwd: string, dir: string): string {
  const abs = path.resolve(processCwd, dir);
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) throw new ConfigError(`-C/--cd ${dir}: directory ${abs} does not exist`);
  if (!stat.isDirectory()) throw new ConfigError(`-C/--cd ${dir}: ${abs} is not a directory`);
  return abs;
}

function loadProfile(
  name: string,
  home: string,
  user: Layer | undefined,
  acceptFile: (f: ConfigFile) => Layer,
): Layer[] {
  if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name)) {
    throw new ConfigError(`invalid profile name ${JSON.stringify(name)}: a profile name cannot contain "/" or "\\"`);
  }
  const layers: Layer[] = [];
  const table = user?.value.profiles?.[name];
  // Its file (config.toml) is already listed as the user layer.
  if (table) layers.push({ value: table, ...(user?.source ? { source: user.source, prefix: ['profiles', name] } : {}) });
  const file = readConfigFile(path.join(home, `${name}.config.toml`));
  if (file) layers.push(acceptFile(file));
  return layers;
}

function loadProjectLayers(
  cwd: string,
  root: string | undefined,
  trust: 'trusted' | 'untrusted' | undefined,
  home: string,
  warnings: string[],
  acceptFile: (f: ConfigFile) => Layer,
  narrowTo: RigConfig | undefined,
): Layer[] {
  const files = projectConfigFiles(cwd, root);
  if (files.length === 0) return [];
  const projectDir = root ?? cwd;
  if (trust !== 'trusted') {
    const why = trust === 'untrusted' ? 'is marked untrusted' : 'is not trusted';
    warnings.push(
      `project config ignored: ${files.join(', ')} (project ${projectDir} ${why}). To use it, add to ` +
        `${path.join(home, 'config.toml')}:\n[projects.${JSON.stringify(projectDir)}]\ntrust_level = "trusted"`,
    );
    return [];
  }
  const layers: Layer[] = [];
  for (const f of files) {
    const file = readConfigFile(f);
    if (!file) continue;
    const dropped = dropRestrictedKeys(file.data);
    if (dropped.length > 0) {
      warnings.push(
        `${f}: ignored keys a project config may not set: ${dropped.join(', ')}. ` +
          `To apply them, set them in ${path.join(home, 'config.toml')}`,
      );
    }
    const layer = acceptFile(file);
    const wider = narrowTo ? narrowProjectLayer(layer.value, narrowTo) : [];
    if (wider.length > 0) {
      warnings.push(
        `${f}: ignored settings wider than your own config (a project config can only narrow safety settings): ` +
          `${wider.join('; ')}. To let this project widen them, add \`allow_wider_safety = true\` to its ` +
          `[projects.${JSON.stringify(projectDir)}] table in ${path.join(home, 'config.toml')}`,
      );
    }
    layers.push(layer);
  }
  return layers;
}

function flagsLayer(
  flags: ConfigFlags,
  accept: (data: Table, source: LayerSource, baseDir: string) => ConfigLayer,
  cwd: string,
): Layer {
  const data: Table = {};
  const labels: Record<string, string> = {};
  const set = (key: string, value: string | undefined, flag: string) => {
    if (value === undefined) return;
    data[key] = value;
    labels[key] = `${flag} ${value}`;
  };
  set('model', flags.model, '--model');
  set('model_provider', flags.provider, '--provider');
  set('sandbox_mode', flags.sandbox, '--sandbox');
  set('approval_policy', flags.approval, '--ask-for-approval');
  set('harness', flags.harness, '--harness');
  return { value: accept(data, { kind: 'flags', labels }, cwd) };
}

/** The place of the highest layer that sets `keyPath`, for an error about the merged config. */
function locateInLayers(layers: readonly Layer[], keyPath: readonly string[]): string {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    if (layer.source && getAtPath(layer.value, keyPath) !== undefined) return locate(layer.source, [...(layer.prefix ?? []), ...keyPath]);
  }
  return formatKeyPath(keyPath);
}

function mergeLayers(layers: readonly Layer[]): ConfigLayer {
  let merged: Table = {};
  for (const layer of layers) merged = mergeTables(merged, layer.value as Table);
  return merged as ConfigLayer;
}

function lastDefined<T>(values: readonly (T | undefined)[]): T | undefined {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return values[i];
  return undefined;
}
