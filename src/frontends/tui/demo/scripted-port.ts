// A scripted session for `rig tui-demo` (a hidden developer entry): every prompt gets the same
// turn, which exercises each part of the TUI — reasoning, a streamed Markdown answer with code, a
// plan, a running command with live output, an approval (its answer changes what happens), a
// file change with its diff — with no model and no engine. It runs nothing: the "command" and its
// output are text. The real engine replaces it in phase 2.
import type { ThreadSettingsView, UserInput } from '../../../protocol/index.js';
import { EventQueue } from '../event-queue.js';
import type { ApprovalAnswer, CommandResult, SessionEvent, SessionPort, SlashCommandSpec } from '../session-port.js';

const ANSWER = `I looked at the parser. The bug is in **\`parseRange\`**: it treats the end as inclusive.

## The fix

1. Make the end exclusive.
2. Add a test for an empty range.

\`\`\`ts
export function parseRange(text: string): [number, number] {
  const [start, end] = text.split('-').map(Number);
  return [start, end + 1]; // the end is exclusive now
}
\`\`\`

| file | change |
|---|---|
| src/range.ts | end exclusive |
| test/range.test.ts | new case |

See https://example.com/docs/ranges for the convention.
`;

const DIFF = `--- a/src/range.ts
+++ b/src/range.ts
@@ -1,5 +1,5 @@
 export function parseRange(text: string): [number, number] {
   const [start, end] = text.split('-').map(Number);
-  return [start, end];
+  return [start, end + 1]; // the end is exclusive now
 }
 
`;

const COMMANDS: SlashCommandSpec[] = [
  { name: 'model', description: 'choose the model and its reasoning effort', args: '[model] [effort]' },
  { name: 'status', description: 'show the session settings and token use' },
  { name: 'compact', description: 'summarize the thread to free context' },
  { name: 'diff', description: "show this session's changes" },
  { name: 'rename', description: 'name the thread', args: '<name>' },
];

const USAGE = { input_tokens: 18_200, cached_input_tokens: 12_000, cache_write_input_tokens: 0, output_tokens: 1_450, reasoning_output_tokens: 300 };

export class ScriptedPort implements SessionPort {
  private readonly queue = new EventQueue<SessionEvent>();
  private abort: AbortController | undefined;
  private approval: ((answer: ApprovalAnswer) => void) | undefined;
  private readonly steers: string[] = [];
  private turns = 0;
  private next = 1;
  private settings: ThreadSettingsView = {
    cwd: process.cwd(),
    model: 'demo-model',
    model_provider: 'demo',
    harness: 'codex',
    approval_policy: 'on-request',
    sandbox_mode: 'workspace-write',
    reasoning_effort: 'medium',
    yolo: false,
    context_window: 200_000,
  };

  readonly events: AsyncIterable<SessionEvent> = this.queue;

  constructor(private readonly speed = 1) {
    this.emit({ type: 'thread.started', thread_id: 'demo' });
    this.emit({ type: 'thread.settings_updated', settings: this.settings });
    this.emit({ type: 'thread.name_updated', thread_name: 'tui demo' });
  }

  private emit(event: SessionEvent): void {
    this.queue.push(event);
  }

  private id(prefix: string): string {
    return `${prefix}-${this.next++}`;
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error('interrupted'));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Error('interrupted'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms / this.speed);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async submit(input: UserInput): Promise<void> {
    if (this.abort) throw new Error('a turn is already running');
    this.abort = new AbortController();
    void this.turn(input, this.abort.signal);
  }

