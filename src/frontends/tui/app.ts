// The interactive session: session events and keys in, frames out. Input is handled as it
// arrives (state changes at once); drawing is coalesced to at most one frame per 16 ms, so a burst
// of keys or a fast stream costs one frame, and nothing is drawn while nothing changes (no timer
// runs when idle: the spinner ticks only while something is in progress).
import type { UserInput } from '../../protocol/index.js';
import { allCommands, looksLikeCommand } from './commands.js';
import { Composer } from './input/composer.js';
import { FileIndex } from './input/file-index.js';
import { FRAME_INTERVAL_MS, immediate, timeout, type Timer, type TuiOptions } from './app-options.js';
import { KeyParser, type InputEvent } from './input/keys.js';
import { liveFrame } from './layout.js';
import type { SessionEvent, SessionPort, SlashCommandSpec } from './session-port.js';
import { TuiState } from './state.js';
import {
  ALT_SCREEN_OFF,
  ALT_SCREEN_ON,
  BELL,
  BRACKETED_PASTE_ON,
  FOCUS_REPORTS_ON,
  KITTY_KEYBOARD_PUSH,
  MODIFY_OTHER_KEYS_ON,
  RESTORE_TERMINAL,
  desktopNotification,
} from './terminal/ansi.js';
import { PlainRenderer } from './terminal/plain-renderer.js';
import { InlineRenderer, type LiveFrame } from './terminal/renderer.js';
import type { TuiTerminal } from './terminal/terminal.js';
import { loadHighlighter } from './view/highlighter.js';
import { SPINNER_INTERVAL_MS } from './view/live.js';
import type { Pager } from './view/pager.js';
import { ThreadPicker } from './view/picker.js';
import type { Chooser } from './view/rewind-chooser.js';
import { handleKey } from './keymap.js';
import { runSlashCommand } from './slash.js';
import { afterTurn, editQueuedMessage, followUpMessage, sendMessage, steerMessage } from './messages.js';
import { closePager, closePicker, openPager, openPicker, reflow, resizePager } from './overlays.js';

export { FRAME_INTERVAL_MS, type TuiOptions } from './app-options.js';

