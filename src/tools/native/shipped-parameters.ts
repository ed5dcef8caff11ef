// The native tools' parameter schemas as rig ships them: JSON rendered at build time from the zod
// source (parameters.ts), so no zod schema is built for them at runtime.
import type { JsonSchema } from '../../protocol/index.js';
import type { NativeParameterName } from './parameters.js';
import { NATIVE_PARAMETERS } from './parameters.generated.js';

/** A fresh copy of a native tool's JSON Schema: a caller may adjust its own. */
export function nativeParameters(name: NativeParameterName): JsonSchema {
  return structuredClone(NATIVE_PARAMETERS[name]);
}
