// The two tools `rig mcp-server` offers and how their arguments become a thread request. `rig`
// starts a thread and runs a turn; `rig-reply` continues one. Codex's MCP server calls them
// `codex` and `codex-reply` with kebab-case inputs (approval-policy, base-instructions, ...) and
// `conversationId` as an older name of `threadId`: those names are accepted too, so a client
// written for Codex drives rig unchanged.
import { resolve as resolvePath } from 'node:path';
import type { ThreadStartRequest } from '../../core/engine.js';
import { CLIENT_TURNS_NO_TIMERS } from '../../core/timers/reasons.js';

export const RIG_TOOL = 'rig';
export const RIG_REPLY_TOOL = 'rig-reply';
/** Codex's names of the same two tools. */
export const TOOL_ALIASES: Readonly<Record<string, typeof RIG_TOOL | typeof RIG_REPLY_TOOL>> = {
  rig: RIG_TOOL,
  codex: RIG_TOOL,
  'rig-reply': RIG_REPLY_TOOL,
  'codex-reply': RIG_REPLY_TOOL,
};

const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
const APPROVAL_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'] as const;

const text = (description: string) => ({ type: 'string', description });

export const TOOL_DEFINITIONS = [
  {
    name: RIG_TOOL,
    title: 'rig: run a coding agent turn',
    description:
      'Start a rig session (a thread) and run one turn of the agent on the prompt. Returns the final message and the threadId; continue the conversation with rig-reply.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: text('The task or question for the agent.'),
        cwd: text('Working directory of the session (default: where rig mcp-server runs).'),
        model: text('Model to use (default: config.toml).'),
        profile: text('Config profile from config.toml ([profiles.NAME]).'),
        sandbox: { type: 'string', enum: [...SANDBOX_MODES], description: 'Sandbox for the commands the agent runs.' },
        approval_policy: { type: 'string', enum: [...APPROVAL_POLICIES], description: 'When the agent must ask before acting (asked through elicitation).' },
        harness: text('Harness to present to the model (native, claude-code, opencode, ...).'),
        base_instructions: text('Replaces the base instructions (the system prompt) for this session.'),
        developer_instructions: text('Developer instructions added to the session.'),
        config: { type: 'object', description: 'config.toml settings for this session, as key -> value (dotted keys allowed).', additionalProperties: true },
      },
      required: ['prompt'],
    },
  },
  {
    name: RIG_REPLY_TOOL,
    title: 'rig: continue a session',
    description: 'Run another turn in a rig session started with the rig tool, by its threadId.',
    inputSchema: {
      type: 'object',
      properties: {
        threadId: text('The threadId a rig call returned.'),
        prompt: text('The next message to the agent.'),
      },
      required: ['threadId', 'prompt'],
    },
  },
] as const;

export class ToolInputError extends Error {}

function pick(args: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) if (args[name] !== undefined && args[name] !== null) return args[name];
  return undefined;
}

function stringArg(args: Record<string, unknown>, ...names: string[]): string | undefined {
  const value = pick(args, ...names);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`${names[0]} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new ToolInputError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

export interface RigCall {
  prompt: string;
  request: ThreadStartRequest;
  baseInstructions?: string;
}

/** `config` -> `-c key=value` overrides (values as TOML: JSON strings, numbers, booleans and arrays are TOML too). */
function configOverrides(value: unknown, prefix = ''): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ToolInputError('config must be an object of config.toml keys and values');
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return configOverrides(v, path);
    return [`${path}=${JSON.stringify(v)}`];
  });
}

/** The rig (or codex) tool's arguments as a thread start; `cwd` resolves against `baseCwd`. */
export function parseRigCall(args: Record<string, unknown>, baseCwd: string, canAskApproval: boolean): RigCall {
  const prompt = stringArg(args, 'prompt');
  if (prompt === undefined || prompt.trim() === '') throw new ToolInputError('prompt is required: the task for the agent');
  const cwd = stringArg(args, 'cwd');
  const profile = stringArg(args, 'profile');
  const model = stringArg(args, 'model');
  const harness = stringArg(args, 'harness');
  const sandbox = oneOf(stringArg(args, 'sandbox'), SANDBOX_MODES, 'sandbox');
  const approvalPolicy = oneOf(stringArg(args, 'approval_policy', 'approval-policy'), APPROVAL_POLICIES, 'approval_policy');
  const developer = stringArg(args, 'developer_instructions', 'developer-instructions');
  const base = stringArg(args, 'base_instructions', 'base-instructions');
  const config = [...configOverrides(pick(args, 'config')), ...(developer !== undefined ? [`developer_instructions=${JSON.stringify(developer)}`] : [])];
  const request: ThreadStartRequest = {
    cwd: cwd ? resolvePath(baseCwd, cwd) : baseCwd,
    ...(profile ? { profile } : {}),
    ...(config.length > 0 ? { config } : {}),
    overrides: {
      ...(model ? { model } : {}),
      ...(harness ? { harness } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(approvalPolicy ? { approvalPolicy } : {}),
    },
    canAskApproval,
    noTimers: CLIENT_TURNS_NO_TIMERS,
    originator: 'rig_mcp_server',
  };
  return { prompt, request, ...(base !== undefined ? { baseInstructions: base } : {}) };
}

export function parseReplyCall(args: Record<string, unknown>): { threadId: string; prompt: string } {
  const threadId = stringArg(args, 'threadId', 'conversationId', 'thread_id');
  if (!threadId) throw new ToolInputError('threadId is required: the threadId a rig call returned');
  const prompt = stringArg(args, 'prompt');
  if (prompt === undefined || prompt.trim() === '') throw new ToolInputError('prompt is required: the next message to the agent');
  return { threadId, prompt };
}
