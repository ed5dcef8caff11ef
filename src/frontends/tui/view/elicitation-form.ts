// An MCP server's form (elicitation/create in form mode) as a modal: one row per field of the
// server's flat JSON Schema (string, number/integer, boolean, enum), then Accept, Decline and
// Cancel. Up/Down or Tab move between rows; typing edits a text or number field; Space or
// Left/Right toggle a boolean or step through an enum; Enter moves on, and on a button answers.
// Accept checks required fields and numbers first and says what is wrong.
import type { ApprovalAnswer, McpElicitationApprovalRequest } from '../../../protocol/index.js';
import * as edit from '../input/editor.js';
import type { InputEvent } from '../input/keys.js';
import { sanitize, type Line } from '../text/styled.js';
import { textWidth } from '../text/width.js';
import { truncateLine, wrap } from '../text/wrap.js';
import { theme } from './theme.js';

type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

interface Field {
  key: string;
  label: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  /** enum: the values sent, and what to show for each. */
  options: { value: string; title: string }[];
  text: edit.TextBuffer;
  checked: boolean;
  choice: number;
}

const BUTTONS = [
  { label: 'Accept', decision: 'approve' },
  { label: 'Decline', decision: 'deny' },
  { label: 'Cancel', decision: 'abort' },
] as const;

function enumOptions(schema: Record<string, unknown>): { value: string; title: string }[] | undefined {
  if (Array.isArray(schema['enum'])) {
    const names = Array.isArray(schema['enumNames']) ? (schema['enumNames'] as unknown[]) : [];
    return (schema['enum'] as unknown[]).map((value, index) => ({ value: String(value), title: String(names[index] ?? value) }));
  }
  const variants = Array.isArray(schema['oneOf']) ? schema['oneOf'] : Array.isArray(schema['anyOf']) ? schema['anyOf'] : undefined;
  if (!variants) return undefined;
  const options = (variants as Record<string, unknown>[]).filter((v) => v && 'const' in v).map((v) => ({ value: String(v['const']), title: String(v['title'] ?? v['const']) }));
  return options.length > 0 ? options : undefined;
}

/** The fields of a flat object schema, in its order. */
export function formFields(schema: Record<string, unknown> | undefined): Field[] {
  const properties = (schema?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema?.['required']) ? (schema!['required'] as string[]) : []);
  return Object.entries(properties).map(([key, property]) => {
    const options = enumOptions(property);
    const type = property['type'];
    const kind: FieldKind = options ? 'enum' : type === 'number' || type === 'integer' || type === 'boolean' ? type : 'string';
    const initial = property['default'];
    const choice = options && initial !== undefined ? Math.max(0, options.findIndex((option) => option.value === String(initial))) : 0;
    const text = kind === 'string' || kind === 'number' || kind === 'integer' ? (initial === undefined ? '' : String(initial)) : '';
    return {
      key,
      label: typeof property['title'] === 'string' ? property['title'] : key,
      ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
      kind,
      required: required.has(key),
      options: options ?? [],
      text: { text, cursor: text.length },
      checked: initial === true,
      choice,
    };
  });
}

export class ElicitationForm {
  readonly fields: Field[];
  /** Rows: the fields, then the three buttons. */
  focus = 0;
  error: string | undefined;

  constructor(readonly request: McpElicitationApprovalRequest) {
    this.fields = formFields(request.requested_schema);
  }

  private get rowCount(): number {
    return this.fields.length + BUTTONS.length;
  }

  private move(by: number): void {
    this.focus = (this.focus + by + this.rowCount) % this.rowCount;
  }

