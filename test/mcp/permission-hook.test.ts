// PermissionRequest hooks answer MCP approvals as they answer command approvals, through the real
// `rig exec`: the hook sees the call as mcp__<server>__<tool> (in every harness, whatever name the
// model was given), with the call's arguments, and its allow runs the call, its deny refuses it
// with the hook's message to the model. rig exec has nobody else to ask.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { toolResult } from '../frontends/exec/helpers.js';
import { HookRecorder } from '../hooks/recorder.js';
import { referenceServer } from './support/servers.js';

const EVERYTHING = referenceServer('@modelcontextprotocol/server-everything');

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

function setup(matcher: string): { repo: string; home: string; rec: HookRecorder } {
  const repo = tempGitRepo({ 'a.txt': 'a\n' });
  // echo is asked about every time (approval_mode = "prompt"): a person, or a hook, must say yes.
  const home = tempRigHome({
    url: mock.url,
    extra: [
      '[mcp_servers.everything]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify([EVERYTHING, 'stdio'])}`,
      'required = true',
      '[mcp_servers.everything.tools.echo]',
      'approval_mode = "prompt"',
    ].join('\n'),
  });
  const rec = new HookRecorder(tempDir('hooks'));
  writeFileSync(join(home, 'hooks.json'), rec.hooksJson([{ event: 'PermissionRequest', matcher }]));
  dirs.push(repo, home, rec.dir);
  return { repo, home, rec };
}

const echoMessages = (events: Record<string, unknown>[]) =>
  events.flatMap((e) => (e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'mcp_tool_call' ? [e['item'] as Record<string, unknown>] : []));

describe('PermissionRequest hooks on MCP tool calls', () => {
  test('an allow runs the call; the hook is matched on mcp__server__tool and sees the arguments', async () => {
    const { repo, home, rec } = setup('mcp__everything__echo');
    rec.answer('PermissionRequest', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } });
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'allowed by a hook' } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', '--harness', 'native', '-a', 'on-request', 'echo it'], { cwd: repo, home });
    expect(run.code).toBe(0);
    expect(rec.of('PermissionRequest')).toEqual([
      expect.objectContaining({ hook_event_name: 'PermissionRequest', tool_name: 'mcp__everything__echo', tool_input: { message: 'allowed by a hook' } }),
    ]);
    expect(echoMessages(jsonLines(run.stdout))).toEqual([expect.objectContaining({ tool: 'echo', status: 'completed' })]);
    expect(toolResult('responses', mock.requests[before + 1]!.body).text).toBe('Echo: allowed by a hook');
  });

  test("a deny refuses the call with the hook's message, in opencode too (whose model-visible name is everything_echo)", async () => {
    const { repo, home, rec } = setup('mcp__everything__.*');
    rec.answer('PermissionRequest', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'echo is off today' } } } });
    const before = mock.requests.length;
    mock.enqueue({ toolCalls: [{ id: 'call_echo', name: 'everything_echo', arguments: { message: 'denied' } }] }, { text: 'done' });
    const run = await runRig(['exec', '--json', '--harness', 'opencode', '-a', 'on-request', 'echo it'], { cwd: repo, home });
    expect(run.code).toBe(0);
    expect(rec.of('PermissionRequest')).toEqual([expect.objectContaining({ tool_name: 'mcp__everything__echo', tool_input: { message: 'denied' } })]);
    const [item] = echoMessages(jsonLines(run.stdout));
    expect(item).toMatchObject({ tool: 'echo', status: 'failed' });
    const answer = toolResult('responses', mock.requests[before + 1]!.body).text;
    expect(answer).toContain('echo is off today');
    expect(answer).not.toContain('Echo: denied');
  });
});
