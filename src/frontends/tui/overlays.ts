// What takes the screen from the session for a while: the thread picker (in the composer's place)
// and the transcript pager (Ctrl+T, in the alternate screen), and redrawing everything after them
// (reflow).
import type { TuiApp } from './app.js';
import { ALT_SCREEN_OFF, ALT_SCREEN_ON } from './terminal/ansi.js';
import { serialize } from './text/styled.js';
import { ThreadPicker } from './view/picker.js';
import { openPager as pagerOver, renderTranscript } from './transcript-view.js';

/** Opens the thread picker; the chosen thread is resumed or forked through the session's command. */
export function openPicker(app: TuiApp, verb: 'resume' | 'fork'): void {
  const browser = app.port.threads;
  if (!browser) {
    app.state.note(`this session has no stored threads to ${verb}`, 'error');
    if (app.pickingAtStart) void app.exit(1);
    return;
  }
  app.picker = new ThreadPicker(verb, browser, () => app.requestFrame());
  app.requestFrame();
}

/** The picker's answer: a thread to open, or cancelled (which at start-up leaves rig). */
export function closePicker(app: TuiApp, chosen: string | undefined): void {
  const picker = app.picker;
  if (!picker) return;
  app.picker = undefined;
  const atStart = app.pickingAtStart;
  app.pickingAtStart = false;
  if (chosen) app.runCommand(`/${picker.verb} ${chosen}`);
  else if (atStart) void app.exit(1);
  app.requestFrame();
}

export function openPager(app: TuiApp): void {
  if (app.options.plain) return;
  app.pager = pagerOver(app);
  app.terminal.write((app.alternateScreen ? '' : ALT_SCREEN_ON) + app.pager.render(app.terminal.columns, app.options.caps));
}

export function closePager(app: TuiApp): void {
  if (!app.pager) return;
  app.pager = undefined;
  // In the alternate screen already, the pager drew over the session: draw it all again.
  if (app.alternateScreen) return reflow(app);
  app.terminal.write(ALT_SCREEN_OFF);
  // The main screen comes back as it was, reflowed if the size changed meanwhile.
  if (app.renderer.sizeChanged) app.resizePending = true;
  app.renderNow();
}

/** A resize while the pager is open: it re-wraps the transcript at the new width. */
export function resizePager(app: TuiApp): void {
  const pager = app.pager;
  if (!pager) return;
  pager.replace(renderTranscript(app, { expanded: true, fit: true }), app.terminal.rows);
  app.terminal.write(pager.render(app.terminal.columns, app.options.caps));
}

/** The whole transcript written again at the current width (clears the scrollback: only on request). */
export function reflow(app: TuiApp): void {
  const history = renderTranscript(app).map((line) => serialize(line, app.options.caps));
  app.state.pendingHistory = [];
  app.renderer.reflowAll(history, app.liveFrame());
}
