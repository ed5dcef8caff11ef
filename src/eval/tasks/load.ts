// Finds and loads tasks: a JSONL file (rig's format, or SWE-bench rows when they carry
// instance_id), a Harbor task folder (task.toml), or a folder holding any of those (its *.jsonl
// files and the task folders up to two levels down).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isHarborTaskDir, loadHarborTask } from './harbor.js';
import { loadRigJsonl } from './rig-jsonl.js';
import { loadSwebenchJsonl, looksLikeSwebench, type SwebenchOptions } from './swebench.js';
import { TaskFileError, type EvalTask } from './types.js';

export type { EvalTask } from './types.js';

const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__']);

function loadJsonl(file: string, options: SwebenchOptions): EvalTask[] {
  const text = readFileSync(file, 'utf8');
  return looksLikeSwebench(text) ? loadSwebenchJsonl(file, text, options) : loadRigJsonl(file, text);
}

function harborDirs(dir: string, depth: number): string[] {
  if (isHarborTaskDir(dir)) return [dir];
  if (depth === 0) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => harborDirs(join(dir, entry.name), depth - 1));
}

export function loadTasks(path: string, options: SwebenchOptions = {}): EvalTask[] {
  const target = resolve(path);
  if (!existsSync(target)) throw new TaskFileError(target, undefined, undefined, 'does not exist; pass a tasks .jsonl file, a Harbor task folder or a folder of tasks');
  let tasks: EvalTask[];
  if (statSync(target).isFile()) {
    tasks = loadJsonl(target, options);
  } else if (isHarborTaskDir(target)) {
    tasks = [loadHarborTask(target)];
  } else {
    const jsonl = readdirSync(target)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => join(target, name));
    tasks = [...jsonl.flatMap((file) => loadJsonl(file, options)), ...harborDirs(target, 2).map(loadHarborTask)];
  }
  if (tasks.length === 0) {
    throw new TaskFileError(target, undefined, undefined, 'holds no tasks (no *.jsonl file and no folder with a task.toml)');
  }
  const seen = new Map<string, EvalTask>();
  for (const task of tasks) {
    const before = seen.get(task.id);
    if (before) {
      const where = (t: EvalTask) => `${t.source.file}${t.source.line ? `:${t.source.line}` : ''}`;
      throw new TaskFileError(task.source.file, task.source.line, 'id', `task id ${JSON.stringify(task.id)} is used twice (also at ${where(before)}); ids must be unique`);
    }
    seen.set(task.id, task);
  }
  return tasks;
}
