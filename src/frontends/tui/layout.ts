// The live region, top to bottom: what is in progress (streaming text, running commands, the
// plan, the spinner), queued messages, a notice, then the approval modal or the composer with its
// popup, and the status line. It never takes more than the screen's height minus one row, so
// the screen never scrolls under it; what does not fit is cut from the top of the activity.
import type { TuiApp } from './app.js';
import type { Composer } from './input/composer.js';
import type { LiveFrame } from './terminal/renderer.js';
import { serialize } from './text/styled.js';
import type { TuiState } from './state.js';
import type { Line } from './text/styled.js';
import { overlayCaret, truncateLine } from './text/wrap.js';
import { renderComposer, renderPopup } from './view/composer-view.js';
import { renderPlan } from './view/items.js';
import { renderQueue, renderRunningCommand, renderWorking, spinnerFrame } from './view/live.js';
import { renderStatusLine } from './view/status-line.js';
import { theme } from './view/theme.js';
import type { Chooser } from './view/rewind-chooser.js';

export interface LayoutInput {
  state: TuiState;
  composer: Composer;
  width: number;
  rows: number;
  now: number;
  /** TERM=dumb: only the cursor's row is shown. */
  plain: boolean;
  /** Shown above the composer while editing an earlier message (Esc Esc). */
  banner?: string;
  /** The thread picker or a command's chooser, shown in the composer's place. */
  picker?: Pick<Chooser, 'render'>;
}

/** The app's live region now, serialized for the renderer. */
export function liveFrame(app: TuiApp): LiveFrame {
  const banner = app.editing !== undefined ? `editing an earlier message: Enter sends it there (the thread forks) · Esc goes further back · Ctrl+C cancels` : undefined;
  const chooser = app.picker ?? app.chooser;
  const layout = layoutLive({
    state: app.state,
    composer: app.composer,
    width: app.terminal.columns,
    rows: app.terminal.rows,
    now: app.now(),
    plain: Boolean(app.options.plain),
    ...(banner ? { banner } : {}),
    ...(chooser ? { picker: chooser } : {}),
  });
  return { lines: layout.lines.map((line) => serialize(line, app.options.caps)), ...(layout.cursor ? { cursor: layout.cursor } : {}) };
}

export interface LiveLayout {
  lines: Line[];
  cursor?: { row: number; col: number };
}

const COMMAND_TAIL_ROWS = 3;
const STREAM_TAIL_ROWS = 8;

