// The capability ids harness profiles bind their delegation tools to (see delegate.ts).
import type { ToolFactory } from '../../harness/profile.js';
import type { ToolSpec } from '../spec.js';
import { createAgentTaskOutputTool, createDelegateTool, createListAgentsTool, createSendMessageTool, createSwarmTool } from './delegate.js';

export function agentCapabilities(): [string, ToolFactory<ToolSpec>][] {
  return [
    ['agents.delegate', createDelegateTool],
    ['agents.swarm', createSwarmTool],
    ['agents.list', createListAgentsTool],
    ['agents.send_message', createSendMessageTool],
    ['agents.task_output', createAgentTaskOutputTool],
  ];
}
