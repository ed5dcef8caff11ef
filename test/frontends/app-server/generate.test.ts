// `rig app-server generate-json-schema` and `generate-ts` through the real CLI: they write the
// protocol rig speaks, and every Codex method rig declares is one Codex declares too (rig's own
// extensions live under `rig/`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, runRig, tempDir } from '../../support/workspace.js';
import { codexProtocol, removeCodexProtocol } from './support.js';

const out = tempDir('as-generate');
afterAll(() => {
  removeDir(out);
  removeCodexProtocol();
});

interface Branch {
  properties: { method: { enum?: string[]; const?: string } };
}

/** The method names of a union schema (Codex writes `oneOf` + `enum`, zod `anyOf` + `const`). */
function methods(file: string): string[] {
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { oneOf?: Branch[]; anyOf?: Branch[] };
  return (schema.oneOf ?? schema.anyOf ?? []).map((branch) => branch.properties.method.const ?? branch.properties.method.enum![0]!);
}

describe('rig app-server generate-*', () => {
  it("writes rig's JSON Schema; its methods are Codex's, plus rig/ extensions", async () => {
    const run = await runRig(['app-server', 'generate-json-schema', '--out', join(out, 'schema')], { cwd: out, home: out });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^wrote \d+ files to /);
    const codex = codexProtocol().schemaDir;
    for (const file of ['ClientRequest.json', 'ServerNotification.json', 'ServerRequest.json']) {
      const ours = methods(join(out, 'schema', file));
      const theirs = new Set(methods(join(codex, file)));
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.filter((method) => !method.startsWith('rig/') && !theirs.has(method))).toEqual([]);
    }
    expect(methods(join(out, 'schema', 'ClientRequest.json'))).toEqual(expect.arrayContaining(['initialize', 'thread/start', 'turn/start', 'turn/steer', 'turn/interrupt', 'rig/thread/start']));
  });

  it('writes TypeScript with an index of every type', async () => {
    const run = await runRig(['app-server', 'generate-ts', '--out', join(out, 'ts')], { cwd: out, home: out });
    expect(run.code).toBe(0);
    const files = readdirSync(join(out, 'ts')).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
    const index = readFileSync(join(out, 'ts', 'index.ts'), 'utf8');
    for (const file of files) expect(index).toContain(`./${file.replace(/\.ts$/, '')}`);
    expect(readFileSync(join(out, 'ts', 'ClientRequest.ts'), 'utf8')).toContain('"turn/start"');
  });
});
