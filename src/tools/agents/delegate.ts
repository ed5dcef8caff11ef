// Every harness's delegation tool, bound to the engine's sub-agents in that harness's own
// contract: Claude Code's and ZCode's `Agent`, Kimi's `Agent` and `AgentSwarm`, opencode's `task`,
// Qwen Code's `agent`, Kimi CLI's `Task`; and their companions (ListAgents / list_agents,
// TaskOutput for a background agent, ZCode's SendMessage). Reply texts follow
// reference/harnesses.md §4-5; the wording is rig's own.
import type { ResolvedTool } from '../../harness/profile.js';
import type { ToolContext, ToolResult, ToolSpec } from '../spec.js';
import { boolArg, fail, functionSpec, numberArg, ok, stringArg, styleOption, type Args } from '../harness/common.js';
import { createTaskOutputTool } from '../harness/shell.js';
import { AgentToolError, finalMessage, type AgentView, type AgentsCapability } from './capability.js';
import { collabCall } from './collab.js';

const STYLES = ['claude', 'zcode', 'kimi', 'opencode', 'qwen', 'kimi-cli'] as const;
type Style = (typeof STYLES)[number];

/** The harness's own built-in agent names: they mean the default agent unless a role of that name is configured. */
const BUILTIN_TYPES: Record<Style, readonly string[]> = {
  claude: ['general-purpose', 'Explore', 'Plan', 'statusline-setup', 'output-style-setup'],
  zcode: ['general-purpose', 'Explore', 'Plan'],
  kimi: ['coder', 'explore', 'plan'],
  opencode: ['general', 'explore', 'build', 'plan'],
  qwen: ['general-purpose', 'general'],
  'kimi-cli': ['coder', 'default'],
};

const DEFAULT_TYPE: Partial<Record<Style, string>> = { kimi: 'coder' };

function usageBlock(view: AgentView): string {
  return `<usage>total_tokens: ${view.totalTokens}\ntool_uses: ${view.toolUses}\nduration_ms: ${Date.now() - view.startedAt}</usage>`;
}

function failedText(view: AgentView): string {
  const status = view.status;
  if (typeof status === 'object' && 'errored' in status) return `Agent ${view.path} failed: ${status.errored}`;
  return `Agent ${view.path} ended without a result (${typeof status === 'string' ? status : 'completed'}).`;
}

/** Spawn and wait for the final message (the finished child gives back its slot but stays loaded). */
async function runForeground(agents: AgentsCapability, ctx: ToolContext, concern: (view: AgentView) => void, request: Parameters<AgentsCapability['spawn']>[0]): Promise<AgentView> {
  const spawned = await agents.spawn({ ...request, foreground: true }, ctx.signal);
  concern(spawned);
  const done = await agents.result(spawned.id, ctx.signal);
  concern(done);
  return done;
}

function foregroundReply(style: Style, view: AgentView, type: string | undefined): ToolResult {
  const answer = finalMessage(view.status);
  if (answer === undefined) return fail(failedText(view));
  switch (style) {
    case 'kimi':
      return ok(`agent_id: ${view.id}\nactual_subagent_type: ${type ?? 'coder'}\nstatus: completed\n\n[summary]\n${answer}`);
    case 'opencode':
      return ok(`task_id: ${view.id} (to continue this task later, pass it as task_id)\n\n<task_result>\n${answer}\n</task_result>`);
    case 'qwen':
    case 'kimi-cli':
      return ok(answer);
    default:
      return ok(`${answer}\n\nagentId: ${view.id} (use it to continue this agent's work)\n${usageBlock(view)}`);
  }
}

function backgroundReply(style: Style, view: AgentView): ToolResult {
  const check = style === 'qwen' ? 'list_agents' : 'TaskOutput';
  return ok(`Async agent launched successfully.\nagentId: ${view.id}\nThe agent works in the background; you are notified when it finishes (or check it with ${check}, task_id ${view.id}).`);
}

