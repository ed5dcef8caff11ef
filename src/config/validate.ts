// Validates one layer against the schema and turns zod issues into user messages that name the
// place (file:line, `-c ...`, or the flag), the key, what was found and what is allowed.
import type { z } from 'zod';
import { ConfigError, describeFound, formatKeyPath } from './errors.js';
import { copyLayer, fastAcceptsLayer } from './fast-check.js';
import { findKeyLine } from './locate.js';
import { checkMcpServersLayer } from './mcp-servers.js';
import { getAtPath, isTable, type Table } from './overrides.js';
import { checkWebSearchLayer } from './web-search.js';
import { ripgrepSettingProblem } from './ripgrep.js';
import { CODEX_INERT } from './codex-keys.js';
import { layerSchemaFor, REASONING_EFFORTS, type ConfigLayer } from './schema.js';

export type LayerSource =
  | { kind: 'file'; path: string; text: string }
  | { kind: 'override'; raw: string }
  /** CLI flags; `labels` maps a top-level key to the flag text that set it (`--sandbox bogus`). */
  | { kind: 'flags'; labels: Record<string, string> };

export interface ValidatedLayer {
  value: ConfigLayer;
  warnings: string[];
}

type Issue = z.core.$ZodIssue;

// Each layer is parsed once per process: compiling zod's eval fast path costs more than it saves.
const PARSE_OPTIONS = { error: expectedText, jitless: true };

/** Where a key path comes from, as a message prefix. */
export function locate(source: LayerSource, path: readonly PropertyKey[]): string {
  switch (source.kind) {
    case 'file': {
      const line = findKeyLine(source.text, path);
      return line === undefined ? source.path : `${source.path}:${line}`;
    }
    case 'override':
      return `-c ${source.raw}`;
    case 'flags':
      return source.labels[String(path[0])] ?? 'command line';
  }
}

/**
 * A layer passes a fast check first (fast-check.ts); one it cannot vouch for is parsed with zod.
 * Unknown keys are dropped with a warning (an error when `strict`); anything else wrong throws a
 * ConfigError listing every problem, one per line.
 */
export function validateLayer(data: Table, source: LayerSource, strict = false): ValidatedLayer {
  if (Object.keys(data).length === 0) return { value: {}, warnings: [] };
  // The common case: a valid layer with no unknown keys is taken as it is, without loading zod.
  if (fastAcceptsLayer(data)) {
    const value = copyLayer(data) as ConfigLayer;
    return { value, warnings: softWarnings(value, source) };
  }
  const schema = layerSchemaFor(Object.keys(data));
  const first = schema.safeParse(data, PARSE_OPTIONS);
  if (first.success) return { value: first.data, warnings: softWarnings(first.data, source) };

  const issues = sortByLine(flattenIssues(first.error.issues, [], data), source);
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys');
  const problems = issues.filter((i) => i.code !== 'unrecognized_keys').map((i) => describeIssue(i, data, source));
  const unknownMessages = unknown.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => {
          const keyPath = [...i.path, key];
          return `${locate(source, keyPath)}: unknown config key "${formatKeyPath(keyPath)}"`;
        })
      : [],
  );
  if (strict) problems.push(...unknownMessages);
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));

  const cleaned = structuredClone(data);
  for (const issue of unknown) {
    if (issue.code !== 'unrecognized_keys') continue;
    const parent = getAtPath(cleaned, issue.path);
    if (isTable(parent)) for (const key of issue.keys) delete parent[key];
  }
  const second = schema.safeParse(cleaned, PARSE_OPTIONS);
  if (!second.success) {
    throw new ConfigError(second.error.issues.map((i) => describeIssue(i, cleaned, source)).join('\n'));
  }
  const warnings = unknownMessages.map((m) => `${m} (ignored)`);
  return { value: second.data, warnings: [...warnings, ...softWarnings(second.data, source)] };
}

/** Problems in file order, so the user can fix them top to bottom. */
function sortByLine(issues: Issue[], source: LayerSource): Issue[] {
  if (source.kind !== 'file') return issues;
  const line = (i: Issue) =>
    findKeyLine(source.text, i.code === 'unrecognized_keys' ? [...i.path, i.keys[0] ?? ''] : i.path) ?? 0;
  return issues
    .map((issue) => ({ issue, line: line(issue) }))
    .sort((a, b) => a.line - b.line)
    .map((x) => x.issue);
}

/**
 * A union failure hides the useful issue: when the value is a table and exactly one branch got past
 * the type check, report that branch's issues instead (e.g. a bad field inside `{granular = ...}`).
 */
