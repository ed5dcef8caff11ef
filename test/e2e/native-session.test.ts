// Issue 3's scripted session, through a real `rig exec` process in a real git repo: list, read,
// one apply_patch touching two files, a failing test run, a second patch, a green run, a
// long-running command polled through write_stdin, and a summary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { jsonLines, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

const FILES = {
  'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n\nexport function double(n) {\n  return n + n + 1;\n}\n',
  'src/greet.js': 'export function greet(name) {\n  return "Hello " + name;\n}\n',
  'test.js': [
    "import { add, double } from './src/math.js';",
    "import { greet } from './src/greet.js';",
    'let failed = 0;',
    "const check = (name, ok) => { if (!ok) { failed++; console.log('FAIL ' + name); } else console.log('ok ' + name); };",
    "check('add', add(2, 3) === 5);",
    "check('double', double(4) === 8);",
    "check('greet', greet('Ada') === 'Hello, Ada!');",
    'process.exit(failed ? 1 : 0);',
    '',
  ].join('\n'),
  'package.json': '{ "type": "module" }\n',
};

const FIRST_PATCH = `*** Begin Patch
*** Update File: src/math.js
@@
 export function add(a, b) {
-  return a - b;
+  return a + b;
 }
*** Update File: src/greet.js
@@
 export function greet(name) {
-  return "Hello " + name;
+  return "Hello, " + name + "!";
 }
*** End Patch`;

const SECOND_PATCH = `*** Begin Patch
*** Update File: src/math.js
@@ export function double(n) {
-  return n + n + 1;
+  return n * 2;
*** End Patch`;

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

function lastToolOutput(request: MockRequest): string {
  const input = (request.body as { input: { type: string; output?: unknown }[] }).input;
  const outputs = input.filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output');
  return String(outputs.at(-1)?.output ?? '');
}

describe('a native scripted session through rig exec', () => {
  it('reads, patches, tests, polls a long command and finishes with the exact files and events', async () => {
    const repo = tempGitRepo(FILES);
    const home = tempRigHome({ url: mock.url, wire: 'responses' });
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'ls' } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat src/math.js' } }] },
      { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: FIRST_PATCH }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'node test.js' } }] },
      { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: SECOND_PATCH }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'node test.js' } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'sleep 0.4; echo long-done', yield_time_ms: 250 } }] },
      (request) => {
        const id = /Process running with session ID (\d+)/.exec(lastToolOutput(request))?.[1];
        return { toolCalls: [{ name: 'write_stdin', arguments: { session_id: Number(id), chars: '', yield_time_ms: 5000 } }] };
      },
      { text: 'Fixed add, double and greet; node test.js passes.' },
    );
    const run = await runRig(['exec', '--json', '-s', 'workspace-write', 'fix the tests'], { cwd: repo, home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    expect(readFileSync(join(repo, 'src/math.js'), 'utf8')).toBe(
      'export function add(a, b) {\n  return a + b;\n}\n\nexport function double(n) {\n  return n * 2;\n}\n',
    );
    expect(readFileSync(join(repo, 'src/greet.js'), 'utf8')).toBe('export function greet(name) {\n  return "Hello, " + name + "!";\n}\n');

    // What the model read back at each step.
    const outputs = mock.requests.slice(1).map(lastToolOutput);
    expect(outputs[0]).toMatch(/Process exited with code 0\n[\s\S]*Output:\npackage\.json\nsrc\ntest\.js\n$/);
    expect(outputs[1]).toContain('return a - b;');
    expect(outputs[2]).toMatch(/^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nSuccess\. Updated the following files:\nM src\/math\.js\nM src\/greet\.js\n$/);
    expect(outputs[3]).toMatch(/Process exited with code 1[\s\S]*FAIL double/);
    expect(outputs[5]).toMatch(/Process exited with code 0[\s\S]*ok add\nok double\nok greet\n$/);
    expect(outputs[6]).toMatch(/Process running with session ID \d+/);
    expect(outputs[7]).toMatch(/Process exited with code 0[\s\S]*long-done/);

    const events = jsonLines(run.stdout);
    const shape = events.map((event) => {
      const item = event['item'] as Record<string, unknown> | undefined;
      if (!item) return event['type'];
      const detail = item['type'] === 'command_execution'
        ? `${item['command']} ${item['status']} ${item['exit_code']}`
        : item['type'] === 'file_change'
          ? `${(item['changes'] as { path: string; kind: string }[]).map((c) => `${c.kind}:${c.path}`).join(',')} ${item['status']}`
          : item['type'] === 'agent_message'
            ? String(item['text'])
            : '';
      return `${event['type']} ${item['type']} ${detail}`.trim();
    });
    expect(shape).toEqual([
      'thread.started',
      'turn.started',
      'item.started command_execution ls in_progress null',
      'item.completed command_execution ls completed 0',
      'item.started command_execution cat src/math.js in_progress null',
      'item.completed command_execution cat src/math.js completed 0',
      `item.started file_change update:${join(repo, 'src/math.js')},update:${join(repo, 'src/greet.js')} in_progress`,
      `item.completed file_change update:${join(repo, 'src/math.js')},update:${join(repo, 'src/greet.js')} completed`,
      'item.started command_execution node test.js in_progress null',
      'item.completed command_execution node test.js failed 1',
      `item.started file_change update:${join(repo, 'src/math.js')} in_progress`,
      `item.completed file_change update:${join(repo, 'src/math.js')} completed`,
      'item.started command_execution node test.js in_progress null',
      'item.completed command_execution node test.js completed 0',
      'item.started command_execution sleep 0.4; echo long-done in_progress null',
      'item.updated command_execution sleep 0.4; echo long-done in_progress null',
      'item.completed command_execution sleep 0.4; echo long-done completed 0',
      'item.completed agent_message Fixed add, double and greet; node test.js passes.',
      'turn.completed',
    ]);
  });
});
