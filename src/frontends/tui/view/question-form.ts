// The model's questions to the person (request_user_input, AskUserQuestion) as a modal, one
// question at a time: Up/Down move, a number key picks that choice (toggles it where several may
// be picked), Space toggles, Enter answers with the choice under the cursor (or the ticked ones);
// the last row, where the question allows it, takes the person's own words. Esc declines them all.
import type { ApprovalAnswer, UserInputAnswer, UserInputAnswers, UserInputApprovalRequest, UserInputQuestion } from '../../../protocol/index.js';
import * as edit from '../input/editor.js';
import type { InputEvent } from '../input/keys.js';
import { sanitize, type Line } from '../text/styled.js';
import { textWidth } from '../text/width.js';
import { truncateLine, wrap } from '../text/wrap.js';
import { theme } from './theme.js';

export class QuestionForm {
  /** The question being answered. */
  index = 0;
  /** The row under the cursor: a choice, or (past them) the typed answer. */
  cursor = 0;
  readonly checked = new Set<number>();
  other: edit.TextBuffer = edit.empty();
  error: string | undefined;
  private readonly answers: UserInputAnswers = {};

  constructor(readonly request: UserInputApprovalRequest) {}

  get question(): UserInputQuestion {
    return this.request.questions[this.index]!;
  }

  private get rows(): number {
    return this.question.options.length + (this.question.allow_other ? 1 : 0);
  }

  private get onOther(): boolean {
    return this.question.allow_other && this.cursor === this.question.options.length;
  }

  handle(event: InputEvent): ApprovalAnswer | undefined {
    this.error = undefined;
    const question = this.question;
    if (event.type === 'text' || event.type === 'paste') {
      if (this.onOther) {
        this.other = edit.insert(this.other, event.text.replace(/\r?\n/g, ' '));
        return undefined;
      }
      if (event.text === ' ' && question.multi_select) {
        this.toggle(this.cursor);
        return undefined;
      }
      const number = /^[1-9]$/.test(event.text) ? Number(event.text) - 1 : -1;
      if (number >= 0 && number < question.options.length) {
        this.cursor = number;
        if (question.multi_select) this.toggle(number);
        else return this.next({ selected: [question.options[number]!.label] });
      } else if (question.allow_other && event.type === 'text' && event.text.trim() !== '') {
        // Typing anything else starts the person's own answer.
        this.cursor = question.options.length;
        this.other = edit.insert(this.other, event.text);
      }
      return undefined;
    }
    if (event.type !== 'key') return undefined;
    switch (event.name) {
      case 'escape':
        return { decision: 'deny' };
      case 'up':
        this.cursor = (this.cursor + this.rows - 1) % this.rows;
        return undefined;
      case 'down':
      case 'tab':
        this.cursor = (this.cursor + 1) % this.rows;
        return undefined;
      case 'backspace':
        if (this.onOther) this.other = edit.backspace(this.other);
        return undefined;
      case 'left':
        if (this.onOther) this.other = edit.left(this.other);
        return undefined;
      case 'right':
        if (this.onOther) this.other = edit.right(this.other);
        return undefined;
      case 'enter':
        return this.submit();
    }
    return undefined;
  }

  private toggle(row: number): void {
    if (row >= this.question.options.length) return;
    if (this.checked.has(row)) this.checked.delete(row);
    else this.checked.add(row);
  }

  private submit(): ApprovalAnswer | undefined {
    const question = this.question;
    const typed = this.other.text.trim();
    if (question.multi_select) {
      const selected = [...this.checked].sort((a, b) => a - b).map((row) => question.options[row]!.label);
      if (selected.length === 0 && typed === '') {
        this.error = 'tick at least one choice (Space or its number), or type your own answer';
        return undefined;
      }
      return this.next({ selected, ...(typed !== '' ? { other: typed } : {}) });
    }
    if (this.onOther) {
      if (typed === '') {
        this.error = 'type your answer, or pick one of the choices';
        return undefined;
      }
      return this.next({ selected: [], other: typed });
    }
    return this.next({ selected: [question.options[this.cursor]!.label] });
  }

  private next(answer: UserInputAnswer): ApprovalAnswer | undefined {
    this.answers[this.question.id] = answer;
    if (this.index + 1 >= this.request.questions.length) return { decision: 'approve', content: this.answers as Record<string, unknown> };
    this.index += 1;
    this.cursor = 0;
    this.checked.clear();
    this.other = edit.empty();
    return undefined;
  }

  render(width: number, maxRows: number): { lines: Line[]; cursor?: { row: number; col: number } } {
    const question = this.question;
    const bar: Line = [{ text: '│ ', style: theme.warning }];
    const count = this.request.questions.length > 1 ? ` (${this.index + 1}/${this.request.questions.length})` : '';
    const who = this.request.agent_path ? ` ${this.request.agent_path}` : '';
    const title: Line = [{ text: '▌ ', style: theme.warning }, { text: `The agent${who} asks${count}`, style: { ...theme.warning, bold: true } }];
    const head = wrap([...(question.header ? [{ text: `${sanitize(question.header)}  `, style: theme.dim }] : []), { text: sanitize(question.question), style: theme.bold }], { width, mode: 'live', first: bar, rest: bar });
    const rows: Line[] = question.options.map((option, row) => {
      const here = row === this.cursor;
      const box = question.multi_select ? (this.checked.has(row) ? '[x] ' : '[ ] ') : '';
      return truncateLine(
        [
          ...bar,
          { text: here ? '› ' : '  ', style: theme.selected },
          { text: `${row + 1}. `, style: theme.key },
          { text: `${box}${sanitize(option.label)}`, style: here ? theme.selected : {} },
          ...(option.description ? [{ text: `  ${sanitize(option.description)}`, style: theme.dim }] : []),
        ],
        width,
      );
    });
    let cursor: { row: number; col: number } | undefined;
    if (question.allow_other) {
      const here = this.onOther;
      const label: Line = [...bar, { text: here ? '› ' : '  ', style: theme.selected }, { text: 'Other: ', style: here ? theme.selected : theme.dim }];
      if (here) cursor = { row: rows.length, col: Math.min(width - 1, textWidth(label.map((s) => s.text).join('')) + textWidth(this.other.text.slice(0, this.other.cursor))) };
      rows.push(truncateLine([...label, { text: sanitize(this.other.text) }], width));
    }
    const keys = question.multi_select ? 'number/Space tick · Enter answers' : 'number picks · Enter answers';
    const help: Line = [...bar, { text: `↑↓ move · ${keys}${question.allow_other ? ' · type your own on Other' : ''} · Esc declines`, style: theme.dim }];
    const error: Line[] = this.error ? [truncateLine([...bar, { text: this.error, style: theme.error }], width)] : [];
    const fixed = [...rows, ...error, truncateLine(help, width)];
    const keptHead = head.slice(0, Math.max(0, maxRows - 1 - fixed.length));
    const lines = [title, ...keptHead, ...fixed].slice(0, Math.max(1, maxRows));
    if (cursor) cursor = { row: cursor.row + 1 + keptHead.length, col: cursor.col };
    return { lines, ...(cursor && cursor.row < lines.length ? { cursor } : {}) };
  }
}
