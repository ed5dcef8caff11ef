// The approval modal: what is asked (the command shell-quoted, its directory and sandbox, the
// model's reason, or the diff of a file change) and the four answers. "No, and tell the model"
// opens a one-line text field for the feedback.
import * as edit from '../input/editor.js';
import type { InputEvent } from '../input/keys.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../../protocol/index.js';
import { sanitize, type Line } from '../text/styled.js';
import { textWidth } from '../text/width.js';
import { truncateLine, wrap } from '../text/wrap.js';
import { renderDiff } from './diff.js';
import { commandLine } from './items.js';
import { theme } from './theme.js';
import { ElicitationForm } from './elicitation-form.js';
import { QuestionForm } from './question-form.js';

interface Choice {
  key: string;
  label: string;
  answer: ApprovalAnswer['decision'];
}

export class ApprovalModal {
  selected = 0;
  /** Set while the user types feedback for "no". */
  feedback: edit.TextBuffer | undefined;

  /** A server's form (elicitation in form mode) is filled in here instead of choosing an answer. */
  readonly form: ElicitationForm | QuestionForm | undefined;

  /** `sandboxMode`: the thread's sandbox, shown for a command that would run inside it. */
  constructor(
    readonly request: ApprovalRequest,
    private readonly sandboxMode?: string,
  ) {
    this.form =
      request.kind === 'mcp_elicitation' && request.mode === 'form'
        ? new ElicitationForm(request)
        : request.kind === 'user_input'
          ? new QuestionForm(request)
          : undefined;
  }

  /** Where the command would run: in the thread's sandbox, or with the user's full access. */
  private sandboxLabel(): string | undefined {
    const request = this.request;
    if (request.kind !== 'exec') return undefined;
    if (request.retry_without_sandbox || request.sandboxed === false) return 'none (full access)';
    return this.sandboxMode;
  }

  get command(): string {
    return this.request.kind === 'exec' ? commandLine(this.request.command) : '';
  }

  choices(): Choice[] {
    const request = this.request;
    if (request.kind === 'mcp_tool_call') {
      return [
        { key: 'y', label: 'Yes, call it once', answer: 'approve' },
        ...(request.allow_session ? [{ key: 'a', label: `Yes, and don't ask again for ${request.tool} this session`, answer: 'approve_for_session' as const }] : []),
        ...(request.allow_always ? [{ key: 'p', label: `Yes, and never ask again for ${request.tool} (saved in config.toml)`, answer: 'approve_always' as const }] : []),
        { key: 'n', label: 'No, and tell the model what to do instead', answer: 'deny' },
        { key: 's', label: 'No, and stop the turn (Esc)', answer: 'abort' },
      ];
    }
    if (request.kind === 'network') {
      return [
        { key: 'y', label: 'Yes, this request', answer: 'approve' },
        { key: 'a', label: `Yes, and don't ask again for ${request.host} this session`, answer: 'approve_for_session' },
        { key: 'n', label: 'No, and tell the model what to do instead', answer: 'deny' },
        { key: 's', label: 'No, and stop the turn (Esc)', answer: 'abort' },
      ];
    }
    if (request.kind === 'mcp_elicitation' || request.kind === 'user_input') {
      // URL mode: the person goes to the address; the answer only says whether they agree to.
      return [
        { key: 'y', label: 'Accept (open the address yourself)', answer: 'approve' },
        { key: 'n', label: 'Decline (the server is told)', answer: 'deny' },
        { key: 's', label: 'Cancel (Esc)', answer: 'abort' },
      ];
    }
    const prefix = request.kind === 'exec' ? commandLine(request.proposed_prefix ?? request.command) : '';
    return [
      { key: 'y', label: this.request.kind === 'exec' ? 'Yes, run it once' : 'Yes, apply this change', answer: 'approve' },
      {
        key: 'a',
        label: this.request.kind === 'exec' ? `Yes, and don't ask again for commands starting with \`${prefix}\`` : "Yes, and don't ask again for file changes this session",
        answer: 'approve_for_session',
      },
      { key: 'n', label: 'No, and tell the model what to do instead', answer: 'deny' },
      { key: 's', label: 'No, and stop the turn (Esc)', answer: 'abort' },
    ];
  }

