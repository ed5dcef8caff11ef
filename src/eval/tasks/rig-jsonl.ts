// rig's own task format: one JSON object per line.
//   {"id": "js-sum-range", "repo": "repos/sum-range", "prompt": "...", "check": "node --test test/",
//    "tests": "checks/sum-range", "solution": "solutions/sum-range", "setup": "...", "timeout_s": 600,
//    "check_timeout_s": 120, "max_tokens": 200000, "commit": "HEAD", "env": {...}, "tags": [...]}
// Paths are relative to the JSONL file.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { TASK_ID_PATTERN, TaskFileError, type EvalTask } from './types.js';
import { parseOrThrow, readJsonlRows, zod } from './validate.js';

function rowSchema() {
  const z = zod();
  const text = z.string().min(1, { error: 'must not be empty' });
  const seconds = z.number({ error: 'must be a number of seconds' }).positive({ error: 'must be a positive number of seconds' });
  return z.strictObject({
    id: z.string().regex(TASK_ID_PATTERN, { error: 'must be letters, digits, ".", "_" or "-" (at most 200), starting with a letter or digit' }),
    repo: text,
    prompt: text,
    check: text,
    setup: text.optional(),
    tests: text.optional(),
    solution: text.optional(),
    commit: text.optional(),
    timeout_s: seconds.optional(),
    check_timeout_s: seconds.optional(),
    max_tokens: z.number().int({ error: 'must be a whole number' }).positive({ error: 'must be positive' }).optional(),
    env: z.record(z.string(), z.string()).optional(),
    tags: z.array(z.string()).optional(),
  });
}

type Row = z.infer<ReturnType<typeof rowSchema>>;

export function loadRigJsonl(file: string, text: string): EvalTask[] {
  const schema = rowSchema();
  const base = dirname(file);
  return readJsonlRows(file, text).map(({ line, value }) => {
    const row: Row = parseOrThrow(schema, value, file, () => line);
    const folder = (field: string, value: string): string => {
      const path = resolve(base, value);
      if (!existsSync(path) || !statSync(path).isDirectory()) {
        throw new TaskFileError(file, line, field, `${JSON.stringify(value)} is not a folder (resolved to ${path}; paths are relative to the task file)`);
      }
      return path;
    };
    return {
      id: row.id,
      format: 'rig',
      source: { file, line },
      prompt: row.prompt,
      repo: folder('repo', row.repo),
      ...(row.commit ? { commit: row.commit } : {}),
      ...(row.setup ? { setup: row.setup } : {}),
      check: {
        kind: 'command',
        command: row.check,
        ...(row.tests ? { testsDir: folder('tests', row.tests) } : {}),
        ...(row.env ? { env: row.env } : {}),
      },
      ...(row.timeout_s ? { agentTimeoutMs: Math.round(row.timeout_s * 1000) } : {}),
      ...(row.check_timeout_s ? { checkTimeoutMs: Math.round(row.check_timeout_s * 1000) } : {}),
      ...(row.max_tokens ? { maxTokens: row.max_tokens } : {}),
      ...(row.solution ? { solution: { kind: 'overlay', dir: folder('solution', row.solution) } } : {}),
      ...(row.tags ? { tags: row.tags } : {}),
    } satisfies EvalTask;
  });
}