  /** The answers, or what is wrong with them. */
  content(): { content: Record<string, unknown> } | { error: string } {
    const content: Record<string, unknown> = {};
    for (const field of this.fields) {
      const text = field.text.text.trim();
      switch (field.kind) {
        case 'boolean':
          content[field.key] = field.checked;
          break;
        case 'enum':
          if (field.options[field.choice]) content[field.key] = field.options[field.choice]!.value;
          break;
        case 'number':
        case 'integer': {
          if (text === '') {
            if (field.required) return { error: `${field.label} is required` };
            break;
          }
          const value = Number(text);
          if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) return { error: `${field.label} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}; got "${text}"` };
          content[field.key] = value;
          break;
        }
        default:
          if (text === '' && field.required) return { error: `${field.label} is required` };
          if (text !== '') content[field.key] = field.text.text;
      }
    }
    return { content };
  }

  handle(event: InputEvent): ApprovalAnswer | undefined {
    const field = this.fields[this.focus];
    const typing = field && (field.kind === 'string' || field.kind === 'number' || field.kind === 'integer');
    if (event.type === 'text' || event.type === 'paste') {
      if (typing) field.text = edit.insert(field.text, event.text.replace(/\r?\n/g, ' '));
      else if (field && event.text === ' ') this.step(field, 1);
      return undefined;
    }
    if (event.type !== 'key') return undefined;
    switch (event.name) {
      case 'escape':
        return { decision: 'abort' };
      case 'up':
        this.move(-1);
        return undefined;
      case 'down':
        this.move(1);
        return undefined;
      case 'tab':
        this.move(event.shift ? -1 : 1);
        return undefined;
      case 'left':
        if (typing) field.text = edit.left(field.text);
        else if (field) this.step(field, -1);
        else this.focus = Math.max(this.fields.length, this.focus - 1);
        return undefined;
      case 'right':
        if (typing) field.text = edit.right(field.text);
        else if (field) this.step(field, 1);
        else this.focus = Math.min(this.rowCount - 1, this.focus + 1);
        return undefined;
      case 'backspace':
        if (typing) field.text = edit.backspace(field.text);
        return undefined;
      case 'enter': {
        if (field) {
          // Enter moves on; from the last field it lands on Accept.
          this.focus += 1;
          return undefined;
        }
        const button = BUTTONS[this.focus - this.fields.length]!;
        if (button.decision !== 'approve') return { decision: button.decision };
        const answer = this.content();
        if ('error' in answer) {
          this.error = answer.error;
          return undefined;
        }
        return { decision: 'approve', content: answer.content };
      }
    }
    if (event.name === 'char' && event.ctrl && event.char === 'u' && typing) field.text = edit.empty();
    return undefined;
  }

  private step(field: Field, by: number): void {
    if (field.kind === 'boolean') field.checked = !field.checked;
    else if (field.kind === 'enum' && field.options.length > 0) field.choice = (field.choice + by + field.options.length) % field.options.length;
  }

  private value(field: Field): Line {
    switch (field.kind) {
      case 'boolean':
        return [{ text: field.checked ? '[x] yes' : '[ ] no' }];
      case 'enum':
        return [{ text: '‹ ', style: theme.dim }, { text: sanitize(field.options[field.choice]?.title ?? '') }, { text: ' ›', style: theme.dim }];
      default:
        return [{ text: '[', style: theme.dim }, { text: sanitize(field.text.text) }, { text: ']', style: theme.dim }];
    }
  }

  render(width: number, maxRows: number): { lines: Line[]; cursor?: { row: number; col: number } } {
    const bar: Line = [{ text: '│ ', style: theme.warning }];
    const title: Line = [{ text: '▌ ', style: theme.warning }, { text: `${this.request.server} asks you to fill in a form`, style: { ...theme.warning, bold: true } }];
    const message = wrap([{ text: sanitize(this.request.message) }], { width, mode: 'live', first: bar, rest: bar });
    const labelWidth = Math.min(20, Math.max(0, ...this.fields.map((field) => textWidth(field.label) + (field.required ? 1 : 0))));
    let cursor: { row: number; col: number } | undefined;
    const rows: Line[] = [];
    this.fields.forEach((field, index) => {
      const focused = index === this.focus;
      const label = `${field.label}${field.required ? '*' : ''}`;
      const head: Line = [...bar, { text: focused ? '› ' : '  ', style: theme.selected }, { text: label, style: focused ? theme.selected : theme.bold }, { text: ' '.repeat(Math.max(1, labelWidth - textWidth(label) + 2)) }];
      const value = this.value(field);
      if (focused && (field.kind === 'string' || field.kind === 'number' || field.kind === 'integer')) {
        cursor = { row: rows.length, col: Math.min(width - 1, textWidth(head.map((s) => s.text).join('')) + 1 + textWidth(field.text.text.slice(0, field.text.cursor))) };
      }
      rows.push(truncateLine([...head, ...value, ...(field.description ? [{ text: `  ${sanitize(field.description)}`, style: theme.dim }] : [])], width));
    });
    const buttons: Line = [...bar];
    BUTTONS.forEach((button, index) => {
      const focused = this.fields.length + index === this.focus;
      buttons.push({ text: focused ? `› ${button.label} ` : `  ${button.label} `, style: focused ? theme.selected : {} });
    });
    const help: Line = [...bar, { text: '↑↓ Tab move · type to edit · Space/←→ toggle or choose · Enter next / answer · Esc cancel', style: theme.dim }];
    const error: Line[] = this.error ? [truncateLine([...bar, { text: this.error, style: theme.error }], width)] : [];
    const fixed = [...rows, truncateLine(buttons, width), ...error, truncateLine(help, width)];
    const keptMessage = message.slice(0, Math.max(0, maxRows - 1 - fixed.length));
    const lines = [title, ...keptMessage, ...fixed].slice(0, Math.max(1, maxRows));
    if (cursor) cursor = { row: cursor.row + 1 + keptMessage.length, col: cursor.col };
    return { lines, ...(cursor && cursor.row < lines.length ? { cursor } : {}) };
  }
}
