// `rig app-server generate-json-schema` / `generate-ts`: the protocol rig speaks, written from
// its own zod definitions (src/protocol/app-server/), laid out as Codex lays out its generated
// files: one union file per direction (ClientRequest, ServerNotification, ServerRequest,
// ClientNotification), one file per named type, and a bundle of every definition.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  CLIENT_NOTIFICATIONS,
  CLIENT_REQUESTS,
  JsonRpcError,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
  SERVER_NOTIFICATIONS,
  SERVER_REQUESTS,
  protocolTypes,
} from '../../protocol/app-server/index.js';

type JsonSchema = Record<string, unknown>;

const BUNDLE = 'rig_app_server_protocol.schemas.json';

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-7', metadata: protocolTypes, io, unrepresentable: 'any' }) as JsonSchema;
}

function methodBranch(title: string, method: string, params: z.ZodType, withId: boolean) {
  return z
    .object({ ...(withId ? { id: RequestId } : {}), method: z.literal(method), params })
    .meta({ title });
}

/** The four union schemas, each a oneOf over its methods. */
function unions(): Record<string, z.ZodType> {
  const requests = Object.entries(CLIENT_REQUESTS).map(([method, spec]) => methodBranch(`${spec.typeName}Request`, method, spec.params, true));
  const notifications = Object.entries(SERVER_NOTIFICATIONS).map(([method, spec]) => methodBranch(spec.typeName, method, spec.params, false));
  const serverRequests = Object.entries(SERVER_REQUESTS).map(([method, spec]) => methodBranch(`${spec.typeName}Request`, method, spec.params, true));
  const clientNotifications = Object.keys(CLIENT_NOTIFICATIONS).map((method) => z.object({ method: z.literal(method) }).meta({ title: `${method}Notification` }));
  const union = (branches: z.ZodType[]) => (branches.length === 1 ? branches[0]! : z.union(branches as [z.ZodType, z.ZodType, ...z.ZodType[]]));
  return {
    ClientRequest: union(requests).describe('Request sent from the client to the server.'),
    ServerNotification: union(notifications).describe('Notification sent from the server to the client.'),
    ServerRequest: union(serverRequests).describe('Request initiated from the server and sent to the client.'),
    ClientNotification: union(clientNotifications).describe('Notification sent from the client to the server.'),
  };
}

/** Every named schema and whether clients send it (params) or receive it. */
function namedSchemas(): { name: string; schema: z.ZodType; io: 'input' | 'output' }[] {
  const out: { name: string; schema: z.ZodType; io: 'input' | 'output' }[] = [];
  for (const spec of Object.values(CLIENT_REQUESTS)) {
    out.push({ name: `${spec.typeName}Params`, schema: spec.params, io: 'input' }, { name: `${spec.typeName}Response`, schema: spec.result, io: 'output' });
  }
  for (const spec of Object.values(SERVER_NOTIFICATIONS)) out.push({ name: spec.typeName, schema: spec.params, io: 'output' });
  for (const spec of Object.values(SERVER_REQUESTS)) {
    out.push({ name: `${spec.typeName}Params`, schema: spec.params, io: 'output' }, { name: `${spec.typeName}Response`, schema: spec.result, io: 'input' });
  }
  for (const [name, schema] of [['JSONRPCRequest', JsonRpcRequest], ['JSONRPCNotification', JsonRpcNotification], ['JSONRPCResponse', JsonRpcResponse], ['JSONRPCError', JsonRpcError]] as const) {
    out.push({ name, schema, io: 'output' });
  }
  return out;
}

function write(dir: string, file: string, text: string, written: string[]): void {
  const path = join(dir, file);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  written.push(path);
}

