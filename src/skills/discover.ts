// Skill discovery, in Codex's order: the user roots ($RIG_HOME/skills, the older location Codex
// keeps, then ~/.agents/skills), then `.agents/skills` in every folder from the project root down
// to the cwd. A SKILL.md reached twice (a symlink) counts once; the list is then ordered repo
// skills first, then by name and path, as Codex orders it. Two skills may share a name: both are
// listed, and a plain `$name` mention of an ambiguous name selects neither (mentions.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.js';
import { MAX_DESCRIPTION_LEN, MAX_NAME_LEN, SKILL_FILE, type SkillError, type SkillLoadOutcome, type SkillMetadata, type SkillScope } from './model.js';

/** Traversal depth under a root, and folders per root (Codex's bounds). */
const MAX_SCAN_DEPTH = 6;
const MAX_DIRS_PER_ROOT = 2000;

export interface DiscoverSkillsOptions {
  /** RIG_HOME. */
  home: string;
  cwd: string;
  /** Project root (config's project_root_markers); undefined: the cwd alone. */
  projectRoot?: string;
  /** The user's home folder, for ~/.agents/skills (default: $HOME). */
  userHome?: string;
}

export function skillRoots(options: DiscoverSkillsOptions): { path: string; scope: SkillScope }[] {
  const userHome = options.userHome ?? (process.env['HOME'] || os.homedir());
  const roots: { path: string; scope: SkillScope }[] = [
    { path: path.join(options.home, 'skills'), scope: 'user' },
    { path: path.join(userHome, '.agents', 'skills'), scope: 'user' },
  ];
  const dirs: string[] = [];
  let cur = path.resolve(options.cwd);
  const stop = options.projectRoot ? path.resolve(options.projectRoot) : cur;
  for (;;) {
    dirs.push(cur);
    if (cur === stop) break;
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const dir of dirs.reverse()) roots.push({ path: path.join(dir, '.agents', 'skills'), scope: 'repo' });
  const seen = new Set<string>();
  return roots.filter((r) => !seen.has(r.path) && seen.add(r.path));
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function singleLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** 1-based line of `field:` in the frontmatter, for messages. */
function fieldLine(text: string, field: string): number | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 1; i < lines.length && lines[i]!.trim() !== '---'; i++) {
    if (new RegExp(`^${field}\\s*:`).test(lines[i]!)) return i + 1;
  }
  return undefined;
}

export async function parseSkillFile(file: string, scope: SkillScope, root: string): Promise<SkillMetadata | SkillError> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { path: file, message: `${file}: failed to read file: ${(error as Error).message}` };
  }
  const split = splitFrontmatter(text);
  if (!split) {
    return { path: file, message: `${file}:1: missing YAML frontmatter delimited by --- (a SKILL.md starts with ---, name: ..., description: ..., ---)` };
  }
  let data: unknown;
  try {
    data = await parseFrontmatter(split.yaml);
  } catch (error) {
    return { path: file, message: `${file}: invalid YAML in the frontmatter: ${(error as Error).message.split('\n')[0]}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { path: file, message: `${file}:2: the frontmatter must be a YAML mapping with name and description` };
  }
  const fields = data as Record<string, unknown>;
  const where = (field: string) => {
    const line = fieldLine(text, field);
    return line === undefined ? file : `${file}:${line}`;
  };
  for (const field of ['name', 'description'] as const) {
    const value = fields[field];
    if (value === undefined || value === null) {
      return { path: file, message: `${file}: missing field \`${field}\` in the frontmatter (both name and description are required)` };
    }
    if (typeof value !== 'string') {
      return { path: file, message: `${where(field)}: invalid ${field}: expected a string, found ${Array.isArray(value) ? 'a list' : typeof value}` };
    }
  }
  const name = singleLine(fields['name'] as string);
  const description = singleLine(fields['description'] as string);
  if (name === '') return { path: file, message: `${where('name')}: invalid name: it is empty` };
  if (description === '') return { path: file, message: `${where('description')}: invalid description: it is empty` };
  if (name.length > MAX_NAME_LEN) {
    return { path: file, message: `${where('name')}: invalid name: ${name.length} characters, at most ${MAX_NAME_LEN} allowed` };
  }
  if (description.length > MAX_DESCRIPTION_LEN) {
    return { path: file, message: `${where('description')}: invalid description: ${description.length} characters, at most ${MAX_DESCRIPTION_LEN} allowed` };
  }
  return { name, description, path: realpath(file), scope, root };
}

function findSkillFiles(root: string): string[] {
  const stat = fs.statSync(root, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return [];
  const found: string[] = [];
  const visited = new Set<string>([realpath(root)]);
  const queue: [string, number][] = [[root, 0]];
  while (queue.length > 0) {
    const [dir, depth] = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = fs.statSync(full, { throwIfNoEntry: false });
        isDir = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
      }
      if (isDir) {
        const real = realpath(full);
        if (depth + 1 > MAX_SCAN_DEPTH || visited.has(real) || visited.size >= MAX_DIRS_PER_ROOT) continue;
        visited.add(real);
        queue.push([full, depth + 1]);
      } else if (isFile && entry.name === SKILL_FILE) {
        found.push(full);
      }
    }
  }
  return found.sort();
}

const SCOPE_RANK: Record<SkillScope, number> = { repo: 0, user: 1 };

export async function discoverSkills(options: DiscoverSkillsOptions): Promise<SkillLoadOutcome> {
  const roots = skillRoots(options);
  const skills: SkillMetadata[] = [];
  const errors: SkillError[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const file of findSkillFiles(root.path)) {
      const parsed = await parseSkillFile(file, root.scope, root.path);
      if ('message' in parsed) {
        errors.push(parsed);
        continue;
      }
      if (seen.has(parsed.path)) continue;
      seen.add(parsed.path);
      skills.push(parsed);
    }
  }
  skills.sort((a, b) => SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] || cmp(a.name, b.name) || cmp(a.path, b.path));
  return { skills, errors, roots };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
