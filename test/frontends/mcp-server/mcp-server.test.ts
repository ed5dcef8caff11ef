// `rig mcp-server` driven by the SDK's own client over stdio, the way an MCP host runs it: a turn
// against the loopback mock provider whose command needs approval (asked through elicitation),
// progress notifications, the result's threadId and final message, then rig-reply on that thread,
// and Codex's tool and input names.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { REPO_ROOT, RIG_BIN, removeDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'note.txt': 'alpha\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

async function connect(answer: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }, rigHome = home) {
  const client = new Client({ name: 'rig-test-host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer(request.params.message);
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RIG_BIN, 'mcp-server'],
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: rigHome, RIG_HOME: rigHome, MOCK_API_KEY: 'sk-mock-secret-0123456789' },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, asked };
}

describe('rig mcp-server', () => {
  test('lists rig and rig-reply; runs a turn with an approval through elicitation; rig-reply continues it', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: { decision: 'approve' } }));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['rig', 'rig-reply']);
      expect(tools.tools[0]!.inputSchema.required).toEqual(['prompt']);

      mock.enqueue(
        { toolCalls: [{ id: 'call_touch', name: 'exec_command', arguments: { cmd: 'echo made > made.txt' } }] },
        { text: 'I made the file.' },
      );
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'rig', arguments: { prompt: 'make a file', harness: 'native', sandbox: 'workspace-write', approval_policy: 'untrusted' } },
        undefined,
        { onprogress: (p) => void (p.message !== undefined && progress.push(p.message)), timeout: 60_000 },
      );
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'I made the file.' }]);
      const threadId = (result.structuredContent as { threadId: string }).threadId;
      expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.structuredContent).toEqual({ threadId, content: 'I made the file.' });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('echo made > made.txt');
      expect(fs.readFileSync(path.join(repo, 'made.txt'), 'utf8')).toBe('made\n');
      expect(progress).toEqual(expect.arrayContaining(['turn started', 'waiting for approval', 'I made the file.']));
      expect(progress.some((line) => line.startsWith('$ ') && line.includes('made.txt'))).toBe(true);

      mock.enqueue({ text: 'Still here.' });
      const before = mock.requests.length;
      const reply = await client.callTool({ name: 'rig-reply', arguments: { threadId, prompt: 'are you there?' } });
      expect(reply.structuredContent).toEqual({ threadId, content: 'Still here.' });
      // The reply continues the same conversation: the first turn is in its request.
      expect(JSON.stringify(mock.requests[before]!.body)).toContain('make a file');
    } finally {
      await client.close();
    }
  });

  test("accepts Codex's codex tool with kebab-case inputs; a declined approval is a refusal the model sees", async () => {
    const { client, asked } = await connect(() => ({ action: 'decline' }));
    try {
      mock.enqueue(
        { toolCalls: [{ id: 'call_rm', name: 'exec_command', arguments: { cmd: 'echo no > refused.txt' } }] },
        { text: 'You said no.' },
      );
      const before = mock.requests.length;
      const result = await client.callTool({
        name: 'codex',
        arguments: { prompt: 'try it', 'approval-policy': 'untrusted', sandbox: 'workspace-write', config: { harness: 'native' }, 'developer-instructions': 'Be terse.' },
      });
      expect(result.structuredContent).toMatchObject({ content: 'You said no.' });
      expect(asked).toHaveLength(1);
      expect(fs.existsSync(path.join(repo, 'refused.txt'))).toBe(false);
      const second = JSON.stringify(mock.requests[before + 1]!.body);
      expect(second).toContain('exec command rejected by user');
      expect(JSON.stringify(mock.requests[before]!.body)).toContain('Be terse.');

      const bad = await client.callTool({ name: 'codex-reply', arguments: { prompt: 'x' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('threadId is required');
    } finally {
      await client.close();
    }
  });

  test("a question from one of the session's own MCP servers reaches the client as its form", async () => {
    const fixture = path.join(REPO_ROOT, 'test', 'mcp', 'fixtures', 'fixture-server.mjs');
    const withServer = tempRigHome({
      url: mock.url,
      extra: ['[mcp_servers.fx]', `command = ${JSON.stringify(process.execPath)}`, `args = ${JSON.stringify([fixture])}`, 'required = true', 'default_tools_approval_mode = "approve"'].join('\n'),
    });
    const { client, asked } = await connect((message) => (message.includes('Which colour?') ? { action: 'accept', content: { colour: 'red' } } : { action: 'cancel' }), withServer);
    try {
      mock.enqueue({ toolCalls: [{ id: 'call_ask', name: 'mcp__fx__ask', arguments: {} }] }, { text: 'Red it is.' });
      const before = mock.requests.length;
      const result = await client.callTool({ name: 'rig', arguments: { prompt: 'ask me', harness: 'native' } });
      expect(result.structuredContent).toMatchObject({ content: 'Red it is.' });
      expect(asked).toEqual(['fx asks: Which colour?']);
      expect(JSON.stringify(mock.requests[before + 1]!.body)).toContain(JSON.stringify(JSON.stringify({ action: 'accept', content: { colour: 'red' } })).slice(1, -1));
    } finally {
      await client.close();
      removeDir(withServer);
    }
  });
});
