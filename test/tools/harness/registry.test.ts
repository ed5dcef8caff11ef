import { describe, expect, it } from 'vitest';
import { findProfile, listProfileLocations } from '../../../src/harness/loader.js';
import { bindHarness, withoutUnavailable } from '../../../src/tools/harness/registry.js';

const loadProfile = (id: string) => findProfile(id);
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const ids = listProfileLocations().map((entry) => entry.id);

describe('every built-in profile binds every tool to a handler', () => {
  it.each(ids)('%s', (id) => {
    const harness = bound(id);
    expect(harness.all.length).toBeGreaterThan(0);
    for (const spec of harness.all) expect(typeof spec.handle).toBe('function');
  });
});

describe('tool surfaces', () => {
  it('advertised, deferred and hidden tools are kept apart', () => {
    const claude = bound('claude-code');
    expect(claude.advertised.map((spec) => spec.name)).toContain('ToolSearch');
    expect(claude.advertised.map((spec) => spec.name)).not.toContain('TaskOutput');
    expect(claude.byName.has('TaskOutput')).toBe(true);
  });

  it('a tool rig cannot run is omitted: not sent, not callable, listed with its reason', () => {
    const claude = bound('claude-code');
    const names = claude.all.map((spec) => spec.name);
    expect(names).not.toContain('Workflow');
    expect(names).toContain('WebFetch');
    expect(names).toContain('Agent');
    expect(claude.omitted.map((tool) => tool.name)).toContain('Workflow');
    expect(claude.omitted.map((tool) => tool.name)).not.toContain('NotebookEdit');
    expect(claude.omitted.map((tool) => tool.name)).not.toContain('Agent');
  });

  it('a tool this session cannot serve is omitted too: not searchable, listed with the session reason', async () => {
    const profile = withoutUnavailable(loadProfile('claude-code'), new Map([['timers.cron_list', 'rig exec ends with its turn']]));
    const claude = bindHarness(profile);
    expect(claude.all.map((spec) => spec.name)).not.toContain('CronList');
    expect(claude.all.map((spec) => spec.name)).toContain('CronCreate');
    expect(claude.omitted).toContainEqual({ name: 'CronList', reason: 'rig exec ends with its turn' });
    const search = await call(claude.byName.get('ToolSearch'), { query: 'select:CronList' }, fakeContext());
    expect(search.success).toBe(false);
    expect(search.text).toMatch(/^No deferred tool named CronList/);
  });

  it('a profile binding a tool to a capability rig has no handler for fails to load, naming the tool', () => {
    const profile = { ...loadProfile('opencode'), tools: [{ ...loadProfile('opencode').tools[0]!, name: 'teleport', capability: 'magic.teleport' }] };
    expect(() => bindHarness(profile)).toThrow(/tools\[0\]\.capability: unknown capability "magic\.teleport" for tool "teleport"/);
  });

  it('qwen tool_call dispatches to another bound tool', async () => {
    const ctx = fakeContext();
    ctx.write('a.txt', 'hello\n');
    const qwen = bound('qwen-code');
    const result = await call(qwen.byName.get('tool_call'), { name: 'read_file', arguments: { file_path: 'a.txt' } }, ctx);
    expect(result).toEqual({ success: true, text: 'hello' });
    expect((await call(qwen.byName.get('tool_call'), { name: 'nope', arguments: {} }, ctx)).success).toBe(false);
  });

  it('little-coder evidence is kept per thread', async () => {
    const ctx = fakeContext();
    const harness = bound('little-coder');
    expect((await call(harness.byName.get('EvidenceAdd'), { source: 'doc', note: 'n1', snippet: 's' }, ctx)).text).toBe('Recorded evidence E1.');
    expect((await call(harness.byName.get('EvidenceList'), {}, ctx)).text).toBe('E1: n1 (doc)');
    expect((await call(harness.byName.get('EvidenceGet'), { id: 'E1' }, ctx)).text).toContain('"snippet":"s"');
    expect((await call(harness.byName.get('EvidenceList'), {}, fakeContext())).text).toBe('No evidence recorded yet.');
  });
});

describe('loadBoundHarness', () => {
  it('loads the winning layer and binds it', async () => {
    const { loadBoundHarness } = await import('../../../src/tools/harness/registry.js');
    const { fakeNatives } = await import('./bind.js');
    const loaded = loadBoundHarness('pi', fakeNatives);
    expect(loaded.profile.id).toBe('pi');
    expect(loaded.tools.advertised.map((spec) => spec.name)).toEqual(['read', 'bash', 'edit', 'write']);
    expect(() => loadBoundHarness('nope', fakeNatives)).toThrow(/^unknown harness "nope"; available harnesses \(see `rig harness list`\): claude-code, /);
  });
});
