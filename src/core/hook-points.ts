// Where the engine fires hook events (docs/extensibility.md has the table): one ThreadHooks per
// loaded thread holds the active handlers and the session facts every event's stdin carries, runs
// an event, puts its runs on the thread's event stream (hook/started, hook/completed) and turns the
// combined outcome into what the turn loop acts on. SubagentStart and SubagentStop are fired by the
// sub-agent runtime through `run` (they are not raised by a plain thread).
import type { ConversationItem, ThreadEvent, ToolOutput } from '../protocol/index.js';
import { runHooks, hookToolIdentity, type HookDefinition, type HookEventName, type HookInputs, type HookOutcome, type HookStreamItem } from '../hooks/index.js';
import type { ProcessScope } from '../exec/process-groups.js';
import type { ToolCall } from '../tools/router.js';
import type { PermissionVerdict, ToolCallGate, ToolResult } from '../tools/spec.js';
import { applyUpdatedInput, hookToolInput } from './tool-hook-input.js';

export interface ThreadHooksOptions {
  handlers: readonly HookDefinition[];
  sessionId: string;
  cwd: string;
  projectDir?: string;
  env: NodeJS.ProcessEnv;
  scope: ProcessScope;
}

/** What changes with the thread's settings (the runtime build sets it). */
export interface HookSessionFacts {
  model: string;
  permissionMode: string;
  /** Tool name -> engine capability id (the harness profile's binding). */
  capabilityOf(toolName: string): string | undefined;
  /** Tool name -> the MCP server and tool it calls, for the thread's MCP tools. */
  mcpToolOf?(toolName: string): { server: string; tool: string } | undefined;
}

/**
 * How hooks see an MCP tool: Claude Code's mcp__<server>__<tool> (characters outside
 * [A-Za-z0-9_-] as `_`) whatever name the harness gave the model, which stays a matcher alias.
 */
function mcpHookIdentity(callName: string, ref: { server: string; tool: string }): { name: string; aliases: string[] } {
  const clean = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_');
  const name = `mcp__${clean(ref.server)}__${clean(ref.tool)}`;
  return { name, aliases: callName === name ? [] : [callName] };
}

/** Claude Code's permission mode for rig's policies. */
export function permissionModeFor(approvalPolicy: unknown, sandboxMode: string, yolo: boolean): string {
  if (yolo || (approvalPolicy === 'never' && sandboxMode === 'danger-full-access')) return 'bypassPermissions';
  return 'default';
}

