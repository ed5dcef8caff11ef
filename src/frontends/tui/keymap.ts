// What each key means, in order of precedence: the pager, an approval being asked, global keys
// (Ctrl+C, Ctrl+D, Ctrl+T), history search, a completion popup, then the composer.
import type { TuiApp } from './app.js';
import type { InputEvent, KeyEvent } from './input/keys.js';
import type { ApprovalAnswer } from './session-port.js';
import type { Line } from './text/styled.js';
import { wrap } from './text/wrap.js';
import type { ApprovalModal } from './view/approval.js';
import { theme } from './view/theme.js';
import { describeUserInputAnswer, readUserInputAnswers } from '../../protocol/index.js';

/** How long a first Ctrl+C (or Esc) waits for its second. */
export const DOUBLE_PRESS_MS = 2000;
export const DOUBLE_ESCAPE_MS = 800;

function isCtrl(event: KeyEvent, char: string): boolean {
  return event.name === 'char' && event.ctrl && !event.alt && event.char === char;
}

export function handleKey(app: TuiApp, event: InputEvent): void {
  const { state, composer } = app;
  if (app.pager) {
    const result = app.pager.handle(event);
    if (result === 'close') app.closePager();
    else if (result) app.terminal.write(app.pager.render(app.terminal.columns, app.options.caps));
    return;
  }
  const modal = state.approvals[0];
  if (app.picker && !modal) {
    const result = app.picker.handle(event);
    if (result === 'cancel') app.closePicker(undefined);
    else if (result) app.closePicker(result.chosen);
    return;
  }
  if (app.chooser && !modal) {
    const result = app.chooser.handle(event);
    if (result) app.chooser = undefined;
    if (result && result !== 'cancel') app.runCommand(result.command);
    return;
  }
  if (modal) {
    const answer = event.type === 'key' && isCtrl(event, 'c') ? ({ decision: 'abort' } as const) : modal.handle(event);
    if (answer) answerApproval(app, modal, answer);
    return;
  }
  if (event.type === 'paste' || event.type === 'text') {
    if (composer.search) composer.searchInput(event.text.replace(/\n/g, ' '));
    else composer.edit(event);
    return;
  }
  if (event.type !== 'key') return;

  if (isCtrl(event, 'c')) return controlC(app);
  if (isCtrl(event, 'd')) {
    if (composer.isEmpty && !composer.search) void app.exit(0);
    else composer.edit({ ...event, name: 'delete', ctrl: false, char: undefined } as KeyEvent);
    return;
  }
  if (isCtrl(event, 't')) return app.openPager();
  if (isCtrl(event, 'l')) return app.redraw();

  if (composer.search) return searchKey(app, event);
  if (isCtrl(event, 'r')) return composer.startSearch();

  const popup = composer.popup();
  if (popup) {
    if (event.name === 'up' || isCtrl(event, 'p')) return composer.movePopup(-1);
    if (event.name === 'down' || isCtrl(event, 'n')) return composer.movePopup(1);
    if (event.name === 'escape') return composer.dismissPopup();
    if (event.name === 'tab' || (event.name === 'enter' && !event.shift && !event.alt && !event.ctrl)) {
      const accepted = composer.acceptPopup();
      // Enter on a command that takes no arguments runs it.
      if (accepted?.kind === 'command' && event.name === 'enter' && !app.allCommands().find((spec) => spec.name === accepted.value)?.args) submit(app);
      return;
    }
  }

  const width = Math.max(1, app.terminal.columns - 2);
  switch (event.name) {
    case 'escape':
      return escape(app);
    case 'enter':
      if (event.shift || event.alt || event.ctrl) return composer.newline();
      // A trailing backslash is the newline of terminals that send Shift+Enter as plain Enter.
      if (composer.buffer.cursor > 0 && composer.text[composer.buffer.cursor - 1] === '\\') {
        composer.edit({ type: 'key', name: 'backspace', ctrl: false, alt: false, shift: false });
        return composer.newline();
      }
      return submit(app);
    case 'tab':
      if (state.turn && !composer.isEmpty) app.followUp(composer.take().input);
      return;
    case 'up':
      if (event.alt) return app.editQueued();
      composer.up(width);
      return;
    case 'down':
      composer.down(width);
      return;
  }
  if (isCtrl(event, 'j')) return composer.newline();
  if (isCtrl(event, 'p')) {
    composer.up(width);
    return;
  }
  if (isCtrl(event, 'n')) {
    composer.down(width);
    return;
  }
  composer.edit(event);
}

function controlC(app: TuiApp): void {
  const { composer, state } = app;
  const now = app.now();
  if (composer.search) return composer.cancelSearch();
  if (app.editing !== undefined) {
    app.editing = undefined;
    composer.clear();
    return;
  }
  if (!composer.isEmpty) {
    composer.clear();
    app.exitArmedUntil = now + DOUBLE_PRESS_MS;
    app.flash('input cleared · Ctrl+C again quits');
    return;
  }
  if (state.turn) {
    app.interrupt();
    app.exitArmedUntil = now + DOUBLE_PRESS_MS;
    app.flash('interrupting · Ctrl+C again quits', 'warning');
    return;
  }
  if (now < app.exitArmedUntil) {
    void app.exit(0);
    return;
  }
  app.exitArmedUntil = now + DOUBLE_PRESS_MS;
  app.flash('press Ctrl+C again to quit');
}

