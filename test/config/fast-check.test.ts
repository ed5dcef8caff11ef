// The zod-free fast check of config layers must never accept what zod rejects, and what it accepts
// must load exactly as zod's parse would.
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, test, vi } from 'vitest';
import { fastAcceptsLayer, schemaAccepts } from '../../src/config/fast-check.js';
import { LAYER_JSON_SCHEMA } from '../../src/config/layer-schema.generated.js';
import { applyDefaults } from '../../src/config/resolve.js';
import { loadZod } from '../../src/config/lazy-zod.js';
import { layerSchemaFor, renderLayerJsonSchema, toExactJsonSchema, type ConfigLayer } from '../../src/config/schema.js';
import { validateLayer } from '../../src/config/validate.js';
import { checkWebSearchLayer } from '../../src/config/web-search.js';
import { checkMcpServersLayer } from '../../src/config/mcp-servers.js';
import { ConfigError } from '../../src/config/errors.js';

// The zod instance the config room builds its schemas with.
const { z } = loadZod();

const STALE = 'src/config/layer-schema.generated.ts is stale: run `node scripts/gen-config-schema.mjs`';

type Schema = Record<string, unknown>;

function zodParse(layer: Record<string, unknown>) {
  return layerSchemaFor(Object.keys(layer)).safeParse(layer, { jitless: true });
}

/** Values that are wrong somewhere: other types, out-of-range and non-finite numbers, odd objects. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 101, 2 ** 60, 1.5, '', 'bogus', true),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.date({ noInvalidDate: true }),
  fc.constant(Object.create(null) as object),
);

/** Mostly-valid values for a JSON schema (the generated one), with wrong ones mixed in. */
function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: rightValue(schema) }, { weight: 1, arbitrary: wrongValue });
}

function rightValue(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['anyOf'])) return fc.oneof(...(schema['anyOf'] as Schema[]).map(valueFor));
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  switch (schema['type']) {
    case 'string':
      return fc.string({ maxLength: 6 });
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.double();
    case 'integer': {
      const min = (schema['minimum'] as number | undefined) ?? -1000;
      const max = Math.min((schema['maximum'] as number | undefined) ?? 1000, min + 1000);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'array':
      return fc.array(valueFor(schema['items'] as Schema), { maxLength: 3 });
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const extra = schema['additionalProperties'];
      const known = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, valueFor(sub)])),
        { requiredKeys: [] },
      );
      const extraKeys =
        extra === false
          ? fc.dictionary(fc.constantFrom('modle', 'unknown_key', 'name'), wrongValue, { maxKeys: 1 })
          : fc.dictionary(fc.string({ maxLength: 5 }), valueFor(extra as Schema), { maxKeys: 3 });
      // Unknown keys only now and then, so most generated layers are valid.
      const withExtra = fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extraKeys });
      return fc.tuple(withExtra, known).map(([more, main]) => ({ ...more, ...main }));
    }
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

/** A layer of a few top-level keys (the whole schema at once is almost never valid). */
const layerArbitrary = fc
  .subarray(Object.keys(LAYER_JSON_SCHEMA['properties'] as object), { minLength: 1, maxLength: 6 })
  .chain((keys) => {
    const properties = LAYER_JSON_SCHEMA['properties'] as Record<string, Schema>;
    return fc.record(Object.fromEntries(keys.map((key) => [key, valueFor(properties[key] as Schema)])));
  });

