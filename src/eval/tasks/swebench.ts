// SWE-bench-style rows (one JSON object per line): instance_id, repo, base_commit,
// problem_statement, FAIL_TO_PASS, PASS_TO_PASS (JSON arrays, or the dataset's JSON-encoded strings),
// test_patch, patch (the gold patch: used only to validate the task), and the test command as
// `test_cmd` (or `test_command`). Other dataset fields (hints_text, version, created_at, ...) are
// accepted and ignored. No Docker here: `repo` must already be cloned on this machine, as a path
// (relative to the JSONL file) or as "owner/name" / a git URL looked up under the repos folder.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { z } from 'zod';
import { TaskFileError, type EvalTask } from './types.js';
import { parseOrThrow, readJsonlRows, zod } from './validate.js';

function rowSchema() {
  const z = zod();
  const text = z.string().min(1, { error: 'must not be empty' });
  const testList = z.union([z.array(z.string()), z.string()], { error: 'must be an array of test names (or a JSON-encoded array)' });
  return z.looseObject({
    instance_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/, { error: 'must be letters, digits, ".", "_" or "-"' }),
    repo: text,
    base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, { error: 'must be a commit hash' }),
    problem_statement: text,
    FAIL_TO_PASS: testList,
    PASS_TO_PASS: testList.optional(),
    test_patch: z.string().optional(),
    patch: z.string().optional(),
    test_cmd: text.optional(),
    test_command: text.optional(),
    timeout_s: z.number().positive().optional(),
  });
}

type Row = z.infer<ReturnType<typeof rowSchema>>;

export interface SwebenchOptions {
  /** Where "owner/name" repos are cloned (default: the JSONL file's folder). */
  reposDir?: string;
}

/** True when the first row looks like SWE-bench (has instance_id). */
export function looksLikeSwebench(text: string): boolean {
  const first = text.split('\n').find((line) => line.trim() !== '' && !line.trim().startsWith('//'));
  if (!first) return false;
  try {
    const value = JSON.parse(first) as Record<string, unknown>;
    return typeof value === 'object' && value !== null && 'instance_id' in value;
  } catch {
    return false;
  }
}

function testNames(file: string, line: number, field: string, value: string[] | string | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed) && parsed.every((name) => typeof name === 'string')) return parsed as string[];
  } catch {
    // reported below
  }
  throw new TaskFileError(file, line, field, 'is a string but not a JSON-encoded array of test names');
}

function isGitTopLevel(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

function locateClone(file: string, line: number, repo: string, reposDir: string): string {
  const candidates: string[] = [];
  if (isAbsolute(repo) || repo.startsWith('.')) candidates.push(resolve(dirname(file), repo));
  else {
    // owner/name, or a URL ending in owner/name(.git)
    const match = /([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(repo);
    if (match) {
      const [, owner, name] = match;
      candidates.push(join(reposDir, `${owner}__${name}`), join(reposDir, owner!, name!), join(reposDir, name!));
    }
    candidates.push(resolve(dirname(file), repo));
  }
  const found = candidates.find((dir) => existsSync(dir) && statSync(dir).isDirectory() && isGitTopLevel(dir));
  if (found) return found;
  throw new TaskFileError(
    file,
    line,
    'repo',
    `no git clone of ${JSON.stringify(repo)} found (looked in ${candidates.join(', ')}); clone it there (rig eval runs offline), or pass --repos DIR`,
  );
}

/** Commits (of `wanted`) missing from the repository, asked of git in one process. */
function missingCommits(repo: string, wanted: string[]): Set<string> {
  const input = wanted.map((commit) => `${commit}^{commit}`).join('\n') + '\n';
  const output = execFileSync('git', ['-C', repo, 'cat-file', '--batch-check'], { input, encoding: 'utf8' });
  const missing = new Set<string>();
  output.split('\n').forEach((answer, index) => {
    if (index < wanted.length && answer.endsWith(' missing')) missing.add(wanted[index]!);
  });
  return missing;
}

export function loadSwebenchJsonl(file: string, text: string, options: SwebenchOptions = {}): EvalTask[] {
  const schema = rowSchema();
  const reposDir = options.reposDir ?? dirname(file);
  const rows: { line: number; row: Row; repo: string }[] = readJsonlRows(file, text).map(({ line, value }) => {
    const row: Row = parseOrThrow(schema, value, file, () => line);
    if (!row.test_cmd && !row.test_command) {
      throw new TaskFileError(file, line, 'test_cmd', 'missing: the command that runs the tests (the test names are appended, or replace {tests})');
    }
    return { line, row, repo: locateClone(file, line, row.repo, reposDir) };
  });
  const byRepo = new Map<string, { line: number; commit: string }[]>();
  for (const { line, row, repo } of rows) byRepo.set(repo, [...(byRepo.get(repo) ?? []), { line, commit: row.base_commit }]);
  for (const [repo, commits] of byRepo) {
    const missing = missingCommits(repo, commits.map((c) => c.commit));
    const first = commits.find((c) => missing.has(c.commit));
    if (first) throw new TaskFileError(file, first.line, 'base_commit', `${first.commit} is not a commit of ${repo}; fetch it (git -C ${repo} fetch) or fix the row`);
  }
  return rows.map(({ line, row, repo }) => ({
    id: row.instance_id,
    format: 'swebench',
    source: { file, line },
    prompt: row.problem_statement,
    repo,
    commit: row.base_commit,
    check: {
      kind: 'swebench',
      testCommand: (row.test_cmd ?? row.test_command)!,
      ...(row.test_patch ? { testPatch: row.test_patch } : {}),
      failToPass: testNames(file, line, 'FAIL_TO_PASS', row.FAIL_TO_PASS),
      passToPass: testNames(file, line, 'PASS_TO_PASS', row.PASS_TO_PASS),
    },
    ...(row.timeout_s ? { agentTimeoutMs: Math.round(row.timeout_s * 1000) } : {}),
    ...(row.patch ? { solution: { kind: 'patch', patch: row.patch } } : {}),
    tags: [basename(repo)],
  }) satisfies EvalTask);
}
