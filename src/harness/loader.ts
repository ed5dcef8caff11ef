// Finds and loads harness profiles: built-ins shipped in the package, then RIG_HOME/harnesses/,
// then each trusted project's .rig/harnesses/ (a later layer replaces an earlier one by id).
// Loading is lazy: a session reads only the chosen profile; `harness list` reads the headers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { shippedProfileData } from './builtin-profiles.js';
import { profileSchemas, type ProfileFile } from './profile-schema.js';
import {
  CapabilityOptionError,
  HarnessProfileError,
  type CapabilityRegistry,
  type HarnessProfile,
  type ProfileOrigin,
  type ResolvedTool,
} from './profile.js';

export interface ProfileSearchOptions {
  /** RIG_HOME; its `harnesses/` directory is searched. */
  rigHome?: string;
  /** The user's profile directory instead of `$RIG_HOME/harnesses` (config `harnesses_dir`). */
  userDir?: string;
  /** Roots of trusted projects, outermost first; their `.rig/harnesses/` are searched. */
  trustedProjectRoots?: string[];
  /** Overrides the built-in directory (tests). */
  builtinDir?: string;
}

export interface ProfileLocation {
  id: string;
  file: string;
  origin: ProfileOrigin;
}

/** The package's own profile directory, found from this module's location (works bundled too). */
export function builtinProfileDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'src', 'harness', 'profiles');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        'rig installation is incomplete: src/harness/profiles/ was not found above ' +
          fileURLToPath(import.meta.url),
      );
    }
    dir = parent;
  }
}

function searchDirs(options: ProfileSearchOptions): { dir: string; origin: ProfileOrigin }[] {
  const dirs: { dir: string; origin: ProfileOrigin }[] = [
    { dir: options.builtinDir ?? builtinProfileDir(), origin: 'builtin' },
  ];
  const userDir = options.userDir ?? (options.rigHome ? join(options.rigHome, 'harnesses') : undefined);
  if (userDir) dirs.push({ dir: userDir, origin: 'user' });
  for (const root of options.trustedProjectRoots ?? []) {
    dirs.push({ dir: join(root, '.rig', 'harnesses'), origin: 'project' });
  }
  return dirs;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
}

