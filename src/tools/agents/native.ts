// Codex's multi-agent tools, in its v2 set (task paths: spawn_agent, send_message, followup_task,
// wait_agent, interrupt_agent, list_agents, close_agent) and its v1 set (thread ids: spawn_agent,
// send_input, resume_agent, wait_agent, close_agent). Names, parameters and outputs follow
// reference/tools-native.md §9; the descriptions are rig's own.
import type { JsonSchema } from '../../protocol/index.js';
import type { ToolResult, ToolSpec } from '../spec.js';
import { AgentToolError, type AgentStatusValue, type AgentView, type SpawnRequest } from './capability.js';
import { collabCall } from './collab.js';

/** wait_agent's timeout: Codex's default and bounds, in milliseconds. */
export const WAIT_TIMEOUT_DEFAULT_MS = 30_000;
export const WAIT_TIMEOUT_MIN_MS = 10_000;
export const WAIT_TIMEOUT_MAX_MS = 3_600_000;

type Args = Record<string, unknown>;

const str = (description: string): JsonSchema => ({ type: 'string', description });
const object = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

function json(value: unknown, success = true): ToolResult {
  return { output: JSON.stringify(value), success };
}

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AgentToolError(`${name} is required (a non-empty string)`);
  return value;
}

function optional(args: Args, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function clampTimeout(value: unknown): number {
  const asked = typeof value === 'number' && Number.isFinite(value) ? value : WAIT_TIMEOUT_DEFAULT_MS;
  return Math.min(WAIT_TIMEOUT_MAX_MS, Math.max(WAIT_TIMEOUT_MIN_MS, Math.round(asked)));
}

function forkTurns(value: unknown, fallback: 'none' | 'all'): SpawnRequest['forkTurns'] {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === 'none' || value === 'all') return value;
  if (typeof value === 'string' && /^[1-9][0-9]*$/.test(value)) return Number(value);
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new AgentToolError(`fork_turns must be "none", "all" or a positive integer as a string, not ${JSON.stringify(value)}`);
}

function spawnFields(args: Args): Omit<SpawnRequest, 'message' | 'forkTurns'> {
  const role = optional(args, 'agent_type');
  const model = optional(args, 'model');
  const effort = optional(args, 'reasoning_effort');
  return { ...(role ? { role } : {}), ...(model ? { model } : {}), ...(effort ? { reasoningEffort: effort } : {}) };
}

function tool(name: string, description: string, parameters: JsonSchema, handle: (args: Args, call: Parameters<Parameters<typeof collabCall>[3]>[0], concern: (...views: AgentView[]) => void, signal: AbortSignal) => Promise<ToolResult>, prompt?: (args: Args) => string | null): ToolSpec {
  return {
    name,
    description,
    kind: 'function',
    parameters,
    parallelSafe: false,
    handle: (raw, ctx) => {
      const args = (raw && typeof raw === 'object' ? raw : {}) as Args;
      return collabCall(ctx, name, prompt?.(args) ?? null, (agents, call) => handle(args, agents, call.concern, ctx.signal));
    },
  };
}

const messageOf = (args: Args) => (typeof args['message'] === 'string' ? args['message'] : null);

export function multiAgentV2Tools(): ToolSpec[] {
  return [
    tool(
      'spawn_agent',
      'Start a sub-agent on a bounded task. It runs in parallel; its final answer arrives later as a notification (use wait_agent to wait for it). Address it afterwards by its task path (the parent path + "/" + task_name).',
      object(
        {
          task_name: str('Short name for the task: lowercase letters, digits and _. Becomes the last segment of the agent path.'),
          message: str('The task for the agent: what to do, which files it may change, and what to report.'),
          agent_type: str('A configured role (see [agents.<role>] in config); omit for the default agent.'),
          fork_turns: str('How much of your conversation the agent starts with: "none", "all" (default) or a number of recent turns.'),
          model: str('A model for the agent; omit to use the role\'s or the configured default.'),
          reasoning_effort: str('Reasoning effort for the agent (low, medium, high, ...).'),
        },
        ['task_name', 'message'],
      ),
      async (args, agents, concern, signal) => {
        const taskName = text(args, 'task_name');
        if (!/^[a-z0-9_]+$/.test(taskName)) throw new AgentToolError(`task_name "${taskName}" may only contain lowercase letters, digits and _`);
        const view = await agents.spawn({ taskName, message: text(args, 'message'), forkTurns: forkTurns(args['fork_turns'], 'all'), ...spawnFields(args) }, signal);
        concern(view);
        return json({ task_name: view.path, nickname: view.nickname });
      },
      messageOf,
    ),
    tool(
      'send_message',
      'Queue a message for an agent without starting a turn: a running agent reads it with its next step, an idle one with its next task.',
      object({ target: str('The agent path (e.g. /root/task_name) or task name.'), message: str('The message.') }, ['target', 'message']),
      async (args, agents, concern) => {
        const view = await agents.message(text(args, 'target'), text(args, 'message'), { startTurn: false });
        concern(view);
        return json({ target: view.path, status: view.status });
      },
      messageOf,
    ),
    tool(
      'followup_task',
      'Send a follow-up task to an existing agent; an idle agent starts a new turn on it.',
      object({ target: str('The agent path or task name.'), message: str('The follow-up task.') }, ['target', 'message']),
      async (args, agents, concern) => {
        const view = await agents.message(text(args, 'target'), text(args, 'message'), { startTurn: true });
        concern(view);
        return json({ target: view.path, status: view.status });
      },
      messageOf,
    ),
    tool(
      'wait_agent',
      `Wait until an agent you started finishes a turn (its answer arrives as a notification), or until the timeout. timeout_ms defaults to ${WAIT_TIMEOUT_DEFAULT_MS} and is kept between ${WAIT_TIMEOUT_MIN_MS} and ${WAIT_TIMEOUT_MAX_MS}.`,
      object({ timeout_ms: { type: 'number', description: 'How long to wait, in milliseconds.' } }, []),
      async (args, agents, concern, signal) => {
        const outcome = await agents.wait(undefined, clampTimeout(args['timeout_ms']), signal);
        concern(...outcome.updated);
        const message = outcome.updated.length > 0
          ? `Agents with updates: ${outcome.updated.map((view) => `${view.path} (${statusWord(view.status)})`).join(', ')}.`
          : outcome.timedOut
            ? 'No agent finished before the timeout.'
            : 'No agents are running.';
        return json({ message, timed_out: outcome.timedOut });
      },
    ),
    tool(
      'interrupt_agent',
      'Stop the turn an agent is running (it keeps its conversation and can get a follow-up task).',
      object({ target: str('The agent path or task name.') }, ['target']),
      async (args, agents, concern) => {
        const target = text(args, 'target');
        const previous = await agents.interrupt(target);
        const view = agents.find(target);
        if (view) concern(view);
        return json({ previous_status: previous });
      },
    ),
    tool(
      'list_agents',
      'List the agents of this session with their status.',
      object({ path_prefix: str('Only agents whose path starts with this.') }, []),
      async (args, agents) => json({ agents: agents.list(optional(args, 'path_prefix')).map((view) => ({ agent_name: view.path, agent_status: view.status })) }),
    ),
    closeTool(),
  ];
}

