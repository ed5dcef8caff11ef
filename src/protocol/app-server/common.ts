// Shared pieces of the app-server protocol (Codex's app-server v2, as rig speaks it): JSON-RPC
// framing without the `jsonrpc` member, request ids, error codes, and the named-type registry the
// generators walk. Field names and shapes follow Codex's generated schema; these zod schemas are
// rig's own definitions of the subset rig implements, and `rig app-server generate-json-schema` /
// `generate-ts` are generated from them.
import { z } from 'zod';

/** Every named type of the protocol, by the name the generated files give it. */
export const protocolTypes = z.registry<{ id: string; description?: string }>();

/** Registers a schema under a type name (it becomes a definition in the generated files). */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  protocolTypes.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

export const RequestId = named('RequestId', z.union([z.string(), z.number().int()]));
export type RequestId = z.infer<typeof RequestId>;

/** Any JSON value. */
export const JsonValue = named('JsonValue', z.unknown());

export const ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  overloaded: -32001,
} as const;

export const JsonRpcErrorBody = named(
  'JSONRPCErrorError',
  z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
);
export type JsonRpcErrorBody = z.infer<typeof JsonRpcErrorBody>;

/** A request from either side: `{id, method, params?}`. */
export const JsonRpcRequest = named(
  'JSONRPCRequest',
  z.looseObject({ id: RequestId, method: z.string(), params: z.unknown().optional() }),
);
export const JsonRpcNotification = named('JSONRPCNotification', z.looseObject({ method: z.string(), params: z.unknown().optional() }));
export const JsonRpcResponse = named('JSONRPCResponse', z.object({ id: RequestId, result: z.unknown() }));
export const JsonRpcError = named('JSONRPCError', z.object({ id: RequestId.nullable(), error: JsonRpcErrorBody }));

/** One method of the protocol: what goes in, what comes back. */
export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
  /** The generated files name the pair `<typeName>Params` / `<typeName>Response`. */
  typeName: string;
}

export function method<P extends z.ZodType, R extends z.ZodType>(typeName: string, params: P, result: R): MethodSpec<P, R> {
  named(`${typeName}Params`, params);
  named(`${typeName}Response`, result);
  return { params, result, typeName };
}

export interface NotificationSpec<P extends z.ZodType = z.ZodType> {
  params: P;
  typeName: string;
}

export function notification<P extends z.ZodType>(typeName: string, params: P): NotificationSpec<P> {
  named(typeName, params);
  return { params, typeName };
}

/** `{}`: what Codex answers for archive, name/set, interrupt and other acknowledgements. */
export const EmptyResult = () => z.object({});