/** Every profile that would be found, the winning file per id, sorted by id. */
export function listProfileLocations(options: ProfileSearchOptions = {}): ProfileLocation[] {
  const byId = new Map<string, ProfileLocation>();
  for (const { dir, origin } of searchDirs(options)) {
    for (const name of jsonFiles(dir)) {
      const id = name.slice(0, -'.json'.length);
      byId.set(id, { id, file: join(dir, name), origin });
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Where the profile with this id comes from, or undefined when no layer has it. */
export function locateProfile(id: string, options: ProfileSearchOptions = {}): ProfileLocation | undefined {
  let found: ProfileLocation | undefined;
  for (const { dir, origin } of searchDirs(options)) {
    const file = join(dir, `${id}.json`);
    if (existsSync(file)) found = { id, file, origin };
  }
  return found;
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? lineAndColumn(text, Number(position[1])) : '(file)';
    throw new HarnessProfileError(file, where, `invalid JSON: ${message}`);
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function firstIssue(file: string, error: z.ZodError): HarnessProfileError {
  const issue = error.issues[0];
  if (!issue) return new HarnessProfileError(file, '(root)', 'invalid profile');
  let path = [...issue.path];
  let problem = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    path = [...path, keys[0] ?? ''];
    problem = `unknown field (allowed fields are listed in src/harness/profile-schema.ts)`;
  }
  return new HarnessProfileError(file, fieldPath(path), problem);
}

function expandPath(baseDir: string, path: string): string {
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

function readReferenced(file: string, field: string, path: string): string {
  return readReferencedBytes(file, field, path).toString('utf8');
}

function readReferencedBytes(file: string, field: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new HarnessProfileError(file, field, `cannot read ${path}: ${why}`);
  }
}

function parseProfile(file: string, text: string): ProfileFile {
  // jitless: a one-shot parse does not repay zod compiling a fast path (as in config).
  const parsed = profileSchemas().profileSchema.safeParse(parseJson(file, text), { jitless: true });
  if (!parsed.success) throw firstIssue(file, parsed.error);
  return parsed.data;
}

/**
 * Reads and validates one profile file, resolving its prompt and description files. A built-in
 * profile as shipped was validated at build time (builtin-profiles.ts); any other is parsed here.
 */
export function readProfileFile(file: string, origin: ProfileOrigin): HarnessProfile {
  const bytes = readReferencedBytes(file, '(file)', file);
  const expectedId = file.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
  const data = (origin === 'builtin' ? shippedProfileData(expectedId, bytes) : undefined) ?? parseProfile(file, bytes.toString('utf8'));
  if (data.id !== expectedId) {
    throw new HarnessProfileError(file, 'id', `is "${data.id}" but the file is named ${expectedId}.json; they must match`);
  }
  const baseDir = dirname(file);
  const promptFile = expandPath(baseDir, data.prompt_file);
  const prompt = readReferenced(file, 'prompt_file', promptFile);
  const instanceTemplate =
    data.instance_template_file !== undefined
      ? readReferenced(file, 'instance_template_file', expandPath(baseDir, data.instance_template_file))
      : undefined;
  const seen = new Set<string>();
  const tools: ResolvedTool[] = data.tools.map((tool, index) => {
    const at = `tools[${index}]`;
    if (seen.has(tool.name)) throw new HarnessProfileError(file, `${at}.name`, `duplicate tool name "${tool.name}"`);
    seen.add(tool.name);
    if (tool.description !== undefined && tool.description_file !== undefined) {
      throw new HarnessProfileError(file, `${at}.description_file`, 'give description or description_file, not both');
    }
    const description =
      tool.description_file !== undefined
        ? readReferenced(file, `${at}.description_file`, expandPath(baseDir, tool.description_file)).trimEnd()
        : tool.description;
    const { description_file: _unused, ...rest } = tool;
    const resolvedTool: ResolvedTool = { ...rest, options: { ...data.aliases, ...tool.options }, at };
    if (description !== undefined) resolvedTool.description = description;
    return resolvedTool;
  });
  if (data.protocol === 'tools' && tools.length === 0) {
    throw new HarnessProfileError(file, 'tools', 'a tool-calling profile needs at least one tool');
  }
  return {
    id: data.id,
    description: data.description,
    wires: data.wires,
    protocol: data.protocol,
    ...(data.submit_sentinel !== undefined ? { submitSentinel: data.submit_sentinel } : {}),
    prompt,
    promptFile,
    ...(instanceTemplate !== undefined ? { instanceTemplate } : {}),
    tools,
    request: data.request,
    aliases: data.aliases,
    sources: data.sources,
    notes: data.notes,
    ...(data.fidelity ? { fidelity: data.fidelity } : {}),
    ...(data.capture ? { capture: data.capture } : {}),
    file,
    origin,
  };
}

/**
 * Binds every tool of a profile to its capability. A tool whose capability is not registered,
 * or whose options the capability rejects, fails the load: an advertised tool always has a handler.
 */
export function bindProfileTools<T>(profile: HarnessProfile, registry: CapabilityRegistry<T>): T[] {
  return profile.tools.map((tool) => {
    const factory = registry.get(tool.capability);
    if (!factory) {
      const known = [...registry.keys()].sort().join(', ');
      throw new HarnessProfileError(
        profile.file,
        `${tool.at}.capability`,
        `unknown capability "${tool.capability}" for tool "${tool.name}"; known capabilities: ${known}`,
      );
    }
    try {
      return factory(tool, profile);
    } catch (error) {
      if (error instanceof CapabilityOptionError) {
        throw new HarnessProfileError(profile.file, `${tool.at}.${error.field}`, error.problem);
      }
      throw error;
    }
  });
}

/**
 * The one way to get a profile by id: locate the winning layer, then read and check the file.
 * `why` says how the id was chosen (e.g. the routing reason), for the error when nothing matches.
 */
export function findProfile(id: string, options: ProfileSearchOptions = {}, why?: string): HarnessProfile {
  const location = locateProfile(id, options);
  if (!location) {
    const known = listProfileLocations(options)
      .map((entry) => entry.id)
      .join(', ');
    throw new Error(`unknown harness "${id}"${why ? ` (${why})` : ''}; available harnesses (see \`rig harness list\`): ${known}`);
  }
  return readProfileFile(location.file, location.origin);
}
