// MCP tool names per harness convention: the originals' rules, plus uniqueness and the 64-byte cap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, nameMcpTools, namingConventionForHarness, type McpNamingConvention } from '../../src/mcp/index.js';

const name = (server: string, tool: string, convention: McpNamingConvention) => nameMcpTools([{ server, tool }], convention)[0]!.name;

describe('codex convention', () => {
  it('mcp__<server>__<tool>, sanitized to [A-Za-z0-9_]', () => {
    expect(name('docs', 'search', 'codex')).toBe('mcp__docs__search');
    expect(name('my-files', 'read.file', 'codex')).toBe('mcp__my_files__read_file');
    expect(name('dé', 'café', 'codex')).toBe('mcp__d___caf_');
  });

  it('a name over 64 bytes is cut and given a 12-hex hash suffix', () => {
    const long = 'a'.repeat(80);
    const out = name('docs', long, 'codex');
    expect(out).toHaveLength(64);
    expect(out).toMatch(/^mcp__docs__a+_[0-9a-f]{12}$/);
    // Deterministic.
    expect(name('docs', long, 'codex')).toBe(out);
  });

  it('two servers that sanitize alike get hashed namespaces; two tools that sanitize alike get hashed names', () => {
    const servers = nameMcpTools([{ server: 'a-b', tool: 't' }, { server: 'a_b', tool: 't' }], 'codex').map((t) => t.name);
    expect(servers[0]).toMatch(/^mcp__a_b_[0-9a-f]{12}__t$/);
    expect(servers[1]).toMatch(/^mcp__a_b_[0-9a-f]{12}__t$/);
    expect(servers[0]).not.toBe(servers[1]);
    const tools = nameMcpTools([{ server: 's', tool: 'x.y' }, { server: 's', tool: 'x-y' }], 'codex');
    expect(new Set(tools.map((t) => t.name)).size).toBe(2);
    for (const t of tools) expect(t.name).toMatch(/^mcp__s__x_y_[0-9a-f]{12}$/);
  });

  it('a namespace too long for any tool name still gives a 64-byte name', () => {
    const out = name('s'.repeat(70), 'tool', 'codex');
    expect(out).toHaveLength(64);
    expect(out).toMatch(/_[0-9a-f]{12}$/);
  });
});

describe('emulated harness conventions', () => {
  it('Claude Code: mcp__<server>__<tool> keeping "-", other characters to "_"', () => {
    expect(name('my-files', 'read.file', 'claude-code')).toBe('mcp__my-files__read_file');
    expect(name('claude.ai Drive', 'search', 'claude-code')).toBe('mcp__claude_ai_Drive__search');
  });

  it('Qwen Code: kept when provider-safe within 63 chars, else sanitized with an FNV-1a suffix', () => {
    expect(name('my-files', 'read_file', 'qwen-code')).toBe('mcp__my-files__read_file');
    const dotted = name('docs', 'read.file', 'qwen-code');
    expect(dotted).toMatch(/^mcp__docs__read_file_[0-9a-z]{7}$/);
    const long = name('docs', 'b'.repeat(70), 'qwen-code');
    expect(long).toHaveLength(63);
    expect(long).toMatch(/^mcp__docs__b+_[0-9a-z]{7}$/);
  });

  it('opencode: <server>_<tool>, "-" kept', () => {
    expect(name('my-files', 'read.file', 'opencode')).toBe('my-files_read_file');
  });

  it('where the original would send a duplicate (opencode) or an overlong name (Claude Code), rig adds the hash', () => {
    const dupes = nameMcpTools([{ server: 'a_b', tool: 'c' }, { server: 'a', tool: 'b_c' }], 'opencode').map((t) => t.name);
    expect(new Set(dupes).size).toBe(2);
    for (const n of dupes) expect(n).toMatch(/^a_b_c_[0-9a-f]{12}$/);
    const long = name('docs', 'z'.repeat(90), 'claude-code');
    expect(long).toHaveLength(64);
  });

  it('harness ids map to conventions, others use Codex', () => {
    expect(namingConventionForHarness('native')).toBe('codex');
    expect(namingConventionForHarness('claude-code')).toBe('claude-code');
    expect(namingConventionForHarness('claude-code-bare')).toBe('claude-code');
    expect(namingConventionForHarness('qwen-code')).toBe('qwen-code');
    expect(namingConventionForHarness('opencode')).toBe('opencode');
    expect(namingConventionForHarness('pi')).toBe('codex');
  });
});

describe('every convention (property)', () => {
  it('names are unique, at most 64 bytes, of [A-Za-z0-9_-], stable under reordering', () => {
    const ref = fc.record({ server: fc.string({ minLength: 1, maxLength: 30 }), tool: fc.string({ minLength: 1, maxLength: 90 }) });
    fc.assert(
      fc.property(fc.array(ref, { maxLength: 12 }), fc.constantFrom<McpNamingConvention>('codex', 'claude-code', 'qwen-code', 'opencode'), (refs, convention) => {
        const named = nameMcpTools(refs, convention);
        const names = named.map((t) => t.name);
        expect(new Set(names).size).toBe(names.length);
        for (const n of names) {
          expect(Buffer.byteLength(n)).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
          expect(n).toMatch(/^[A-Za-z0-9_-]+$/);
        }
        expect(nameMcpTools([...refs].reverse(), convention)).toEqual(named);
      }),
      { numRuns: 300 },
    );
  });
});
