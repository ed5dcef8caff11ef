// The zod-free check a config layer goes through first. It reads the layer's JSON Schema, rendered
// from the zod schema at build time (layer-schema.generated.ts), and answers only yes or no: "yes"
// means zod would accept the layer as it is, with nothing to warn about; "no" sends the layer down
// the zod path, which finds the exact messages. So it must never say yes where zod says no: it is
// stricter where unsure (plain objects only, finite numbers, no "__proto__" key) and says no to any
// schema keyword it does not know.
import { LAYER_JSON_SCHEMA } from './layer-schema.generated.js';

type Schema = Record<string, unknown>;

const KNOWN_KEYWORDS = new Set([
  '$schema',
  'type',
  'enum',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minimum',
  'maximum',
]);

/** True when zod would accept this layer unchanged and report nothing (see the header). */
export function fastAcceptsLayer(data: unknown): boolean {
  return schemaAccepts(LAYER_JSON_SCHEMA, data);
}

export function schemaAccepts(schema: Schema, value: unknown): boolean {
  for (const keyword in schema) if (!KNOWN_KEYWORDS.has(keyword)) return false;
  const type = schema['type'];
  if (type !== undefined && !hasType(value, type)) return false;
  const allowed = schema['enum'];
  if (allowed !== undefined && !(Array.isArray(allowed) && allowed.includes(value))) return false;
  const anyOf = schema['anyOf'];
  if (anyOf !== undefined && !(Array.isArray(anyOf) && anyOf.some((branch) => schemaAccepts(branch as Schema, value)))) {
    return false;
  }
  if (typeof value === 'number') {
    const { minimum, maximum } = schema;
    if (minimum !== undefined && !(typeof minimum === 'number' && value >= minimum)) return false;
    if (maximum !== undefined && !(typeof maximum === 'number' && value <= maximum)) return false;
  }
  if (Array.isArray(value) && schema['items'] !== undefined) {
    const items = schema['items'] as Schema;
    if (!value.every((item) => schemaAccepts(items, item))) return false;
  }
  if (isPlainObject(value)) return objectAccepts(schema, value);
  return true;
}

function objectAccepts(schema: Schema, value: Record<string, unknown>): boolean {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  for (const key of (schema['required'] ?? []) as string[]) if (value[key] === undefined) return false;
  const additional = schema['additionalProperties'];
  const names = schema['propertyNames'] as Schema | undefined;
  for (const key of Object.keys(value)) {
    // zod copies keys onto a fresh object; "__proto__" would not survive that as a key.
    if (key === '__proto__') return false;
    if (names !== undefined && !schemaAccepts(names, key)) return false;
    const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const fieldSchema = own ?? additional;
    if (fieldSchema === undefined || fieldSchema === true) continue;
    if (fieldSchema === false) return false;
    if (!schemaAccepts(fieldSchema as Schema, value[key])) return false;
  }
  return true;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isSafeInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of an accepted layer as zod's parse returns it: fresh tables and arrays where the schema
 * describes them (callers resolve paths in place), values of unchecked keys shared.
 */
export function copyLayer<T>(value: T): T {
  return copyAs(LAYER_JSON_SCHEMA, value) as T;
}

function copyAs(schema: Schema, value: unknown): unknown {
  const anyOf = schema['anyOf'] as Schema[] | undefined;
  if (anyOf) {
    const branch = anyOf.find((option) => schemaAccepts(option, value));
    return branch ? copyAs(branch, value) : value;
  }
  if (schema['type'] === 'array' && Array.isArray(value)) {
    const items = schema['items'] as Schema | undefined;
    return items ? value.map((item) => copyAs(items, item)) : [...value];
  }
  if (schema['type'] === 'object' && isPlainObject(value)) {
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    const additional = schema['additionalProperties'];
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : additional;
      out[key] = typeof sub === 'object' && sub !== null ? copyAs(sub as Schema, item) : item;
    }
    return out;
  }
  return value;
}
