// The layering of DESIGN.md, enforced: each room imports only the rooms listed for it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/workspace.js';

const ALLOWED: Record<string, string[]> = {
  protocol: [],
  config: ['protocol'],
  model: ['protocol', 'config'],
  harness: ['protocol', 'config', 'model'],
  patch: ['protocol'],
  exec: ['protocol'],
  policy: ['protocol', 'config'],
  tools: ['protocol', 'config', 'model', 'harness', 'patch', 'exec', 'policy', 'mcp', 'hooks', 'skills', 'checkpoints', 'web'],
  context: ['protocol', 'config', 'model'],
  store: ['protocol'],
  // The MCP client: connections, naming, approvals decisions, results (DESIGN.md: MCP on the SDK).
  mcp: ['protocol', 'config'],
  // Engine-independent extension rooms (issue 15): the engine calls them; they call no engine room.
  hooks: ['protocol', 'config', 'exec'],
  skills: ['protocol', 'config'],
  checkpoints: ['protocol', 'config', 'exec'],
  web: ['protocol', 'config'],
  core: ['protocol', 'config', 'model', 'harness', 'patch', 'exec', 'policy', 'tools', 'context', 'store', 'mcp', 'hooks', 'skills', 'checkpoints', 'web'],
  // Front ends are adapters over the engine: everything else they need is a core service.
  frontends: ['protocol', 'core'],
  // A front end too (it runs agents and reads their rollouts), so the same rule holds.
  eval: ['protocol', 'core'],
  cli: ['protocol', 'config', 'model', 'harness', 'patch', 'exec', 'policy', 'tools', 'context', 'store', 'core', 'frontends', 'mcp', 'eval', 'hooks', 'skills', 'checkpoints', 'web'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('architecture', () => {
  it('imports point only down the room order of DESIGN.md', () => {
    const src = resolve(REPO_ROOT, 'src');
    const violations: string[] = [];
    for (const file of sourceFiles(src)) {
      const room = relative(src, file).split(sep)[0]!;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
        const target = resolve(dirname(file), (match[1] ?? match[2])!);
        const targetRoom = relative(src, target).split(sep)[0]!;
        if (targetRoom === room) continue;
        if (!(ALLOWED[room] ?? []).includes(targetRoom)) violations.push(`${relative(src, file)} imports ${targetRoom}/`);
      }
    }
    expect(violations).toEqual([]);
  });
});