function escape(app: TuiApp): void {
  const { composer, state } = app;
  const now = app.now();
  if (app.editing !== undefined) {
    const earlier = app.editing - 1;
    if (earlier < 0) return app.flash('no earlier message', 'warning');
    app.editing = earlier;
    composer.setText(state.userMessages[earlier]!.text);
    return;
  }
  if (state.turn) {
    app.interrupt();
    app.flash('interrupting…', 'warning');
    return;
  }
  if (!composer.isEmpty) return;
  if (now - app.lastEscapeAt <= DOUBLE_ESCAPE_MS) {
    app.lastEscapeAt = -Infinity;
    const last = state.userMessages.length - 1;
    if (last < 0) return app.flash('no message to edit yet', 'warning');
    app.editing = last;
    composer.setText(state.userMessages[last]!.text);
    return;
  }
  app.lastEscapeAt = now;
  app.flash('Esc again edits your previous message');
}

function submit(app: TuiApp): void {
  const { composer, state } = app;
  if (composer.text.trim() === '') return;
  if (app.isCommand(composer.text)) {
    const { raw } = composer.take();
    app.runCommand(raw);
    return;
  }
  if (app.editing !== undefined) {
    const ref = state.userMessages[app.editing]!;
    app.editing = undefined;
    const { input } = composer.take();
    if (!ref.id) {
      state.note('this session did not say which message that was, so it cannot be edited; sent as a new message instead', 'warning');
      app.send(input);
      return;
    }
    state.echoUserMessage(input);
    state.turn ??= { startedAt: app.now() };
    app.port.editMessage(ref.id, input).catch(app.failed('could not edit the message'));
    return;
  }
  const { input } = composer.take();
  if (state.turn) app.steer(input);
  else app.send(input);
}

function searchKey(app: TuiApp, event: KeyEvent): void {
  const { composer } = app;
  if (isCtrl(event, 'r')) return composer.searchOlder();
  if (event.name === 'backspace') return composer.searchBackspace();
  if (event.name === 'escape' || isCtrl(event, 'g')) return composer.cancelSearch();
  composer.acceptSearch();
  // Enter takes the match and sends it; any other key takes it for editing.
  if (event.name === 'enter' && !event.shift && !event.alt) submit(app);
}

function answerApproval(app: TuiApp, modal: ApprovalModal, answer: ApprovalAnswer): void {
  const { state } = app;
  state.approvals.shift();
  const request = modal.request;
  const what =
    request.kind === 'exec'
      ? modal.command
      : request.kind === 'file_change'
        ? request.paths.join(', ')
        : request.kind === 'mcp_tool_call'
          ? `${request.server}: ${request.tool}`
          : request.kind === 'network'
            ? request.url
            : request.kind === 'user_input'
              ? 'the questions'
              : `${request.server}'s question`;
  const verdict: Record<ApprovalAnswer['decision'], string> = {
    approve: 'approved once',
    approve_for_session: 'approved for this session',
    approve_always: 'approved, not asked again',
    deny: 'declined',
    abort: 'declined and stopped the turn',
  };
  const approved = answer.decision === 'approve' || answer.decision === 'approve_for_session' || answer.decision === 'approve_always';
  if (request.kind === 'mcp_elicitation') {
    verdict.approve = answer.content ? `answered ${request.server}'s form` : `accepted ${request.server}'s request`;
    verdict.deny = `declined ${request.server}'s request`;
    verdict.abort = `cancelled ${request.server}'s request`;
  }
  if (request.kind === 'user_input') {
    verdict.approve = 'answered';
    verdict.deny = 'declined to answer';
    verdict.abort = 'cancelled';
  }
  const shown =
    request.kind === 'mcp_elicitation'
      ? answer.content
        ? JSON.stringify(answer.content)
        : request.message
      : request.kind === 'user_input' && answer.content
        ? request.questions.map((question) => `${question.question} ${describeUserInputAnswer(readUserInputAnswers(answer.content, [question])[question.id])}`).join('; ')
        : what;
  state.noteLines((context): Line[] =>
    wrap(
      [
        { text: `You ${verdict[answer.decision]}: `, style: approved ? theme.success : theme.error },
        { text: shown, style: theme.bold },
        ...(answer.feedback ? [{ text: ` — ${answer.feedback}`, style: theme.dim }] : []),
      ],
      { width: context.width, mode: context.mode, first: [{ text: approved ? '✔ ' : '✗ ', style: approved ? theme.success : theme.error }], rest: [{ text: '  ' }] },
    ),
  );
  app.port.answerApproval(request.id, answer).catch(app.failed('could not answer the approval'));
}
