// MCP calls through the orchestrator: Codex's decision order by approval_mode and annotations,
// "allow for this session", "allow and don't ask again" written to config.toml (comments kept),
// refusals where nobody can answer, and a server's elicitation as a question.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../config/tmp.js';
import { call, callTools, say } from '../support/scripted-client.js';
import type { ApprovalRequest } from '../../src/protocol/index.js';
import { FIXTURE_SERVER } from './support/servers.js';
import { outputFor, outputText, serverToml, startMcpThread, type McpThread } from './support/thread.js';

// Required: a loaded machine must not make the server late for the first request.
const fixture = (extra?: string) =>
  serverToml('fx', { command: process.execPath, args: [FIXTURE_SERVER], extra: extra?.startsWith('[') ? `required = true\n${extra}` : `required = true${extra ? `\n${extra}` : ''}` });

const open: McpThread[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function thread(options: Parameters<typeof startMcpThread>[0]): Promise<McpThread> {
  const t = await startMcpThread(options);
  open.push(t);
  return t;
}

function requests(t: McpThread): ApprovalRequest[] {
  return t.events().flatMap((e) => (e.type === 'approval.requested' ? [e.request] : []));
}

/** Answers every approval request of the thread with `answer(request)`. */
function answerWith(t: McpThread, answer: (request: ApprovalRequest) => Parameters<McpThread['thread']['answerApproval']>[1], content?: Record<string, unknown>) {
  t.thread.subscribe((envelope) => {
    const event = envelope.event;
    if (event.type !== 'approval.requested') return;
    const decision = answer(event.request);
    t.thread.answerApproval(event.request.id, decision, content && event.request.kind === 'mcp_elicitation' ? { content } : {});
  });
}

describe('MCP approvals', () => {
  it('runs read-only tools without asking and asks for a tool without annotations', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture(),
      steps: [callTools(call('mcp__fx__echo', { text: 'ro' }, 'c1'), call('mcp__fx__sleep', { ms: 1 }, 'c2')), say('done')],
    });
    answerWith(t, () => 'approve');
    await t.thread.startTurn({ text: 'go' }).done;
    const asked = requests(t);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'mcp_tool_call', server: 'fx', tool: 'sleep', arguments: { ms: 1 }, allow_session: true, allow_always: true });
    expect(outputText(outputFor(t.client.requests[1], 'c2'))).toBe('slept 1');
  });

  it('in a session nobody answers (rig exec) declines, saying how to allow it', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture(),
      steps: [callTools(call('mcp__fx__sleep', { ms: 1 }, 'c1')), say('done')],
      request: { canAskApproval: false },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    const out = outputText(outputFor(t.client.requests[1], 'c1'));
    expect(out).toContain('declined without asking');
    expect(out).toContain('approval_mode = "approve" under [mcp_servers.fx.tools.sleep]');
    expect(t.events().some((e) => e.type === 'item.completed' && e.item.type === 'mcp_tool_call' && e.item.status === 'failed')).toBe(true);
  });

  it('approval_policy never refuses what would need a question, with Codex message', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture(),
      steps: [callTools(call('mcp__fx__sleep', { ms: 1 }, 'c1')), say('done')],
      request: { overrides: { approvalPolicy: 'never' } },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    expect(outputText(outputFor(t.client.requests[1], 'c1'))).toContain('MCP tool call requires approval, but approval policy is never');
  });

  it('approval_mode "prompt" asks even for read-only tools and offers no remembering', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('[mcp_servers.fx.tools.echo]\napproval_mode = "prompt"'),
      steps: [callTools(call('mcp__fx__echo', { text: 'a' }, 'c1')), callTools(call('mcp__fx__echo', { text: 'b' }, 'c2')), say('done')],
    });
    answerWith(t, () => 'approve_for_session');
    await t.thread.startTurn({ text: 'go' }).done;
    const asked = requests(t);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ tool: 'echo', allow_session: false, allow_always: false });
  });

  it('"allow for this session" stops asking for that tool', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture(),
      steps: [callTools(call('mcp__fx__sleep', { ms: 1 }, 'c1')), callTools(call('mcp__fx__sleep', { ms: 2 }, 'c2')), say('done')],
    });
    answerWith(t, () => 'approve_for_session');
    await t.thread.startTurn({ text: 'go' }).done;
    expect(requests(t)).toHaveLength(1);
    expect(outputText(outputFor(t.client.requests[2], 'c2'))).toBe('slept 2');
  });

  it('"allow and don\'t ask again" writes approval_mode = "approve" into config.toml, keeping its comments', async () => {
    const home = tempDir();
    const t = await thread({
      home,
      cwd: tempDir(),
      toml: `# my servers\n${fixture()}`,
      steps: [callTools(call('mcp__fx__sleep', { ms: 1 }, 'c1')), callTools(call('mcp__fx__sleep', { ms: 2 }, 'c2')), say('done')],
    });
    answerWith(t, () => 'approve_always');
    await t.thread.startTurn({ text: 'go' }).done;
    expect(requests(t)).toHaveLength(1);
    const text = fs.readFileSync(path.join(home, 'config.toml'), 'utf8');
    expect(text).toContain('# my servers');
    expect(text).toMatch(/\[mcp_servers\.fx\.tools\.sleep\]\s*\napproval_mode = "approve"/);
    expect(t.events().some((e) => e.type === 'item.completed' && e.item.type === 'error' && e.item.message.includes('saved in'))).toBe(true);

    // A new thread reads it: no question any more.
    const again = await thread({ home, cwd: tempDir(), toml: text.slice(text.indexOf('# my servers')), steps: [callTools(call('mcp__fx__sleep', { ms: 3 }, 'c3')), say('done')], request: { canAskApproval: false } });
    await again.thread.startTurn({ text: 'go' }).done;
    expect(outputText(outputFor(again.client.requests[1], 'c3'))).toBe('slept 3');
  });

  it('an elicitation becomes a question; its answers go back to the server', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('default_tools_approval_mode = "approve"'),
      steps: [callTools(call('mcp__fx__ask', {}, 'c1')), say('done')],
    });
    answerWith(t, () => 'approve', { colour: 'teal' });
    await t.thread.startTurn({ text: 'go' }).done;
    const [asked] = requests(t);
    expect(asked).toMatchObject({ kind: 'mcp_elicitation', server: 'fx', mode: 'form', message: 'Which colour?' });
    expect(JSON.parse(outputText(outputFor(t.client.requests[1], 'c1')))).toEqual({ action: 'accept', content: { colour: 'teal' } });
  });

  it('in rig exec an elicitation is cancelled and the model is told why', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('default_tools_approval_mode = "approve"'),
      steps: [callTools(call('mcp__fx__ask', {}, 'c1')), say('done')],
      request: { canAskApproval: false },
    });
    await t.thread.startTurn({ text: 'go' }).done;
    const out = outputText(outputFor(t.client.requests[1], 'c1'));
    expect(out).toContain('{"action":"cancel"}');
    expect(out).toContain('asked the user: "Which colour?"');
    expect(out).toContain('rig cancelled the question');
  });

  it('cuts an oversized result with a marker', async () => {
    const t = await thread({
      home: tempDir(),
      cwd: tempDir(),
      toml: fixture('default_tools_approval_mode = "approve"'),
      steps: [callTools(call('mcp__fx__big', { bytes: 200_000 }, 'c1')), say('done')],
    });
    await t.thread.startTurn({ text: 'go' }).done;
    const out = outputText(outputFor(t.client.requests[1], 'c1'));
    expect(out.length).toBeLessThan(70_000);
    expect(out).toMatch(/\[\.\.\. MCP output truncated: \d+ of 200000 bytes omitted \.\.\.\]/);
  });
});
