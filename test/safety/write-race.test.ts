// The symlink race against in-process writes, through the real CLI: a `rig exec` session whose
// scripted model first starts a background command that swaps a directory of the workspace with
// symlinks (to a directory outside, to .git/hooks, to .rig) as fast as it can, then makes hundreds
// of edits into that directory (apply_patch Add File on the native harness, Claude Code's Write).
// Every edit must either land inside the workspace or fail: nothing outside, no temp files left,
// .git/hooks and .rig untouched.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { buildSwapper } from '../support/swapper.js';
import { removeDir, runRig, tempRigHome } from '../support/workspace.js';

const EDITS_PER_RUN = 300;
const EDITS_PER_RESPONSE = 10;
// /tmp would be a writable root, and `outside` lives there: keep it out so outside means outside.
const NO_TMP = '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n';

let mock: MockProvider;
let base = '';
let swapper = '';

beforeAll(async () => {
  mock = await startMockProvider();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-write-race-')));
  fs.mkdirSync(path.join(base, 'tools'));
  swapper = buildSwapper(path.join(base, 'tools'));
});

afterAll(async () => {
  await mock.close();
  removeDir(base);
});

interface Arena {
  ws: string;
  outside: string;
  hooksBefore: string[];
}

function arena(name: string): Arena {
  const ws = path.join(base, name, 'ws');
  const outside = path.join(base, name, 'outside');
  fs.mkdirSync(ws, { recursive: true });
  fs.mkdirSync(outside);
  execFileSync('git', ['init', '-q', ws]);
  fs.mkdirSync(path.join(ws, '.rig'));
  fs.mkdirSync(path.join(ws, 'sub'));
  fs.symlinkSync(outside, path.join(ws, 'to-outside'));
  fs.symlinkSync('.git/hooks', path.join(ws, 'to-hooks'));
  fs.symlinkSync('.rig', path.join(ws, 'to-rig'));
  return { ws, outside, hooksBefore: fs.readdirSync(path.join(ws, '.git', 'hooks')).sort() };
}

function swapCommand(): string {
  return `${swapper} 300 sub to-outside to-hooks to-rig`;
}

/** Every file under `dir` whose name contains `marker`, without following symlinks. */
function filesNamed(dir: string, marker: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.name.includes(marker)) found.push(full);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}

function expectNothingEscaped(a: Arena, successes: number, prefix: string): void {
  expect(filesNamed(a.outside, '')).toEqual([]);
  expect(fs.readdirSync(path.join(a.ws, '.git', 'hooks')).sort()).toEqual(a.hooksBefore);
  expect(fs.readdirSync(path.join(a.ws, '.rig'))).toEqual([]);
  expect(filesNamed(path.join(a.ws), '.rig-tmp-')).toEqual([]);
  // Each successful edit is one file inside the workspace (wherever the swaps left `sub`).
  expect(filesNamed(a.ws, prefix)).toHaveLength(successes);
}

function outputsOf(request: MockRequest): string[] {
  if (request.wire === 'messages') {
    return (request.body.messages as { content: unknown }[])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: { type: string }) => b.type === 'tool_result')
      .map((b: { content: unknown }) => (typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((p) => p.text).join('')));
  }
  return (request.body.input as { type: string; output?: unknown }[])
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => String(item.output));
}

function editTurns(make: (i: number) => MockTurn['toolCalls']): MockTurn[] {
  const turns: MockTurn[] = [];
  for (let start = 0; start < EDITS_PER_RUN; start += EDITS_PER_RESPONSE) {
    const calls = [];
    for (let i = start; i < start + EDITS_PER_RESPONSE; i++) calls.push(...(make(i) ?? []));
    turns.push({ toolCalls: calls });
  }
  return turns;
}

describe('in-process writes under a rename-exchange swap loop', () => {
  it(`apply_patch Add File: ${EDITS_PER_RUN} edits, zero writes outside the workspace`, { timeout: 240_000 }, async () => {
    const a = arena('native');
    const home = tempRigHome({ url: mock.url, extra: NO_TMP });
    const first = mock.requests.length;
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: swapCommand(), yield_time_ms: 500 } }] },
      ...editTurns((i) => [
        { name: 'apply_patch', kind: 'custom', input: `*** Begin Patch\n*** Add File: sub/patched-${i}.txt\n+payload ${i}\n*** End Patch` },
      ]),
      { text: 'done' },
    );
    const run = await runRig(['exec', '--json', '--harness', 'native', '-s', 'workspace-write', 'race'], { cwd: a.ws, home });
    expect(run.code, run.stderr).toBe(0);
    const outputs = outputsOf(mock.requests.at(-1)!);
    expect(mock.requests.length - first).toBe(EDITS_PER_RUN / EDITS_PER_RESPONSE + 2);
    expect(outputs[0]).toContain('swapping');
    const edits = outputs.slice(1);
    expect(edits).toHaveLength(EDITS_PER_RUN);
    const successes = edits.filter((o) => o.includes('Success. Updated the following files')).length;
    expectNothingEscaped(a, successes, 'patched-');
    removeDir(home);
  });

  it(`Claude Code Write: ${EDITS_PER_RUN} edits, zero writes outside the workspace`, { timeout: 240_000 }, async () => {
    const a = arena('claude');
    const home = tempRigHome({ url: mock.url, wire: 'messages', extra: NO_TMP });
    mock.enqueue(
      { toolCalls: [{ name: 'Bash', arguments: { command: swapCommand(), run_in_background: true } }] },
      ...editTurns((i) => [{ name: 'Write', arguments: { file_path: path.join(a.ws, 'sub', `written-${i}.txt`), content: `payload ${i}\n` } }]),
      { text: 'done' },
    );
    const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', 'race'], { cwd: a.ws, home });
    expect(run.code, run.stderr).toBe(0);
    const outputs = outputsOf(mock.requests.at(-1)!);
    const edits = outputs.slice(1);
    expect(edits).toHaveLength(EDITS_PER_RUN);
    // Claude Code's own success text (see src/tools/harness/write.ts).
    const successes = edits.filter((o) => /^File created successfully at: |has been updated successfully/.test(o)).length;
    expectNothingEscaped(a, successes, 'written-');
    removeDir(home);
  });
});