/** agents.delegate: one harness's Agent / task / agent / Task tool. */
export function createDelegateTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    { description: 'Start a sub-agent on a task and return its result.', parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] }, parallelSafe: true },
    async (args, ctx) => {
      const prompt = stringArg(args, 'prompt') ?? '';
      return collabCall(ctx, tool.name, prompt, async (agents, call) => {
        if (prompt.trim() === '') throw new AgentToolError(`${tool.name}: prompt is required`);
        const type = stringArg(args, style === 'kimi-cli' ? 'subagent_name' : 'subagent_type') ?? DEFAULT_TYPE[style];
        const description = stringArg(args, 'description');
        const existing = style === 'opencode' ? stringArg(args, 'task_id') : undefined;
        if (existing) {
          await agents.resume(existing);
          const continued = await agents.message(existing, prompt, { startTurn: true, foreground: true });
          call.concern(continued);
          const done = await agents.result(existing, ctx.signal);
          call.concern(done);
          return foregroundReply(style, done, type);
        }
        const forkTurns = style === 'qwen' ? qwenFork(args['fork_turns']) : 'none';
        const isolation = stringArg(args, 'isolation');
        if (isolation !== undefined && isolation !== 'worktree') {
          throw new AgentToolError(`${tool.name}: isolation "${isolation}" is not available in rig; use "worktree" (a git worktree of this repository) or leave it out`);
        }
        const request = {
          message: prompt,
          ...(description ? { description } : {}),
          ...(type ? { role: type } : {}),
          forkTurns,
          defaultRoleAliases: BUILTIN_TYPES[style],
          ...(isolation === 'worktree' ? { isolation: 'worktree' as const } : {}),
        };
        if (runsInBackground(style, boolArg(args, 'run_in_background'))) {
          const view = await agents.spawn(request, ctx.signal);
          call.concern(view);
          return withWorktreeNote(backgroundReply(style, view), view.worktree && { ...view.worktree, kept: true }, true);
        }
        const done = await runForeground(agents, ctx, call.concern, request);
        const settled = done.worktree ? await agents.settleWorktree?.(done.id) : undefined;
        return withWorktreeNote(foregroundReply(style, done, type), settled, false);
      });
    },
  );
}

/** Where an isolated agent's work is: its worktree and branch, or that it changed nothing and the worktree went. */
function withWorktreeNote(reply: ToolResult, worktree: { path: string; branch: string; kept: boolean } | undefined, running: boolean): ToolResult {
  if (!worktree) return reply;
  const note = running
    ? `The agent works in its own git worktree at ${worktree.path} (branch ${worktree.branch}).`
    : worktree.kept
      ? `The agent worked in its own git worktree; its changes are at ${worktree.path} on branch ${worktree.branch} (merge or cherry-pick them from there).`
      : 'The agent worked in its own git worktree and changed nothing there, so the worktree was removed.';
  const text = typeof reply.output === 'string' ? reply.output : undefined;
  return text === undefined ? reply : { ...reply, output: `${text}\n\n${note}` };
}

/**
 * Qwen Code's `agent` declares `run_in_background` with `default: true` (its 0.24 schema, in
 * test/fixtures/harness-tools): left out, the agent runs in the background. The other harnesses
 * run it in the foreground unless asked.
 */
function runsInBackground(style: Style, asked: boolean | undefined): boolean {
  return style === 'qwen' ? asked !== false : asked === true;
}

function qwenFork(value: unknown): 'none' | 'all' | number {
  if (value === 'all') return 'all';
  if (typeof value === 'string' && /^[1-9][0-9]*$/.test(value)) return Number(value);
  return 'none';
}

/** agents.swarm: Kimi's AgentSwarm, the items one after another through a foreground agent. */
export function createSwarmTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Run one sub-agent per item.', parameters: { type: 'object', properties: { description: { type: 'string' } }, required: ['description'] }, parallelSafe: false },
    async (args, ctx) => {
      const description = stringArg(args, 'description') ?? '';
      const template = stringArg(args, 'prompt_template') ?? '{{item}}';
      const items = Array.isArray(args['items']) ? (args['items'] as unknown[]).filter((item): item is string => typeof item === 'string') : [];
      const type = stringArg(args, 'subagent_type') ?? 'coder';
      return collabCall(ctx, tool.name, description, async (agents, call) => {
        if (items.length === 0) throw new AgentToolError(`${tool.name}: items must list at least one entry (each becomes {{item}} in prompt_template)`);
        const parts: string[] = [];
        let completed = 0;
        for (const item of items) {
          const done = await runForeground(agents, ctx, call.concern, {
            message: template.split('{{item}}').join(item),
            description: `${description} ${item}`,
            role: type,
            forkTurns: 'none',
            defaultRoleAliases: BUILTIN_TYPES.kimi,
          });
          const answer = finalMessage(done.status);
          if (answer !== undefined) completed++;
          parts.push(`<subagent item="${escapeAttr(item)}" outcome="${answer !== undefined ? 'completed' : 'failed'}">${answer ?? failedText(done)}</subagent>`);
        }
        return ok(`<agent_swarm_result><summary>completed: ${completed}</summary>${parts.join('')}</agent_swarm_result>`);
      });
    },
  );
}

function escapeAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function statusLine(view: AgentView): string {
  const status = view.status;
  const word = typeof status === 'string' ? status : 'completed' in status ? 'completed' : 'errored';
  return `- ${view.id} ${view.path}${view.role ? ` (${view.role})` : ''}: ${word}`;
}

/** agents.list: ListAgents (Claude Code) and list_agents (Qwen Code). */
export function createListAgentsTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'List the sub-agents of this session.', parameters: { type: 'object', properties: {} }, parallelSafe: true },
    async (args, ctx) => {
      const agents = ctx.caps.agents;
      if (!agents?.enabled) return fail(`${tool.name}: sub-agents are not enabled in this session (set [agents] enabled = true in config.toml).`);
      const query = stringArg(args, 'q')?.toLowerCase();
      const views = agents.list().filter((view) => !query || view.path.toLowerCase().includes(query) || (view.role ?? '').toLowerCase().includes(query));
      if (views.length === 0) return ok('No agents in this session.');
      return ok(`agents: ${views.length}\n${views.map(statusLine).join('\n')}`);
    },
  );
}

/** agents.send_message: ZCode's SendMessage to a running or finished agent (a finished one starts a new turn). */
export function createSendMessageTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    { description: 'Send a message to a sub-agent.', parameters: { type: 'object', properties: { to: { type: 'string' }, message: { type: 'string' } }, required: ['to', 'message'] }, parallelSafe: false },
    async (args, ctx) => {
      const to = stringArg(args, 'to') ?? '';
      const message = stringArg(args, 'message') ?? '';
      return collabCall(ctx, tool.name, message, async (agents, call) => {
        if (to === '' || message === '') throw new AgentToolError(`${tool.name}: to and message are required`);
        await agents.resume(to);
        const view = await agents.message(to, message, { startTurn: true });
        call.concern(view);
        return ok(`Message sent to ${view.path}; it is working on it.`);
      });
    },
  );
}

/**
 * agents.task_output: TaskOutput for a background agent (by its id), and for anything else the
 * harness's background shell tasks, as before.
 */
export function createAgentTaskOutputTool(tool: ResolvedTool): ToolSpec {
  const shellTasks = createTaskOutputTool(tool);
  const unit = tool.options['timeout_unit'] ?? 'ms';
  const blockByDefault = tool.options['style'] !== 'kimi';
  return {
    ...shellTasks,
    handle: async (raw, ctx) => {
      const args = (raw && typeof raw === 'object' ? raw : {}) as Args;
      const id = stringArg(args, 'task_id') ?? '';
      const agents = ctx.caps.agents;
      const agent = agents?.enabled ? agents.find(id) : undefined;
      if (!agents || !agent) return shellTasks.handle(raw, ctx);
      const block = boolArg(args, 'block') ?? blockByDefault;
      const timeout = (numberArg(args, 'timeout') ?? (unit === 's' ? 30 : 30_000)) * (unit === 's' ? 1000 : 1);
      const view = block ? (await agents.wait([id], timeout, ctx.signal), agents.find(id) ?? agent) : agent;
      const answer = finalMessage(view.status);
      const finished = typeof view.status === 'object' || view.status === 'interrupted' || view.status === 'shutdown';
      return ok(
        [
          `<retrieval_status>${finished ? 'complete' : 'not_ready'}</retrieval_status>`,
          `<task_id>${view.id}</task_id>`,
          '<task_type>local_agent</task_type>',
          `<status>${finished ? (answer !== undefined ? 'completed' : 'failed') : 'running'}</status>`,
          `<output>\n${answer ?? (finished ? failedText(view) : '')}</output>`,
        ].join('\n'),
      );
    },
  };
}