  /** A key in; an answer out once one is chosen (undefined while still choosing or typing). */
  handle(event: InputEvent): ApprovalAnswer | undefined {
    if (this.form) return this.form.handle(event);
    if (this.feedback) return this.handleFeedback(event);
    if (event.type === 'text') {
      const choice = this.choices().find((candidate) => candidate.key === event.text.toLowerCase());
      if (choice) return this.choose(choice);
      return undefined;
    }
    if (event.type !== 'key') return undefined;
    const choices = this.choices();
    switch (event.name) {
      case 'up':
        this.selected = (this.selected + choices.length - 1) % choices.length;
        return undefined;
      case 'down':
      case 'tab':
        this.selected = (this.selected + 1) % choices.length;
        return undefined;
      case 'enter':
        return this.choose(choices[this.selected]!);
      case 'escape':
        return { decision: 'abort' };
    }
    if (event.name === 'char' && event.ctrl && (event.char === 'p' || event.char === 'n')) this.selected = (this.selected + (event.char === 'p' ? choices.length - 1 : 1)) % choices.length;
    return undefined;
  }

  private choose(choice: Choice): ApprovalAnswer | undefined {
    // A server's question is declined as such: there is no model to give feedback to.
    if (choice.answer === 'deny' && this.request.kind !== 'mcp_elicitation') {
      this.feedback = edit.empty();
      this.selected = 2;
      return undefined;
    }
    return { decision: choice.answer };
  }

  private handleFeedback(event: InputEvent): ApprovalAnswer | undefined {
    const buffer = this.feedback!;
    if (event.type === 'text' || event.type === 'paste') {
      this.feedback = edit.insert(buffer, event.text.replace(/\r\n?/g, '\n'));
      return undefined;
    }
    if (event.type !== 'key') return undefined;
    switch (event.name) {
      case 'enter': {
        const text = buffer.text.trim();
        return text === '' ? { decision: 'deny' } : { decision: 'deny', feedback: text };
      }
      case 'escape':
        this.feedback = undefined;
        return undefined;
      case 'backspace':
        this.feedback = edit.backspace(buffer);
        return undefined;
      case 'left':
        this.feedback = edit.left(buffer);
        return undefined;
      case 'right':
        this.feedback = edit.right(buffer);
        return undefined;
    }
    if (event.name === 'char' && event.ctrl && event.char === 'u') this.feedback = edit.empty();
    return undefined;
  }

