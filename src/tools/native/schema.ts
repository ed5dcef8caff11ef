// Tool parameter schemas are written with zod and sent as JSON Schema. The `$schema` marker is
// dropped: providers do not need it and every byte is paid on every request.
import { z } from 'zod';
import type { JsonSchema } from '../../protocol/index.js';

export function toParameters(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

export { z };