describe('config layer fast check', () => {
  test('the shipped JSON schema equals the zod source rendered (key order included)', () => {
    expect(JSON.stringify(LAYER_JSON_SCHEMA), STALE).toBe(JSON.stringify(renderLayerJsonSchema()));
  });

  test("a large key's schema is built when first read, and is then the rendered one", async () => {
    vi.resetModules();
    const { LAYER_JSON_SCHEMA: fresh } = await import('../../src/config/layer-schema.generated.js');
    const properties = fresh['properties'] as Record<string, unknown>;
    const rendered = renderLayerJsonSchema()['properties'] as Record<string, unknown>;
    const lazy = Object.keys(properties).filter((key) => Object.getOwnPropertyDescriptor(properties, key)!.get !== undefined);
    expect(lazy).toEqual(expect.arrayContaining(['profiles', 'hooks', 'mcp_servers']));
    for (const key of lazy) {
      const first = properties[key];
      expect(first).toEqual(rendered[key]);
      // Settled into a plain property: the same object from then on.
      expect(Object.getOwnPropertyDescriptor(properties, key)).toMatchObject({ value: first, enumerable: true });
      expect(properties[key]).toBe(first);
    }
    expect(Object.keys(properties)).toEqual(Object.keys(rendered));
  });

  test('the rendering refuses zod features JSON Schema cannot express exactly', () => {
    expect(() => toExactJsonSchema(z.strictObject({ a: z.string().refine((s) => s !== 'b') }))).toThrow(/custom/);
    expect(() => toExactJsonSchema(z.strictObject({ a: z.string().default('x') }))).toThrow(/default/);
    expect(() => toExactJsonSchema(z.strictObject({ a: z.string().min(2) }))).toThrow(/min_length/);
    expect(() => toExactJsonSchema(z.strictObject({ a: z.string().transform((s) => s.length) }))).toThrow();
    expect(toExactJsonSchema(z.strictObject({ a: z.number().int().min(0).max(3).optional() }))).toMatchObject({
      properties: { a: { type: 'integer', minimum: 0, maximum: 3 } },
    });
  });

  test('accepts only what zod accepts, and the accepted layer loads as zod parses it', () => {
    let accepted = 0;
    fc.assert(
      fc.property(layerArbitrary, (layer) => {
        const data = layer as Record<string, unknown>;
        if (!fastAcceptsLayer(data)) return;
        accepted++;
        const zod = zodParse(data);
        expect(zod.success, JSON.stringify(zod.error?.issues)).toBe(true);
        // Checks across keys (MCP server names and transports, web_search backends) run after
        // either parse and refuse the same layers whichever path parsed them.
        let crossKeyError: unknown;
        try {
          checkMcpServersLayer(zod.data as ConfigLayer, () => 'x');
          checkWebSearchLayer(zod.data as ConfigLayer, () => 'x');
        } catch (error) {
          crossKeyError = error;
        }
        if (crossKeyError) {
          expect(crossKeyError).toBeInstanceOf(ConfigError);
          expect(() => validateLayer(data, { kind: 'override', raw: 'x' })).toThrow(ConfigError);
          return;
        }
        const fast = validateLayer(data, { kind: 'override', raw: 'x' }).value;
        expect(fast).toStrictEqual(zod.data);
        expect(applyDefaults(fast, undefined)).toStrictEqual(applyDefaults(zod.data as ConfigLayer, undefined));
      }),
      { numRuns: 400 },
    );
    // The generator must reach the fast path often, or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
  });

  test('a typical config takes the fast path', () => {
    const layer = parseToml(`
model = "gpt-5"
model_provider = "mock"
model_reasoning_effort = "high"
approval_policy = { granular = { sandbox_approval = true } }
sandbox_mode = "workspace-write"
personality = "pragmatic"
[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:1/v1"
env_key = "MOCK_API_KEY"
wire_api = "chat"
request_max_retries = 0
[sandbox_workspace_write]
writable_roots = ["/tmp/x"]
[profiles.fast]
model = "o4-mini"
[projects."/srv/app"]
trust_level = "trusted"
[features]
web_search = true
[mcp_servers.docs]
command = "docs-server"
[tui]
theme = "dark"
`) as Record<string, unknown>;
    expect(fastAcceptsLayer(layer)).toBe(true);
    expect(validateLayer(layer, { kind: 'override', raw: 'x' }).value).toStrictEqual(zodParse(layer).data);
  });

  test('says no to what it cannot vouch for', () => {
    expect(fastAcceptsLayer({ modle: 'x' })).toBe(false);
    expect(fastAcceptsLayer({ model_context_window: 1.5 })).toBe(false);
    expect(fastAcceptsLayer({ model_context_window: Number.POSITIVE_INFINITY })).toBe(false);
    expect(fastAcceptsLayer({ model_providers: { x: { request_max_retries: 101 } } })).toBe(false);
    expect(fastAcceptsLayer({ tui: new Date() })).toBe(false);
    expect(fastAcceptsLayer(JSON.parse('{"features": {"__proto__": true}}'))).toBe(false);
    expect(schemaAccepts({ type: 'string', pattern: 'a' }, 'a')).toBe(false);
  });

  test('the accepted layer is a copy: resolving paths in it leaves the input alone', () => {
    const data = { sandbox_workspace_write: { writable_roots: ['a'] } };
    const { value } = validateLayer(data, { kind: 'override', raw: 'x' });
    value.sandbox_workspace_write!.writable_roots!.push('b');
    expect(data.sandbox_workspace_write.writable_roots).toEqual(['a']);
  });
});
