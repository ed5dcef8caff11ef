// Every sub-agent tool call shows up in the caller's stream as one collab_agent_tool_call item:
// started when the call begins, completed (or failed) with the children's states when it ends.
import type { CollabAgentToolCallItem } from '../../protocol/index.js';
import type { ToolContext, ToolResult } from '../spec.js';
import { AgentToolError, collabState, type AgentView, type AgentsCapability } from './capability.js';

export interface CollabCall {
  /** Record the agents the call concerns (as soon as they are known). */
  concern(...agents: AgentView[]): void;
}

/**
 * Runs `body` as one collab item. An AgentToolError (or any error) becomes a failed tool result
 * carrying its message, so the model reads what went wrong.
 */
export async function collabCall(
  ctx: ToolContext,
  tool: string,
  prompt: string | null,
  body: (agents: AgentsCapability, call: CollabCall) => Promise<ToolResult>,
): Promise<ToolResult> {
  const agents = ctx.caps.agents;
  if (!agents || !agents.enabled) {
    return {
      output: `${tool}: sub-agents are not enabled in this session. Set \`[agents] enabled = true\` in RIG_HOME/config.toml (or pass -c agents.enabled=true) to use them; continue without delegating.`,
      success: false,
    };
  }
  const concerned = new Map<string, AgentView>();
  const item = (status: CollabAgentToolCallItem['status']): CollabAgentToolCallItem => {
    const views = [...concerned.values()].map((view) => agents.find(view.id) ?? view);
    return {
      id,
      type: 'collab_agent_tool_call',
      tool,
      sender_thread_id: ctx.threadId,
      receiver_thread_ids: views.map((view) => view.id),
      agent_paths: views.map((view) => view.path),
      prompt,
      agents_states: Object.fromEntries(views.map((view) => [view.id, collabState(view.status)])),
      status,
    };
  };
  const id = ctx.newItemId();
  ctx.emitItem('started', item('in_progress'));
  try {
    const result = await body(agents, { concern: (...views) => views.forEach((view) => concerned.set(view.id, view)) });
    ctx.emitItem('completed', item(result.success ? 'completed' : 'failed'));
    return result;
  } catch (error) {
    ctx.emitItem('completed', item('failed'));
    const message = error instanceof Error ? error.message : String(error);
    return { output: error instanceof AgentToolError ? message : `${tool} failed: ${message}`, success: false };
  }
}