export function multiAgentV1Tools(): ToolSpec[] {
  const items: JsonSchema = {
    type: 'array',
    description: 'Input items (text entries are used).',
    items: { type: 'object', properties: { type: { type: 'string' }, text: { type: 'string' } }, required: ['type'] },
  };
  const messageFrom = (args: Args): string => {
    const message = optional(args, 'message');
    if (message) return message;
    const parts = Array.isArray(args['items']) ? (args['items'] as { type?: unknown; text?: unknown }[]).flatMap((item) => (typeof item?.text === 'string' ? [item.text] : [])) : [];
    if (parts.length === 0) throw new AgentToolError('give the agent a message (or items with text)');
    return parts.join('\n');
  };
  return [
    tool(
      'spawn_agent',
      'Start a sub-agent on a bounded task. It runs in parallel; wait_agent returns its final answer.',
      object(
        {
          message: str('The task for the agent.'),
          items,
          agent_type: str('A configured role; omit for the default agent.'),
          fork_context: { type: 'boolean', description: 'Start the agent with a copy of your conversation.' },
          model: str('A model for the agent.'),
          reasoning_effort: str('Reasoning effort for the agent.'),
        },
        [],
      ),
      async (args, agents, concern, signal) => {
        const view = await agents.spawn({ message: messageFrom(args), forkTurns: args['fork_context'] === true ? 'all' : 'none', ...spawnFields(args) }, signal);
        concern(view);
        return json({ agent_id: view.id, nickname: view.nickname });
      },
      (args) => optional(args, 'message') ?? null,
    ),
    tool(
      'send_input',
      'Send input to an agent: an idle agent starts a turn on it, a running one reads it with its next step (interrupt: true stops its turn first).',
      object({ target: str('The agent id.'), message: str('The input.'), items, interrupt: { type: 'boolean' } }, ['target']),
      async (args, agents, concern) => {
        const view = await agents.message(text(args, 'target'), messageFrom(args), { startTurn: true, interrupt: args['interrupt'] === true });
        concern(view);
        return json({ submission_id: `${view.id}:${Date.now()}` });
      },
      (args) => optional(args, 'message') ?? null,
    ),
    tool(
      'resume_agent',
      'Load a closed agent again so it can take more input.',
      object({ id: str('The agent id.') }, ['id']),
      async (args, agents, concern) => {
        const view = await agents.resume(text(args, 'id'));
        concern(view);
        return json({ status: view.status });
      },
    ),
    tool(
      'wait_agent',
      `Wait until one of the agents finishes, or until the timeout (timeout_ms defaults to ${WAIT_TIMEOUT_DEFAULT_MS}, kept between ${WAIT_TIMEOUT_MIN_MS} and ${WAIT_TIMEOUT_MAX_MS}). Returns each agent's status; a finished one carries its final message.`,
      object({ targets: { type: 'array', items: { type: 'string' }, description: 'Agent ids.' }, timeout_ms: { type: 'number' } }, ['targets']),
      async (args, agents, concern, signal) => {
        const targets = Array.isArray(args['targets']) ? (args['targets'] as unknown[]).filter((t): t is string => typeof t === 'string') : [];
        if (targets.length === 0) throw new AgentToolError('targets must list at least one agent id');
        const outcome = await agents.wait(targets, clampTimeout(args['timeout_ms']), signal);
        const views = targets.map((target) => agents.find(target)).filter((view): view is AgentView => view !== undefined);
        concern(...views);
        return json({ status: Object.fromEntries(views.map((view) => [view.id, view.status])), timed_out: outcome.timedOut });
      },
    ),
    closeTool(),
  ];
}

function closeTool(): ToolSpec {
  return tool(
    'close_agent',
    'Close an agent: its turn stops, its processes end, and it no longer counts against the agent limit.',
    object({ target: str('The agent path, task name or id.') }, ['target']),
    async (args, agents, concern) => {
      const target = text(args, 'target');
      const view = agents.find(target);
      const previous = await agents.close(target);
      if (view) concern({ ...view, status: 'shutdown' });
      return json({ previous_status: previous });
    },
  );
}

function statusWord(status: AgentStatusValue): string {
  if (typeof status === 'string') return status;
  return 'completed' in status ? 'completed' : 'errored';
}
