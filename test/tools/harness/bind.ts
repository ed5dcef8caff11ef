import { join } from 'node:path';
import { builtinProfileDir, readProfileFile } from '../../../src/harness/loader.js';
import type { ToolFactory } from '../../../src/harness/profile.js';
import { NATIVE_CAPABILITY_IDS, bindHarness, type BoundHarness } from '../../../src/tools/harness/registry.js';
import type { ToolSpec } from '../../../src/tools/spec.js';

/** Stand-ins for src/tools/native: the binding only needs the ids to exist. */
export const fakeNatives = new Map<string, ToolFactory<ToolSpec>>(
  NATIVE_CAPABILITY_IDS.map((id) => [
    id,
    (tool) => ({ name: tool.name, description: id, kind: 'function', parallelSafe: false, handle: async () => ({ output: id, success: true }) }),
  ]),
);

export function bound(id: string): BoundHarness {
  return bindHarness(readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin'), fakeNatives);
}
