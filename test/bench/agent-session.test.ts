// The machinery behind `npm run bench -- --vs codex` and the soak: the prompt-prefix check, the
// /proc process-tree sampler, the goal verdicts of the comparison table, and one short scripted
// session through the real rig binary (its requests must keep the whole previous request as prefix).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { prefixBreaks, runAgentSession } from '../../bench/agent-session.js';
import { rowMet, type CompareRow } from '../../bench/compare-table.js';
import { privateP95Mb, sampleTree } from '../../bench/proc-tree.js';
import { scriptTurns, sessionScript, sessionWorkspace, workspaceProblem } from '../../bench/scripted-session.js';
import type { MockRequest } from '../support/mock-provider/index.js';
import { RIG_BIN, removeDir } from '../support/workspace.js';

const request = (body: Record<string, unknown>): MockRequest => ({ method: 'POST', path: '/v1/responses', query: {}, headers: {}, body, wire: 'responses', receivedAt: 0 });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('prompt-prefix check', () => {
  test('a growing conversation has no breaks; a rewritten earlier item or changed tools is one each', () => {
    const tools = [{ type: 'function', name: 'exec_command' }];
    const first = request({ instructions: 'be brief', tools, input: [user('a')] });
    const second = request({ instructions: 'be brief', tools, input: [user('a'), user('b')] });
    expect(prefixBreaks([first, second])).toEqual([]);
    const rewritten = request({ instructions: 'be brief', tools, input: [user('A'), user('b'), user('c')] });
    expect(prefixBreaks([first, second, rewritten])).toEqual(['request 3: history item 0 differs from request 2\'s']);
    const retooled = request({ instructions: 'be brief', tools: [], input: [user('a'), user('b')] });
    expect(prefixBreaks([first, retooled])).toEqual(['request 2: tools changed']);
  });

  test('over Chat Completions the system message is the instructions and the other messages the history', () => {
    const chat = (messages: object[]): MockRequest => ({ ...request({ tools: [], messages }), path: '/v1/chat/completions', wire: 'chat' });
    const system = { role: 'system', content: 'be brief' };
    const a = { role: 'user', content: 'a' };
    const b = { role: 'user', content: 'b' };
    expect(prefixBreaks([chat([system, a]), chat([system, a, b])])).toEqual([]);
    expect(prefixBreaks([chat([system, a]), chat([{ role: 'system', content: 'be long' }, a, b])])).toEqual(['request 2: instructions changed']);
    expect(prefixBreaks([chat([system, a, b]), chat([system, b, b])])).toEqual(["request 2: history item 0 differs from request 1's"]);
  });

  test('over Messages the prompt-caching marker may move to the newest message; a changed message is still a break', () => {
    const messages = (system: string, list: object[]): MockRequest => ({ ...request({ system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }], tools: [], messages: list }), path: '/v1/messages', wire: 'messages' });
    const text = (t: string, marked = false) => ({ role: 'user', content: [{ type: 'text', text: t, ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) }] });
    expect(prefixBreaks([messages('be brief', [text('a', true)]), messages('be brief', [text('a'), text('b', true)])])).toEqual([]);
    expect(prefixBreaks([messages('be brief', [text('a', true)]), messages('be brief', [text('A'), text('b', true)])])).toEqual(["request 2: history item 0 differs from request 1's"]);
    expect(prefixBreaks([messages('be brief', [text('a')]), messages('be long', [text('a')])])).toEqual(['request 2: instructions changed']);
  });
});

describe('comparison goals', () => {
  const row = (rig: number, codex: number | undefined, goal: Partial<CompareRow>): CompareRow => ({ key: 'k', label: 'l', unit: 'ms', rig, ...(codex !== undefined ? { codex } : {}), ...goal });
  test('a ratio goal is a ceiling on rig / Codex, a rig goal on rig alone; both must hold', () => {
    expect(rowMet(row(10, 100, { maxRatio: 0.1 }))).toBe(true);
    expect(rowMet(row(11, 100, { maxRatio: 0.1 }))).toBe(false);
    expect(rowMet(row(3, 50, { maxRig: 3 }))).toBe(true);
    expect(rowMet(row(2, 10, { maxRig: 3, maxRatio: 0.1 }))).toBe(false);
    expect(rowMet(row(2, undefined, { maxRatio: 0.1 }))).toBeUndefined();
  });
});

describe('process-tree sampler', () => {
  test("counts a grandchild's private memory and the main process's peak RSS", async () => {
    // The child spawns a grandchild that holds 100 MB of touched memory, then both wait for stdin.
    const grandchild = "const b = Buffer.alloc(100 * 1024 * 1024, 1); process.stdout.write('ready'); process.stdin.resume(); process.stdin.on('end', () => b.length)";
    const child = spawn(
      process.execPath,
      ['-e', `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: ['pipe', 'inherit', 'inherit'] }); process.stdin.on('end', () => c.stdin.end()); process.stdin.resume();`],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await once(child.stdout!, 'data');
    const sampler = sampleTree(child.pid!, 1_000);
    sampler.sample();
    const memory = sampler.stop();
    child.stdin!.end();
    await once(child, 'close');
    expect(memory.samples[0]!.processes).toBe(2);
    expect(privateP95Mb(memory)).toBeGreaterThan(100);
    expect(memory.mainPeakRssMb).toBeGreaterThan(10);
    expect(memory.mainPeakRssMb).toBeLessThan(100);
  });
});

describe('scripted session', () => {
  test('the workspace check names a patch that did not land', () => {
    const script = sessionScript({ steps: 4 });
    const workspace = sessionWorkspace(script);
    try {
      expect(workspaceProblem(script, workspace)).toMatch(/^step 3: edit\.txt line 3 is "line 3"/);
      writeFileSync(join(workspace, 'edit.txt'), 'line 1\nline 2\nline 3 edited\nline 4\n');
      expect(workspaceProblem(script, workspace)).toMatch(/^step 4: added\/file-4\.txt was not created/);
    } finally {
      removeDir(workspace);
    }
    expect(scriptTurns(script)).toHaveLength(5);
  });

  test('rig runs every kind of step through the real binary, sandboxed, with no prompt-prefix break', async () => {
    const script = sessionScript({ steps: 8, outputBytes: 1024 });
    const run = await runAgentSession({ name: 'rig', command: [process.execPath, RIG_BIN] }, script, 'on');
    expect(run.steps.map((step) => step.kind)).toEqual(['shell', 'cat', 'apply_patch', 'add_file', 'shell', 'cat', 'apply_patch', 'add_file']);
    expect(run.prefixBreaks).toEqual([]);
    expect(run.requestBytes).toHaveLength(9);
    // Each command printed 1 KB: the conversation grows by at least that much per command step.
    expect(run.requestBytes[8]! - run.requestBytes[0]!).toBeGreaterThan(4 * 1024);
    expect(run.steps.every((step) => step.gapMs > 0)).toBe(true);
    expect(run.memory.samples.length).toBeGreaterThan(0);
  }, 60_000);

  test.each(['chat', 'messages'] as const)('the same session over %s (the soak can run over any wire)', async (wire) => {
    const script = sessionScript({ steps: 4, outputBytes: 1024 });
    // runAgentSession throws if a step's output is missing or did not succeed, or a patch did not land.
    const run = await runAgentSession({ name: 'rig', command: [process.execPath, RIG_BIN], wire }, script, 'on');
    expect(run.requestBytes).toHaveLength(5);
    expect(run.prefixBreaks).toEqual([]);
    expect(run.historyBytes).toBeGreaterThan(2 * 1024);
  }, 60_000);
});
