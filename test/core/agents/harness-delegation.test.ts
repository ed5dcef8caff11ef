// Each harness's delegation tool through the real CLI, on the configuration: Claude Code's
// Agent, opencode's task and Qwen Code's agent spawn the implementer role (its model and
// instructions), the child runs in the parent's harness and edits the one file, and the tool
// result the root receives is the child's final message in that harness's own reply shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockToolCall } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo } from '../../support/workspace.js';
import { IMPLEMENTER_INSTRUCTIONS } from '../../support/agents-config.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

interface Case {
  harness: string;
  delegate: (prompt: string) => MockToolCall;
  read: (path: string) => MockToolCall;
  edit: (path: string) => MockToolCall;
  /** What the tool result the root receives looks like around the child's answer. */
  reply: RegExp;
}

const PROMPT = 'Change only a.txt: replace alpha with ALPHA.';
const ANSWER = 'Changed a.txt (alpha -> ALPHA).';

const CASES: Case[] = [
  {
    harness: 'claude-code',
    delegate: (prompt) => ({ id: 'call_agent', name: 'Agent', arguments: { description: 'Implement fix', prompt, subagent_type: 'implementer' } }),
    read: (path) => ({ id: 'call_read', name: 'Read', arguments: { file_path: path } }),
    edit: (path) => ({ id: 'call_edit', name: 'Edit', arguments: { file_path: path, old_string: 'alpha', new_string: 'ALPHA' } }),
    reply: new RegExp(`^${escape(ANSWER)}\\n\\nagentId: [0-9a-f-]{36} .*\\n<usage>total_tokens: \\d+\\ntool_uses: 2\\nduration_ms: \\d+</usage>$`),
  },
  {
    harness: 'opencode',
    delegate: (prompt) => ({ id: 'call_task', name: 'task', arguments: { description: 'Implement fix', prompt, subagent_type: 'implementer' } }),
    read: (path) => ({ id: 'call_read', name: 'read', arguments: { filePath: path } }),
    edit: (path) => ({ id: 'call_edit', name: 'edit', arguments: { filePath: path, oldString: 'alpha', newString: 'ALPHA' } }),
    reply: new RegExp(`^task_id: [0-9a-f-]{36} .*\\n\\n<task_result>\\n${escape(ANSWER)}\\n</task_result>$`),
  },
  {
    harness: 'qwen-code',
    // Qwen Code's agent runs in the background unless told otherwise (its schema's default).
    delegate: (prompt) => ({ id: 'call_agent', name: 'agent', arguments: { description: 'Implement fix', prompt, subagent_type: 'implementer', run_in_background: false } }),
    read: (path) => ({ id: 'call_read', name: 'read_file', arguments: { file_path: path } }),
    edit: (path) => ({ id: 'call_edit', name: 'edit', arguments: { file_path: path, old_string: 'alpha', new_string: 'ALPHA' } }),
    reply: new RegExp(`^${escape(ANSWER)}$`),
  },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe.each(CASES)('$harness delegates through its own tool', (c) => {
  test('the child runs the role in the same harness, and its final message is the tool result', async () => {
    const repo = tempGitRepo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const home = agentsHome(mock.url);
    dirs.push(repo, home);
    const file = join(repo, 'a.txt');
    const seen = scriptByModel(mock, {
      [ROOT_MODEL]: [{ toolCalls: [c.delegate(PROMPT)] }, { text: 'All done.' }],
      [CHILD_MODEL]: [{ toolCalls: [c.read(file)] }, { toolCalls: [c.edit(file)] }, { text: ANSWER }],
    });
    const run = await runRig(['exec', '--json', '--harness', c.harness, '-s', 'workspace-write', 'fix a.txt'], { cwd: repo, home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    expect(seen[ROOT_MODEL]).toHaveLength(2);
    expect(seen[CHILD_MODEL]).toHaveLength(3);
    for (const request of seen[ROOT_MODEL]!) expect(JSON.stringify(request.body)).not.toContain(IMPLEMENTER_INSTRUCTIONS);
    for (const request of seen[CHILD_MODEL]!) {
      expect(JSON.stringify(request.body)).toContain(IMPLEMENTER_INSTRUCTIONS);
      // The child has its parent's harness: the same tool names.
      expect(request.body.tools.map((t: { name: string }) => t.name)).toEqual(seen[ROOT_MODEL]![0]!.body.tools.map((t: { name: string }) => t.name));
    }
    expect(readFileSync(file, 'utf8')).toBe('ALPHA\n');
    expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('beta\n');

    const result = inputTexts(seen[ROOT_MODEL]![1]!).at(-1)!;
    expect(result).toMatch(c.reply);
    const events = jsonLines(run.stdout);
    const collab = events.filter((e) => e['type'] === 'item.completed' && (e['item'] as { type: string }).type === 'collab_agent_tool_call');
    expect(collab).toHaveLength(1);
    expect(collab[0]!['item']).toMatchObject({ tool: c.delegate('').name, agent_paths: ['/root/implement_fix'], status: 'completed' });
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
  });
});