export function layoutLive(input: LayoutInput): LiveLayout {
  const { state, composer, now } = input;
  const width = Math.max(1, input.width);
  if (input.plain) return layoutPlain(input, width);
  const maxRows = Math.max(2, input.rows - 1);

  const status = renderStatusLine({ info: state.info, ...(state.lastUsage ? { last: state.lastUsage } : {}), ...(state.totalUsage ? { total: state.totalUsage } : {}) }, width);
  const bottom: Line[] = [];
  let cursor: { row: number; col: number } | undefined;
  const modal = state.approvals[0];
  if (input.picker && !modal) {
    const rendered = input.picker.render(width, Math.max(4, maxRows - 2));
    if (rendered.cursor) cursor = rendered.cursor;
    bottom.push(...rendered.lines);
  } else if (modal) {
    const rendered = modal.render(width, Math.max(3, maxRows - 2));
    if (rendered.cursor) cursor = rendered.cursor;
    bottom.push(...rendered.lines);
  } else {
    if (input.banner) bottom.push(truncateLine([{ text: input.banner, style: theme.warning }], width));
    const popup = composer.popup();
    const composerRows = Math.max(1, Math.min(10, Math.floor(maxRows / 2)));
    const view = renderComposer(composer, width, composerRows);
    // A blank row, not a full-width rule, sets the composer off: a row that fills the width is
    // the one a terminal re-wraps when it narrows, and a terminal that keeps the cursor's row on a
    // resize (tmux) pushes such rows into its history where they cannot be erased.
    if (maxRows >= 6) bottom.push([]);
    cursor = { row: bottom.length + view.cursor.row, col: view.cursor.col };
    bottom.push(...view.lines);
    if (popup) bottom.push(...renderPopup(popup, width, Math.max(1, Math.min(8, maxRows - bottom.length - 2))));
  }
  bottom.push(status);

  const activity: Line[] = [];
  const markdown = { width, mode: 'live' as const, hyperlinks: false };
  for (const entry of state.streams.values()) activity.push(...entry.stream.tail(markdown).slice(-STREAM_TAIL_ROWS).map((line) => truncateLine(line, width)));
  if (state.reasoning && state.reasoning.text.trim() !== '') {
    const last = state.reasoning.text.trim().split('\n').pop()!;
    activity.push(truncateLine([{ text: last, style: theme.reasoning }], width));
  }
  for (const running of state.running.values()) {
    const item = running.item;
    if (item.type === 'command_execution') activity.push(...renderRunningCommand(item.command, running.startedAt, now, running.output, width, COMMAND_TAIL_ROWS));
    else if (item.type === 'file_change') activity.push(truncateLine([{ text: `${spinnerFrame(now)} `, style: theme.spinner }, { text: 'Editing ', style: theme.bold }, { text: item.changes.map((change) => change.path).join(', ') }], width));
    else if (item.type === 'mcp_tool_call') activity.push(truncateLine([{ text: `${spinnerFrame(now)} `, style: theme.spinner }, { text: 'Calling ', style: theme.bold }, { text: `${item.server}.${item.tool}` }], width));
    else if (item.type === 'web_search') activity.push(truncateLine([{ text: `${spinnerFrame(now)} `, style: theme.spinner }, { text: 'Searching ', style: theme.bold }, { text: item.query }], width));
  }
  if (state.plan) activity.push(...renderPlan(state.plan.items, { width, mode: 'live', hyperlinks: false, expanded: false }));
  if (state.retry) activity.push(truncateLine([{ text: state.retry, style: theme.warning }], width));
  if (state.turn) activity.push(renderWorking(modal ? 'Waiting for approval' : 'Working', state.turn.startedAt, now, width, modal ? 'answer below' : 'esc to interrupt'));
  activity.push(...renderQueue(state.queue.map((queued) => ({ kind: queued.kind, text: queued.input.text })), width));
  if (state.notice && state.notice.until > now) {
    const style = state.notice.style === 'error' ? theme.error : state.notice.style === 'warning' ? theme.warning : theme.accent;
    activity.push(truncateLine([{ text: state.notice.text, style }], width));
  }

  // The bottom part wins; the activity keeps its last rows.
  const room = Math.max(0, maxRows - bottom.length);
  const shownActivity = activity.length > room ? activity.slice(activity.length - room) : activity;
  let lines = [...shownActivity, ...bottom];
  if (lines.length > maxRows) lines = lines.slice(lines.length - maxRows);
  const offset = lines.length - bottom.length;
  const placed = cursor ? { row: Math.max(0, Math.min(lines.length - 1, cursor.row + offset)), col: cursor.col } : undefined;
  if (placed) lines[placed.row] = overlayCaret(lines[placed.row]!, Math.min(placed.col, width - 1));
  return { lines, ...(placed ? { cursor: placed } : {}) };
}

function layoutPlain(input: LayoutInput, width: number): LiveLayout {
  const modal = input.state.approvals[0];
  if (modal) {
    const typed = modal.feedback ? modal.feedback.text.replace(/\n/g, ' ') : '';
    const question = modal.feedback ? `what should it do instead? ${typed}` : 'answer [y/a/n/s]: ';
    return { lines: [[{ text: question }]], cursor: { row: 0, col: Math.min(width - 1, question.length) } };
  }
  const view = renderComposer(input.composer, width, 1);
  return { lines: view.lines, cursor: { row: 0, col: view.cursor.col } };
}