  /** The modal in at most `maxRows` rows (the diff or command is cut first). */
  render(width: number, maxRows: number): { lines: Line[]; cursor?: { row: number; col: number } } {
    if (this.form) return this.form.render(width, maxRows);
    const request = this.request;
    const bar: Line = [{ text: '│ ', style: theme.warning }];
    const retry = request.kind === 'exec' && request.retry_without_sandbox;
    const question =
      request.kind === 'file_change'
        ? 'Apply this change?'
        : request.kind === 'mcp_tool_call'
          ? `Call ${request.server}'s tool ${request.tool}?`
          : request.kind === 'mcp_elicitation'
            ? `${request.server} asks a question`
            : request.kind === 'user_input'
              ? 'The agent asks'
            : request.kind === 'network'
              ? `${request.purpose === 'search' ? 'Send this web search' : request.purpose === 'redirect' ? 'Follow this redirect' : 'Fetch this URL'}${request.sandboxed ? '' : ' (past the sandbox: network access is off)'}?`
            : retry
              ? 'Run it again outside the sandbox?'
              : request.sandboxed === false
                ? 'Run this command outside the sandbox?'
                : 'Run this command?';
    const title: Line = [{ text: '▌ ', style: theme.warning }, { text: question, style: { ...theme.warning, bold: true } }];
    const details: Line[] = [];
    if (request.kind === 'exec') {
      if (retry) {
        const blocked = request.sandbox_denial ? `: ${sanitize(request.sandbox_denial)}` : '';
        details.push(...wrap([{ text: `The sandbox blocked it${blocked}`, style: theme.warning }], { width, mode: 'live', first: bar, rest: bar }));
      }
      details.push(...wrap([{ text: '$ ', style: theme.dim }, { text: sanitize(this.command), style: theme.bold }], { width, mode: 'live', first: bar, rest: [...bar, { text: '  ' }] }));
      const sandbox = this.sandboxLabel();
      details.push(truncateLine([...bar, { text: 'in ', style: theme.dim }, { text: request.cwd }, ...(sandbox ? [{ text: '  sandbox ', style: theme.dim }, { text: sandbox }] : [])], width));
    } else if (request.kind === 'file_change') {
      for (const path of request.paths) details.push(truncateLine([...bar, { text: 'edit ', style: theme.dim }, { text: path, style: theme.bold }], width));
    } else if (request.kind === 'mcp_tool_call') {
      details.push(...wrap([{ text: 'arguments ', style: theme.dim }, { text: sanitize(JSON.stringify(request.arguments ?? {})) }], { width, mode: 'live', first: bar, rest: bar }));
    } else if (request.kind === 'network') {
      details.push(...wrap([{ text: sanitize(request.url) }], { width, mode: 'live', first: bar, rest: bar }));
      if (request.from) details.push(truncateLine([...bar, { text: 'from ', style: theme.dim }, { text: request.from }], width));
    } else if (request.kind === 'mcp_elicitation') {
      details.push(...wrap([{ text: sanitize(request.message) }], { width, mode: 'live', first: bar, rest: bar }));
      if (request.url) details.push(truncateLine([...bar, { text: 'url ', style: theme.dim }, { text: request.url }], width));
    }
    if ('reason' in request && request.reason) details.push(...wrap([{ text: sanitize(request.reason), style: theme.italicDim }], { width, mode: 'live', first: bar, rest: bar }));
    const diff: Line[] = [];
    if (request.kind === 'file_change') {
      const shown = request.changes.filter((change) => change.diff !== '');
      for (const change of shown) {
        // With several files, each diff is headed by its path (the diffs carry no file headers).
        if (shown.length > 1) diff.push(truncateLine([...bar, { text: change.move_to ? `${change.path} → ${change.move_to}` : change.path, style: theme.bold }], width));
        diff.push(...renderDiff(change.diff, { width: width - 2, mode: 'live' }).map((line) => truncateLine([...bar, ...line], width)));
      }
    }

    const choices = this.choices();
    const options: Line[] = choices.map((choice, index) => {
      const selected = index === this.selected;
      return truncateLine([...bar, { text: selected ? '› ' : '  ', style: theme.selected }, { text: `${choice.key}  `, style: theme.key }, { text: choice.label, style: selected ? theme.selected : {} }], width);
    });
    let cursor: { row: number; col: number } | undefined;
    const feedbackLines: Line[] = [];
    if (this.feedback) {
      const label = '  what should it do instead? ';
      const text = this.feedback.text.replace(/\n/g, ' ');
      feedbackLines.push(truncateLine([...bar, { text: label, style: theme.dim }, { text }], width));
      feedbackLines.push(truncateLine([...bar, { text: '  Enter sends · Esc goes back', style: theme.dim }], width));
      cursor = { row: -1, col: Math.min(width - 1, 2 + textWidth(label) + textWidth(this.feedback.text.slice(0, this.feedback.cursor).replace(/\n/g, ' '))) };
    }
    // Choices and title always show; the diff, then the details, give way on a short screen.
    const fixed = 1 + options.length + feedbackLines.length;
    let room = Math.max(0, maxRows - fixed);
    const keptDetails = details.slice(0, room);
    room -= keptDetails.length;
    let keptDiff: Line[] = [];
    if (diff.length > 0 && room > 0) {
      keptDiff = diff.length <= room ? diff : [...diff.slice(0, Math.max(0, room - 1)), [...bar, { text: `… ${diff.length - room + 1} more lines`, style: theme.dim }]];
    }
    const lines = [title, ...keptDetails, ...keptDiff, ...options, ...feedbackLines];
    if (cursor) cursor.row = lines.length - 2;
    return { lines, ...(cursor ? { cursor } : {}) };
  }
}