function flattenIssues(issues: readonly Issue[], prefix: PropertyKey[], root: unknown): Issue[] {
  const out: Issue[] = [];
  for (const raw of issues) {
    const issue = { ...raw, path: [...prefix, ...raw.path] } as Issue;
    if (issue.code === 'invalid_union' && isTable(getAtPath(root, issue.path))) {
      const deeper = issue.errors.filter((branch) => !branch.every((b) => b.path.length === 0));
      if (deeper.length === 1 && deeper[0]) {
        out.push(...flattenIssues(deeper[0], issue.path, root));
        continue;
      }
    }
    out.push(issue);
  }
  return out;
}

function describeIssue(issue: Issue, data: unknown, source: LayerSource): string {
  const where = locate(source, issue.path);
  const key = formatKeyPath(issue.path);
  const found = describeFound(getAtPath(data, issue.path));
  const what = issue.code === 'invalid_type' ? 'invalid type' : 'invalid value';
  return `${where}: ${what} for ${key}: found ${found}, expected ${issue.message}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'a table',
  record: 'a table',
  array: 'an array',
};

/** Per-parse error map: the "expected ..." half of each message, unless the schema set its own. */
function expectedText(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_NAMES[issue.expected] ?? String(issue.expected);
    case 'invalid_value':
      return issue.values.length === 1
        ? JSON.stringify(issue.values[0])
        : 'one of ' + issue.values.map((v) => JSON.stringify(v)).join(', ');
    case 'too_big':
      return issue.origin === 'array'
        ? `at most ${String(issue.maximum)} entries`
        : `a number ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `at least ${String(issue.minimum)} entries`
        : `a number ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`;
    default:
      return undefined;
  }
}

/**
 * Settings rig validates (so a Codex config loads) but does not act on yet: say so, and say what is
 * missing, rather than let a user believe that their `notify` program or hooks are running.
 */
const NOT_YET_ACTIVE: Partial<Record<keyof ConfigLayer, string>> = {};

/**
 * Accepted values that are probably mistakes, and settings that have no effect yet; and the
 * checks across keys the schema cannot express (MCP server tables, web_search), which throw.
 */
function softWarnings(layer: ConfigLayer, source: LayerSource): string[] {
  const warnings: string[] = checkMcpServersLayer(layer, (path) => locate(source, path));
  checkWebSearchLayer(layer, (path) => locate(source, path));
  const ripgrepProblem = layer.ripgrep === undefined ? undefined : ripgrepSettingProblem(layer.ripgrep);
  if (ripgrepProblem) warnings.push(`${locate(source, ['ripgrep'])}: ${ripgrepProblem}`);
  for (const [key, message] of Object.entries(NOT_YET_ACTIVE) as [keyof ConfigLayer, string][]) {
    if (layer[key] !== undefined) warnings.push(`${locate(source, [key])}: ${message}`);
  }
  // Codex settings rig accepts but does not act on: one warning per key (the first place it is
  // set, top level before profiles), saying what it would do.
  const warned = new Set<string>();
  const inert = (table: Record<string, unknown>, path: string[]) => {
    for (const [key, rule] of Object.entries(CODEX_INERT) as [string, { would: string; quietWhen?: (v: unknown) => boolean }][]) {
      const value = table[key];
      if (value === undefined || rule.quietWhen?.(value) || warned.has(key)) continue;
      warned.add(key);
      warnings.push(`${locate(source, [...path, key])}: ${formatKeyPath([...path, key])} is a Codex setting rig does not implement yet; it would ${rule.would}, so it has no effect here`);
    }
  };
  inert(layer as Record<string, unknown>, []);
  for (const [name, profile] of Object.entries(layer.profiles ?? {})) inert(profile as Record<string, unknown>, ['profiles', name]);
  const checkEffort = (value: string | undefined, path: string[]) => {
    if (value === undefined || (REASONING_EFFORTS as readonly string[]).includes(value)) return;
    warnings.push(
      `${locate(source, path)}: ${formatKeyPath(path)} = ${JSON.stringify(value)} is not a known reasoning effort ` +
        `(${REASONING_EFFORTS.map((e) => JSON.stringify(e)).join(', ')}); it is sent to the provider as is`,
    );
  };
  checkEffort(layer.model_reasoning_effort, ['model_reasoning_effort']);
  for (const [name, profile] of Object.entries(layer.profiles ?? {})) {
    checkEffort(profile.model_reasoning_effort, ['profiles', name, 'model_reasoning_effort']);
  }
  return warnings;
}