  private async turn(input: UserInput, signal: AbortSignal): Promise<void> {
    this.turns++;
    this.emit({ type: 'turn.started' });
    this.emit({ type: 'item.completed', item: { id: this.id('user'), type: 'user_message', text: input.text, ...(input.images ? { images: input.images } : {}) } });
    try {
      const reasoning = this.id('reasoning');
      this.emit({ type: 'item.started', item: { id: reasoning, type: 'reasoning', text: '' } });
      for (const word of 'Reading the parser and its tests to find where ranges are cut.'.split(' ')) {
        this.emit({ type: 'item.reasoning.delta', item_id: reasoning, delta: `${word} ` });
        await this.sleep(40, signal);
      }
      this.emit({ type: 'item.completed', item: { id: reasoning, type: 'reasoning', text: 'Reading the parser and its tests to find where ranges are cut.' } });

      const plan = this.id('plan');
      const steps = ['Find the bug', 'Fix parseRange', 'Run the tests'];
      this.emit({ type: 'item.started', item: { id: plan, type: 'todo_list', items: steps.map((text, index) => ({ text, completed: index < 1 })) } });

      await this.command('rg -n parseRange src test', ['src/range.ts:1:export function parseRange', 'test/range.test.ts:4:  parseRange("1-3")'], signal);
      await this.deliverSteers();

      const push = this.id('cmd');
      const request = this.id('approval');
      this.emit({
        type: 'approval.requested',
        request: { kind: 'exec', id: request, item_id: push, command: ['npm', 'test', '--', '--run', 'test/range.test.ts'], cwd: process.cwd(), reason: 'run the range tests (they write a cache outside the workspace)', proposed_prefix: ['npm', 'test'], command_text: 'npm test -- --run test/range.test.ts', sandboxed: true, retry_without_sandbox: false },
      });
      const answer = await new Promise<ApprovalAnswer>((resolve) => (this.approval = resolve));
      this.approval = undefined;
      if (answer.decision === 'abort') throw new Error('stopped at the approval');
      if (answer.decision === 'deny') {
        this.emit({ type: 'item.completed', item: { id: push, type: 'command_execution', command: 'npm test -- --run test/range.test.ts', aggregated_output: answer.feedback ? `declined: ${answer.feedback}` : 'declined', exit_code: null, status: 'declined' } });
      } else {
        await this.command('npm test -- --run test/range.test.ts', Array.from({ length: 14 }, (_, index) => `  ✓ range case ${index + 1}`).concat(['', ' Tests  14 passed (14)']), signal, push);
      }
      await this.deliverSteers();

      const change = this.id('patch');
      this.emit({ type: 'item.started', item: { id: change, type: 'file_change', changes: [{ path: 'src/range.ts', kind: 'update', diff: DIFF }], status: 'in_progress' } });
      await this.sleep(300, signal);
      this.emit({ type: 'item.completed', item: { id: change, type: 'file_change', changes: [{ path: 'src/range.ts', kind: 'update', diff: DIFF }], status: 'completed' } });
      this.emit({ type: 'item.updated', item: { id: plan, type: 'todo_list', items: steps.map((text, index) => ({ text, completed: index < 2 })) } });

      const message = this.id('msg');
      this.emit({ type: 'item.started', item: { id: message, type: 'agent_message', text: '' } });
      // About 2,000 tokens/s at speed 1: a few characters every 2 ms.
      for (let at = 0; at < ANSWER.length; at += 8) {
        this.emit({ type: 'item.agent_message.delta', item_id: message, delta: ANSWER.slice(at, at + 8) });
        await this.sleep(4, signal);
      }
      this.emit({ type: 'item.completed', item: { id: message, type: 'agent_message', text: ANSWER } });
      this.emit({ type: 'item.completed', item: { id: plan, type: 'todo_list', items: steps.map((text) => ({ text, completed: true })) } });
      this.emit({ type: 'usage.updated', last: USAGE, total: { ...USAGE, input_tokens: USAGE.input_tokens * this.turns } });
      this.emit({ type: 'turn.completed', usage: { ...USAGE, input_tokens: USAGE.input_tokens * this.turns } });
    } catch {
      this.emit({ type: 'turn.interrupted', reason: 'by the user' });
    } finally {
      this.abort = undefined;
      this.steers.length = 0;
    }
  }

  private async command(command: string, output: string[], signal: AbortSignal, id = this.id('cmd')): Promise<void> {
    this.emit({ type: 'item.started', item: { id, type: 'command_execution', command, aggregated_output: '', exit_code: null, status: 'in_progress' } });
    let aggregated = '';
    for (const line of output) {
      await this.sleep(120, signal);
      aggregated += `${line}\n`;
      this.emit({ type: 'item.command_execution.output_delta', item_id: id, delta: `${line}\n` });
    }
    this.emit({ type: 'item.completed', item: { id, type: 'command_execution', command, aggregated_output: aggregated, exit_code: 0, status: 'completed' } });
  }

  /** A tool boundary: steering messages are handed to the "model" here. */
  private async deliverSteers(): Promise<void> {
    for (const id of this.steers.splice(0)) {
      const itemId = this.id('user');
      this.emit({ type: 'steer.delivered', steer_id: id, item_id: itemId });
      this.emit({ type: 'item.completed', item: { id: itemId, type: 'user_message', text: this.steerTexts.get(id) ?? '' } });
      this.steerTexts.delete(id);
    }
  }

  private readonly steerTexts = new Map<string, string>();

  async steer(steerId: string, input: UserInput): Promise<void> {
    if (!this.abort) throw new Error('no turn is running');
    this.steers.push(steerId);
    this.steerTexts.set(steerId, input.text);
  }

  async retractSteer(steerId: string): Promise<boolean> {
    const index = this.steers.indexOf(steerId);
    if (index === -1) return false;
    this.steers.splice(index, 1);
    return true;
  }

  async interrupt(): Promise<void> {
    this.approval?.({ decision: 'abort' });
    this.abort?.abort();
  }

  async answerApproval(_requestId: string, answer: ApprovalAnswer): Promise<void> {
    this.approval?.(answer);
  }

  async editMessage(_userMessageId: string, input: UserInput): Promise<void> {
    await this.submit(input);
  }

  commands(): readonly SlashCommandSpec[] {
    return COMMANDS;
  }

  async runCommand(name: string, args: string): Promise<CommandResult> {
    switch (name) {
      case 'status':
        return { text: `model **demo-model** (medium) · harness codex · sandbox workspace-write · approvals on-request\n\n${this.turns} turn(s) so far.` };
      case 'model':
        if (args === '') return { text: 'models: `demo-model`, `demo-model-mini` · efforts: low, medium, high' };
        {
          const [model, effort] = args.split(/\s+/);
          this.settings = { ...this.settings, model: model!, ...(effort ? { reasoning_effort: effort } : {}) };
          this.emit({ type: 'thread.settings_updated', settings: this.settings });
        }
        return { text: `model set to ${args}` };
      case 'compact':
        this.emit({ type: 'item.completed', item: { id: this.id('compact'), type: 'context_compaction', summary: 'the demo so far' } });
        return {};
      case 'diff':
        return { text: `\`\`\`diff\n${DIFF}\`\`\`` };
      case 'rename':
        if (args === '') return { error: '/rename needs a name, e.g. /rename range fix' };
        this.emit({ type: 'thread.name_updated', thread_name: args });
        return { text: `thread renamed to "${args}"` };
      default:
        return { error: `/${name} is not part of the demo` };
    }
  }

  async close(): Promise<void> {
    this.abort?.abort();
    this.queue.end();
  }
}