export class TuiApp {
  readonly state: TuiState;
  readonly composer: Composer;
  readonly renderer: InlineRenderer | PlainRenderer;
  readonly exited: Promise<number>;
  readonly now: () => number;
  pager: Pager | undefined;
  /** The thread picker, while open (it takes the composer's place). */
  picker: ThreadPicker | undefined;
  /** A chooser a command opened (/rewind's), while open; it takes the composer's place too. */
  chooser: Chooser | undefined;
  /** Whether the session has a thread yet (not while the start-up picker is open). */
  pickingAtStart = false;
  focused = true;
  /** Esc Esc: the index in state.userMessages being edited. */
  editing: number | undefined;
  lastEscapeAt = -Infinity;
  exitArmedUntil = -Infinity;
  private readonly parser = new KeyParser();
  private frameTimer: Timer | undefined;
  private escapeTimer: Timer | undefined;
  private spinner: ReturnType<typeof setInterval> | undefined;
  private noticeTimer: Timer | undefined;
  private lastFrameAt = -Infinity;
  resizePending = false;
  private stopped = false;
  private resolveExit!: (code: number) => void;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(readonly options: TuiOptions) {
    this.now = options.now ?? (() => performance.now());
    const terminal = options.terminal;
    this.state = new TuiState({ caps: options.caps, width: () => Math.max(1, terminal.columns), now: this.now });
    this.composer = new Composer({
      ...(options.history ? { history: options.history } : {}),
      commands: () => this.allCommands(),
      files: options.files ?? new FileIndex(options.cwd),
      ...(options.fileExists ? { fileExists: options.fileExists } : {}),
    });
    this.renderer = options.plain ? new PlainRenderer(terminal) : new InlineRenderer(terminal);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  /** Whether the terminal shows the alternate screen now (what a crash must leave). */
  get inAlternateScreen(): boolean {
    return !this.stopped && (this.pager !== undefined || this.alternateScreen);
  }

  get alternateScreen(): boolean {
    return Boolean(this.options.alternateScreen) && !this.options.plain;
  }

  get terminal(): TuiTerminal {
    return this.options.terminal;
  }

  get port(): SessionPort {
    return this.options.port;
  }

  allCommands(): SlashCommandSpec[] {
    return allCommands(this.port.commands());
  }

  /** Turns on the modes, draws the first frame, and starts reading events and keys. */
  start(): void {
    if (this.alternateScreen) this.terminal.write(ALT_SCREEN_ON);
    if (!this.options.plain) this.terminal.write(BRACKETED_PASTE_ON + FOCUS_REPORTS_ON + KITTY_KEYBOARD_PUSH + MODIFY_OTHER_KEYS_ON);
    this.unsubscribe.push(this.terminal.onInput((data) => this.handleInput(data)));
    this.unsubscribe.push(this.terminal.onResize(() => this.handleResize()));
    this.renderNow();
    // The highlighter loads after the first frame, while the user reads it.
    void loadHighlighter();
    void this.consume();
    if (this.options.pickAtStart) {
      this.pickingAtStart = true;
      this.openPicker(this.options.pickAtStart);
    }
    if (this.options.initialPrompt) this.send(this.options.initialPrompt);
  }

  openPicker(verb: 'resume' | 'fork'): void {
    openPicker(this, verb);
  }

  closePicker(chosen: string | undefined): void {
    closePicker(this, chosen);
  }

  private async consume(): Promise<void> {
    try {
      for await (const event of this.port.events) {
        if (this.stopped) return;
        this.handleEvent(event);
      }
    } catch (error) {
      this.state.note(`the session's event stream failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
    if (!this.stopped) void this.exit(0);
  }

  handleEvent(event: SessionEvent): void {
    this.state.apply(event);
    if (this.state.approvalArrived) {
      this.state.approvalArrived = false;
      this.notify('rig is waiting for your approval');
      // Without a live region the question's details go to the scrollback.
      if (this.options.plain && this.state.approvals.length === 1) this.state.commit(this.state.approvals[0]!.render(this.terminal.columns, 1000).lines);
    }
    const ended = this.state.turnEnded;
    if (ended) {
      this.state.turnEnded = undefined;
      afterTurn(this, ended);
    }
    this.requestFrame();
  }

  /** Input bytes waiting to be understood (a lone ESC until its timeout). */
  get inputPending(): boolean {
    return this.parser.pending;
  }

  handleInput(data: string): void {
    this.escapeTimer?.cancel();
    this.escapeTimer = undefined;
    for (const event of this.parser.feed(data)) this.dispatch(event);
    if (this.parser.pending) {
      this.escapeTimer = timeout(() => {
        this.escapeTimer = undefined;
        for (const event of this.parser.flush()) this.dispatch(event);
        this.requestFrame();
      }, this.options.escapeTimeoutMs ?? 30);
    }
    this.requestFrame();
  }

  dispatch(event: InputEvent): void {
    if (this.stopped) return;
    if (event.type === 'focus') {
      this.focused = event.focused;
      return;
    }
    handleKey(this, event);
  }

  private handleResize(): void {
    if (this.stopped) return;
    if (this.pager) return resizePager(this);
    // At once, not at the next frame: the terminal has just reflowed the old rows.
    this.resizePending = true;
    this.renderNow();
  }

  requestFrame(): void {
    if (this.stopped || this.frameTimer) return;
    const wait = this.lastFrameAt + FRAME_INTERVAL_MS - this.now();
    this.frameTimer = wait <= 0 ? immediate(() => this.renderNow()) : timeout(() => this.renderNow(), wait);
  }

  /** Draws the frame now (tests and resizes call this directly). */
  renderNow(): void {
    this.frameTimer?.cancel();
    this.frameTimer = undefined;
    if (this.stopped || this.pager) return;
    const frame = this.liveFrame();
    if (this.resizePending) {
      this.resizePending = false;
      this.renderer.resize(frame);
    }
    const history = this.state.pendingHistory;
    this.state.pendingHistory = [];
    this.renderer.frame(history, frame);
    this.lastFrameAt = this.now();
    this.updateTimers();
  }

  liveFrame(): LiveFrame {
    return liveFrame(this);
  }

  private updateTimers(): void {
    const animate = this.state.working && !this.options.plain;
    if (animate && !this.spinner) this.spinner = setInterval(() => this.requestFrame(), SPINNER_INTERVAL_MS);
    if (!animate && this.spinner) {
      clearInterval(this.spinner);
      this.spinner = undefined;
    }
    const notice = this.state.notice;
    if (notice && !this.noticeTimer) {
      this.noticeTimer = timeout(() => {
        this.noticeTimer = undefined;
        if (this.state.notice && this.state.notice.until <= this.now()) this.state.notice = undefined;
        this.requestFrame();
      }, Math.max(0, notice.until - this.now()) + 1);
    }
  }

  flash(text: string, style: 'info' | 'warning' | 'error' = 'info'): void {
    this.noticeTimer?.cancel();
    this.noticeTimer = undefined;
    this.state.flash(text, this.now(), style);
  }

  notify(message: string): void {
    if (this.options.notifications === false || this.focused || this.options.plain) return;
    this.terminal.write(BELL + desktopNotification(message));
  }

  /** Reports a failed port call in the transcript. */
  failed(what: string): (error: unknown) => void {
    return (error) => {
      this.state.note(`${what}: ${error instanceof Error ? error.message : String(error)}`, 'error');
      this.requestFrame();
    };
  }

  send(input: UserInput): void {
    sendMessage(this, input);
  }

  steer(input: UserInput): void {
    steerMessage(this, input);
  }

  followUp(input: UserInput): void {
    followUpMessage(this, input);
  }

  editQueued(): void {
    editQueuedMessage(this);
  }

  interrupt(): void {
    this.port.interrupt().catch(this.failed('could not interrupt'));
  }

  runCommand(text: string): void {
    runSlashCommand(this, text);
  }

  isCommand(text: string): boolean {
    return looksLikeCommand(text);
  }

  openPager(): void {
    openPager(this);
  }

  closePager(): void {
    closePager(this);
  }

  /** Ctrl+L: the live region erased and drawn again (the scrollback is left alone). */
  redraw(): void {
    this.resizePending = true;
    this.renderNow();
  }

  reflow(): void {
    reflow(this);
  }

  /** Leaves the TUI: the live region is erased and every mode turned off. */
  async exit(code = 0): Promise<void> {
    if (this.stopped) return;
    this.renderNow();
    this.stopped = true;
    this.frameTimer?.cancel();
    this.escapeTimer?.cancel();
    this.noticeTimer?.cancel();
    if (this.spinner) clearInterval(this.spinner);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    if (this.pager && !this.alternateScreen) this.terminal.write(ALT_SCREEN_OFF);
    this.renderer.clear();
    if (this.alternateScreen) this.terminal.write(ALT_SCREEN_OFF);
    if (!this.options.plain) this.terminal.write(RESTORE_TERMINAL);
    try {
      await this.port.close();
    } catch {
      // Closing is best effort; the engine saves as it goes.
    }
    this.resolveExit(code);
  }
}