/** A hook's text for the model, as a contextual fragment (context/contextual.ts knows the tag). */
export function hookContextItem(event: HookEventName, text: string): ConversationItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<hook_context event="${event}">\n${text}\n</hook_context>` }] };
}

function outputText(output: ToolOutput): string {
  return typeof output === 'string' ? output : output.map((part) => ('text' in part ? part.text : '')).join('');
}

function appendToOutput(output: ToolOutput, extra: string): ToolOutput {
  if (typeof output === 'string') return output === '' ? extra : `${output}\n\n${extra}`;
  return [...output, { type: 'input_text', text: extra }];
}

export class ThreadHooks {
  private facts: HookSessionFacts = { model: '', permissionMode: 'default', capabilityOf: () => undefined };
  private emitter: ((turnId: string | null, event: ThreadEvent) => void) | undefined;
  private readonly queued: ConversationItem[] = [];
  transcriptPath: string | null = null;
  /** Where systemMessages and hook failures go (the thread's warning items). */
  warn: (text: string) => void = () => {};

  constructor(private readonly options: ThreadHooksOptions) {}

  get active(): boolean {
    return this.options.handlers.length > 0;
  }

  has(event: HookEventName): boolean {
    return this.options.handlers.some((h) => h.event === event);
  }

  setFacts(facts: HookSessionFacts): void {
    this.facts = facts;
  }

  attach(emit: (turnId: string | null, event: ThreadEvent) => void): void {
    this.emitter = emit;
  }

  queueContext(item: ConversationItem): void {
    this.queued.push(item);
  }

  /** Context hooks produced outside a turn (SessionStart, async handlers): sent with the next turn. */
  takeQueuedContext(): ConversationItem[] {
    return this.queued.splice(0, this.queued.length);
  }

  async run<E extends HookEventName>(event: E, input: HookInputs[E], turnId?: string, signal?: AbortSignal): Promise<HookOutcome | undefined> {
    if (!this.has(event)) return undefined;
    const onItem = (item: HookStreamItem) => this.emitter?.(item.turnId, { type: item.type, run: item.run });
    const outcome = await runHooks(event, input, {
      handlers: this.options.handlers,
      sessionId: this.options.sessionId,
      ...(turnId !== undefined ? { turnId } : {}),
      cwd: this.options.cwd,
      transcriptPath: this.transcriptPath,
      model: this.facts.model,
      permissionMode: this.facts.permissionMode,
      ...(this.options.projectDir ? { projectDir: this.options.projectDir } : {}),
      env: this.options.env,
      scope: this.options.scope,
      onItem,
      onAsyncContext: (from, text) => this.queued.push(hookContextItem(from, text)),
      ...(signal ? { signal } : {}),
    });
    for (const message of outcome.systemMessages) this.warn(message);
    return outcome;
  }

  /**
   * One tool call under PreToolUse and PostToolUse: a block answers the model with the reason, a
   * rewrite replaces the call's input, a permission decision and PermissionRequest hooks take part
   * in the approval step (the gate), and feedback goes to the model with the result.
   */
  async toolCall(
    call: ToolCall,
    run: (call: ToolCall, gate?: ToolCallGate) => Promise<ToolResult>,
    turn: { id: string; signal: AbortSignal; requestStop(reason: string): void },
  ): Promise<ToolResult> {
    if (!this.has('PreToolUse') && !this.has('PostToolUse') && !this.has('PermissionRequest')) return run(call);
    const capability = this.facts.capabilityOf(call.name);
    const mcpRef = capability === undefined ? this.facts.mcpToolOf?.(call.name) : undefined;
    const identity = mcpRef ? mcpHookIdentity(call.name, mcpRef) : hookToolIdentity(call.name, capability);
    const tool = { tool_name: identity.name, matcher_aliases: identity.aliases };
    const pre = await this.run('PreToolUse', { ...tool, tool_input: hookToolInput(call, capability), tool_use_id: call.call_id }, turn.id, turn.signal);
    if (pre?.stop) turn.requestStop(pre.stopReason ?? 'a PreToolUse hook stopped the turn');
    if (pre?.blocked || pre?.permissionDecision === 'deny' || pre?.stop) {
      const reason = pre.reason ?? pre.stopReason ?? 'blocked by a PreToolUse hook';
      return { output: `${call.name} was not run: a PreToolUse hook blocked it: ${reason}`, success: false };
    }
    let effective = call;
    if (pre?.updatedInput !== undefined) effective = applyUpdatedInput(call, capability, pre.updatedInput);
    const gate: ToolCallGate = {
      ...(pre?.permissionDecision === 'allow' || pre?.permissionDecision === 'ask' ? { permissionDecision: pre.permissionDecision } : {}),
      ...(this.has('PermissionRequest')
        ? {
            permissionRequest: async (): Promise<PermissionVerdict | undefined> => {
              const asked = await this.run('PermissionRequest', { ...tool, tool_input: hookToolInput(effective, capability) }, turn.id, turn.signal);
              return asked?.permission;
            },
          }
        : {}),
    };
    let result = await run(effective, gate);
    if (pre && pre.additionalContexts.length > 0) result = { ...result, output: appendToOutput(result.output, pre.additionalContexts.join('\n\n')) };
    const post = await this.run(
      'PostToolUse',
      { ...tool, tool_input: hookToolInput(effective, capability), tool_use_id: call.call_id, tool_response: outputText(result.output) },
      turn.id,
      turn.signal,
    );
    if (post) {
      const notes = [...(post.feedback !== undefined ? [post.feedback] : []), ...post.additionalContexts];
      if (notes.length > 0) result = { ...result, output: appendToOutput(result.output, notes.join('\n\n')) };
      if (post.stop) turn.requestStop(post.stopReason ?? 'a PostToolUse hook stopped the turn');
    }
    return result;
  }
}
