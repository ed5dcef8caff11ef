// Validation of task rows and tables with zod, turned into TaskFileErrors that name the field.
import type { z } from 'zod';
import { describeFound, formatKeyPath, loadZod } from '../../core/config-files.js';
import { TaskFileError } from './types.js';

export type Zod = typeof z;

export function zod(): Zod {
  return loadZod() as Zod;
}

/**
 * Parses `value` with `schema`; the first issue becomes a TaskFileError. `lineOf` maps a field path
 * to its line (TOML files); JSONL rows pass their own line.
 */
export function parseOrThrow<T>(
  schema: z.ZodType<T>,
  value: unknown,
  file: string,
  lineOf: (path: readonly PropertyKey[]) => number | undefined,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  let path = issue.path as PropertyKey[];
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    path = [...path, key];
    message = `unknown field (allowed: ${allowedKeys(schema, issue.path as PropertyKey[]).join(', ') || 'see docs/eval.md'})`;
  } else {
    const found = valueAt(value, path);
    if (found === undefined) message = `missing (${message})`;
    else message = `${message} (found ${describeFound(found)})`;
  }
  throw new TaskFileError(file, lineOf(path), path.length > 0 ? formatKeyPath(path) : undefined, message);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment as string];
  }
  return node;
}

function allowedKeys(schema: unknown, path: readonly PropertyKey[]): string[] {
  let node = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  for (const segment of path) {
    while (node && !node.shape && typeof node.unwrap === 'function') node = node.unwrap() as typeof node;
    node = node?.shape?.[String(segment)] as typeof node;
  }
  while (node && !node.shape && typeof node.unwrap === 'function') node = node.unwrap() as typeof node;
  return node?.shape ? Object.keys(node.shape) : [];
}

/** Reads a JSONL file's rows with their 1-based line numbers; a line that is not JSON is an error. */
export function readJsonlRows(file: string, text: string): { line: number; value: unknown }[] {
  const rows: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) return;
    try {
      rows.push({ line: index + 1, value: JSON.parse(line) });
    } catch (error) {
      throw new TaskFileError(file, index + 1, undefined, `not valid JSON (${(error as Error).message}); each line must be one JSON object`);
    }
  });
  return rows;
}
