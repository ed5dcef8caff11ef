// Validates a model's tool arguments against the tool's JSON schema, for the subset of JSON Schema
// that tool definitions use. The message names the field, so the model can correct itself.
import type { JsonSchema } from '../protocol/index.js';

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function matchesType(value: unknown, expected: string): boolean {
  const actual = typeOf(value);
  if (expected === 'number') return actual === 'number' || actual === 'integer';
  return actual === expected;
}

function describeFound(value: unknown): string {
  const text = JSON.stringify(value);
  const shown = text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${typeOf(value)} ${shown}`;
}

/** Returns null when valid, else a one-line description of the first problem. */
export function validateArgs(schema: JsonSchema, value: unknown, path = ''): string | null {
  const here = path === '' ? 'arguments' : `field "${path}"`;
  const types = schema['type'];
  if (types !== undefined) {
    const list = Array.isArray(types) ? (types as string[]) : [types as string];
    if (!list.some((t) => matchesType(value, t))) {
      return `${here} must be ${list.join(' or ')}, found ${describeFound(value)}`;
    }
  }
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && !enumValues.some((allowed) => allowed === value)) {
    return `${here} must be one of ${enumValues.map((v) => JSON.stringify(v)).join(', ')}, found ${describeFound(value)}`;
  }
  const anyOf = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length > 0) {
    const problems = anyOf.map((option) => validateArgs(option, value, path));
    if (problems.every((p) => p !== null)) return problems[0] ?? `${here} is invalid`;
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema['required'] ?? []) as string[]) {
      if (record[name] === undefined) {
        return `field "${joinPath(path, name)}" is required`;
      }
    }
    for (const [name, fieldValue] of Object.entries(record)) {
      const fieldSchema = properties[name];
      if (fieldSchema === undefined) {
        if (schema['additionalProperties'] === false) {
          const known = Object.keys(properties);
          return `field "${joinPath(path, name)}" is not allowed${known.length ? ` (allowed: ${known.join(', ')})` : ''}`;
        }
        continue;
      }
      // Models often send null for an optional field they mean to omit.
      if (fieldValue === null && !(schema['required'] as string[] | undefined)?.includes(name)) continue;
      const problem = validateArgs(fieldSchema, fieldValue, joinPath(path, name));
      if (problem) return problem;
    }
  }
  if (Array.isArray(value) && schema['items'] && typeof schema['items'] === 'object') {
    for (let index = 0; index < value.length; index++) {
      const problem = validateArgs(schema['items'] as JsonSchema, value[index], `${path}[${index}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function joinPath(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}
