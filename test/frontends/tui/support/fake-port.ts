// A SessionPort for tests: records every call, and plays the events a test emits. `drained()`
// resolves once the TUI has taken every emitted event and waits for more.
import type { ExecApprovalRequest, ThreadSettingsView, UserInput } from '../../../../src/protocol/index.js';
import type { ApprovalAnswer, CommandResult, SessionEvent, SessionPort, SlashCommandSpec } from '../../../../src/frontends/tui/session-port.js';

export type PortCall =
  | { method: 'submit'; input: UserInput }
  | { method: 'steer'; id: string; input: UserInput }
  | { method: 'retractSteer'; id: string }
  | { method: 'interrupt' }
  | { method: 'answerApproval'; requestId: string; answer: ApprovalAnswer }
  | { method: 'editMessage'; userMessageId: string; input: UserInput }
  | { method: 'runCommand'; name: string; args: string }
  | { method: 'close' };

export class FakePort implements SessionPort {
  readonly calls: PortCall[] = [];
  commandSpecs: SlashCommandSpec[] = [
    { name: 'model', description: 'choose the model and reasoning effort', args: '[model] [effort]' },
    { name: 'status', description: 'show the session settings' },
    { name: 'compact', description: 'summarize the thread to free context' },
  ];
  commandResults = new Map<string, CommandResult>();
  /** What retractSteer answers. */
  retractable = true;
  private readonly queue: SessionEvent[] = [];
  private waiting: ((result: IteratorResult<SessionEvent>) => void) | undefined;
  private drainWaiters: (() => void)[] = [];
  private ended = false;

  readonly events: AsyncIterable<SessionEvent> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const event = this.queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        const drained = this.drainWaiters;
        this.drainWaiters = [];
        for (const resolve of drained) resolve();
        return new Promise((resolve) => (this.waiting = resolve));
      },
    }),
  };

  emit(...events: SessionEvent[]): void {
    for (const event of events) {
      const waiting = this.waiting;
      if (waiting) {
        this.waiting = undefined;
        waiting({ value: event, done: false });
      } else {
        this.queue.push(event);
      }
    }
  }

  /** Resolves when every emitted event was consumed and the TUI waits for the next. */
  drained(): Promise<void> {
    if (this.queue.length === 0 && (this.waiting || this.ended)) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  end(): void {
    this.ended = true;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  async submit(input: UserInput): Promise<void> {
    this.calls.push({ method: 'submit', input });
  }

  async steer(id: string, input: UserInput): Promise<void> {
    this.calls.push({ method: 'steer', id, input });
  }

  async retractSteer(id: string): Promise<boolean> {
    this.calls.push({ method: 'retractSteer', id });
    return this.retractable;
  }

  async interrupt(): Promise<void> {
    this.calls.push({ method: 'interrupt' });
  }

  async answerApproval(requestId: string, answer: ApprovalAnswer): Promise<void> {
    this.calls.push({ method: 'answerApproval', requestId, answer });
  }

  async editMessage(userMessageId: string, input: UserInput): Promise<void> {
    this.calls.push({ method: 'editMessage', userMessageId, input });
  }

  commands(): readonly SlashCommandSpec[] {
    return this.commandSpecs;
  }

  async runCommand(name: string, args: string): Promise<CommandResult> {
    this.calls.push({ method: 'runCommand', name, args });
    return this.commandResults.get(name) ?? { text: `ran /${name}` };
  }

  async close(): Promise<void> {
    this.calls.push({ method: 'close' });
    this.end();
  }

  callsOf<M extends PortCall['method']>(method: M): Extract<PortCall, { method: M }>[] {
    return this.calls.filter((call): call is Extract<PortCall, { method: M }> => call.method === method);
  }
}

/** The settings event the engine sends, with these fields changed. */
export function settingsUpdated(fields: Partial<ThreadSettingsView> = {}): SessionEvent {
  return {
    type: 'thread.settings_updated',
    settings: { cwd: '/srv/app', model: 'gpt-5.5', model_provider: 'openai', harness: 'codex', approval_policy: 'on-request', sandbox_mode: 'workspace-write', yolo: false, ...fields },
  };
}

/** A command approval request as the engine sends it (inside the sandbox unless told otherwise). */
export function execApproval(fields: Omit<Partial<ExecApprovalRequest>, 'kind'> & { id: string; command: string[]; cwd: string }): SessionEvent {
  return {
    type: 'approval.requested',
    request: { kind: 'exec', item_id: `item-${fields.id}`, command_text: fields.command.join(' '), sandboxed: true, retry_without_sandbox: false, ...fields },
  };
}
