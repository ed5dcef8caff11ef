// Per-turn bookkeeping of a Thread: the todo list item of the turn and the services (capabilities,
// approvals, item events) handed to the tools it runs.
import type { ApprovalRequest, ThreadItem, TodoEntry } from '../protocol/index.js';
import type { ToolCallGate, ToolCapabilities, ToolContext, TurnServices } from '../tools/spec.js';
import type { Thread } from './thread.js';
import type { TurnExtension } from './thread-types.js';

/** Per-turn bookkeeping: the todo list item and the services handed to tools. */
export class TurnState {
  private planItem: ThreadItem | undefined;
  private caps: ToolCapabilities;
  private services: TurnServices;
  private workspaceVersion: number;

  constructor(
    private readonly thread: Thread,
    private readonly signal: AbortSignal,
    readonly id: string,
    canAskApproval: boolean,
    readonly extension: TurnExtension = {},
  ) {
    const services: TurnServices = {
      ...extension.services,
      cwd: thread.cwd,
      threadId: thread.id,
      signal,
      emit: (event) => thread.emit(event),
      newItemId: () => thread.newItemId(),
      askApproval: (request) => thread.requestApproval(request as Omit<ApprovalRequest, 'id'>, signal),
      canAskApproval,
    };
    this.services = services;
    this.caps = this.capabilities(services);
    this.workspaceVersion = thread.workspaceVersion;
  }

  /** The turn's capabilities, rebuilt for the new directory and runtime once the thread relocated. */
  private currentCaps(): ToolCapabilities {
    if (this.workspaceVersion !== this.thread.workspaceVersion) {
      this.workspaceVersion = this.thread.workspaceVersion;
      this.services = { ...this.services, cwd: this.thread.cwd };
      this.caps = this.capabilities(this.services);
    }
    return this.caps;
  }

  private capabilities(services: TurnServices): ToolCapabilities {
    return {
      ...this.thread.makeCapabilities(services),
      updatePlan: (items) => this.updatePlan(items),
      attachImage: (part) => this.thread.addImage(part),
    };
  }

  stepHooks() {
    const thread = this.thread;
    return {
      emit: (phase: 'started' | 'updated' | 'completed', item: ThreadItem) => thread.emit({ type: `item.${phase}`, item }),
      newItemId: () => thread.newItemId(),
      textDelta: (itemId: string, delta: string) => thread.emit({ type: 'item.agent_message.delta', item_id: itemId, delta }),
      reasoningDelta: (itemId: string, delta: string) => thread.emit({ type: 'item.reasoning.delta', item_id: itemId, delta }),
      retry: (event: { attempt: number; max_attempts: number; delay_ms: number; reason: string }) => {
        thread.emit({ type: 'model.retry', attempt: event.attempt, max_attempts: event.max_attempts, delay_ms: event.delay_ms, reason: event.reason });
        thread.emit({
          type: 'item.completed',
          item: { id: thread.newItemId(), type: 'error', message: `Reconnecting... ${event.attempt}/${event.max_attempts} (${event.reason})` },
        });
      },
      ...(this.extension.callTool ? { callTool: this.extension.callTool } : {}),
      commandCallStarted: () => this.services.checkpoint?.prepareForCommands?.(),
      toolContext: (gate?: ToolCallGate): ToolContext => {
        const caps = this.currentCaps();
        return {
          cwd: thread.cwd,
          threadId: thread.id,
          signal: this.signal,
          // A call hooks decided about gets capabilities that carry the decision to the orchestrator.
          caps: gate ? this.capabilities({ ...this.services, callGate: gate }) : caps,
          threadState: thread.state,
          emitItem: (phase, item) => thread.emit({ type: `item.${phase}`, item }),
          newItemId: () => thread.newItemId(),
        };
      },
    };
  }

  private updatePlan(items: TodoEntry[]): void {
    if (this.planItem === undefined) {
      this.planItem = { id: this.thread.newItemId(), type: 'todo_list', items };
      this.thread.emit({ type: 'item.started', item: this.planItem });
    } else {
      this.planItem = { ...this.planItem, items } as ThreadItem;
      this.thread.emit({ type: 'item.updated', item: this.planItem });
    }
  }

  finishPlan(): void {
    if (this.planItem) this.thread.emit({ type: 'item.completed', item: this.planItem });
    this.planItem = undefined;
  }
}