export function writeJsonSchemas(outDir: string): string[] {
  const written: string[] = [];
  const definitions: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(unions())) {
    const json = toSchema(schema, name.startsWith('Client') ? 'input' : 'output');
    Object.assign(definitions, json['definitions'] ?? {});
    write(outDir, `${name}.json`, `${JSON.stringify({ ...json, title: name }, null, 2)}\n`, written);
  }
  for (const { name, schema, io } of namedSchemas()) {
    const json = toSchema(schema, io);
    Object.assign(definitions, json['definitions'] ?? {});
    write(outDir, `v2/${name}.json`, `${JSON.stringify({ ...json, title: name }, null, 2)}\n`, written);
  }
  const bundle = { $schema: 'http://json-schema.org/draft-07/schema#', title: 'RigAppServerProtocol', definitions: sortKeys(definitions) };
  write(outDir, BUNDLE, `${JSON.stringify(bundle, null, 2)}\n`, written);
  return written;
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

// --- TypeScript -------------------------------------------------------------------------------

const HEADER = '// Generated by `rig app-server generate-ts` from rig\'s protocol definitions. Do not edit.\n\n';

function tsKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function doc(schema: JsonSchema, indent: string): string {
  const text = schema['description'];
  if (typeof text !== 'string' || text === '') return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n`;
}

/** A JSON Schema (the subset zod's toJSONSchema emits) as a TypeScript type expression. */
export function tsType(schema: unknown, refs: Set<string>, indent = ''): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  const s = schema as JsonSchema;
  if (typeof s['$ref'] === 'string') {
    const name = (s['$ref'] as string).split('/').pop()!;
    refs.add(name);
    return name;
  }
  const variants = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (variants) return variants.map((v) => tsType(v, refs, indent)).join(' | ');
  if (Array.isArray(s['allOf'])) return (s['allOf'] as unknown[]).map((v) => `(${tsType(v, refs, indent)})`).join(' & ');
  if ('const' in s) return JSON.stringify(s['const']);
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  const type = s['type'];
  if (Array.isArray(type)) return type.map((t) => tsType({ ...s, type: t }, refs, indent)).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${tsType(s['items'], refs, indent)}>`;
    case 'object':
      return objectType(s, refs, indent);
    default:
      return 'unknown';
  }
}

function objectType(s: JsonSchema, refs: Set<string>, indent: string): string {
  const properties = (s['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s['required'] ?? []) as string[]);
  const extra = s['additionalProperties'];
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(
    ([key, value]) => `${doc(value, inner)}${inner}${tsKey(key)}${required.has(key) ? '' : '?'}: ${tsType(value, refs, inner)};`,
  );
  if (extra !== undefined && extra !== false) lines.push(`${inner}[key: string]: ${Object.keys(properties).length ? 'unknown' : tsType(extra, refs, inner)};`);
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : '{ [key: string]: unknown }';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function tsFile(name: string, schema: JsonSchema): string {
  const refs = new Set<string>();
  const body = tsType(schema, refs);
  refs.delete(name);
  const imports = [...refs].sort().map((ref) => `import type { ${ref} } from './${ref}.js';\n`).join('');
  return `${HEADER}${imports}${imports ? '\n' : ''}${doc(schema, '')}export type ${name} = ${body};\n`;
}

export function writeTypeScript(outDir: string): string[] {
  const written: string[] = [];
  const definitions: Record<string, JsonSchema> = {};
  const files: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(unions())) {
    const json = toSchema(schema, name.startsWith('Client') ? 'input' : 'output');
    Object.assign(definitions, json['definitions'] ?? {});
    const { definitions: _defs, $schema: _s, ...rest } = json;
    files[name] = rest;
  }
  for (const { schema, io } of namedSchemas()) Object.assign(definitions, toSchema(schema, io)['definitions'] ?? {});
  for (const [name, schema] of Object.entries(definitions)) files[name] ??= schema;
  const names = Object.keys(files).sort();
  for (const name of names) write(outDir, `${name}.ts`, tsFile(name, files[name]!), written);
  write(outDir, 'index.ts', `${HEADER}${names.map((name) => `export type { ${name} } from './${name}.js';\n`).join('')}`, written);
  return written;
}
