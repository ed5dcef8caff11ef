// The interactive session: session events and keys in, frames out. Input is handled as it
// arrives (state changes at once); drawing is coalesced to at most one frame per 16 ms, so a burst
// of keys or a fast stream costs one frame, and nothing is drawn while nothing changes (no timer
// runs when idle: the spinner ticks only while something is in progress).
import type { UserInput } from '../../protocol/index.js';
import { LOCAL_COMMANDS, looksLikeCommand } from './commands.js';
import { Composer } from './input/composer.js';
import { FileIndex } from './input/file-index.js';
import { KeyParser, type InputEvent } from './input/keys.js';
import { layoutLive } from './layout.js';
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
import { serialize, type Capabilities } from './text/styled.js';
import { loadHighlighter } from './view/highlighter.js';
import { SPINNER_INTERVAL_MS } from './view/live.js';
import type { Pager } from './view/pager.js';
import { ThreadPicker } from './view/picker.js';
import type { Chooser } from './view/rewind-chooser.js';
import { handleKey } from './keymap.js';
import { runSlashCommand } from './slash.js';
import { openPager, renderTranscript } from './transcript-view.js';

export const FRAME_INTERVAL_MS = 16;

export interface TuiOptions {
  terminal: TuiTerminal;
  port: SessionPort;
  caps: Capabilities;
  /** TERM=dumb: no cursor movement, no modes. */
  plain?: boolean;
  cwd: string;
  /** Bell + OSC 9 when a turn ends or an approval waits while the terminal is unfocused. */
  notifications?: boolean;
  history?: readonly string[];
  /** Sent as the first message (`rig "prompt"`). */
  initialPrompt?: UserInput;
  /**
   * Run in the terminal's alternate screen (tui.alternate_screen): the scrollback is left as it
   * was and nothing is written to it; Ctrl+T shows the whole transcript.
   */
  alternateScreen?: boolean;
  /** `rig resume`/`rig fork` with no id: the session opens on the picker (cancelling it leaves). */
  pickAtStart?: 'resume' | 'fork';
  now?: () => number;
  /** How long a lone ESC waits for the rest of an escape sequence. */
  escapeTimeoutMs?: number;
  fileExists?: (path: string) => boolean;
  files?: FileIndex;
}

type Timer = { cancel(): void };

function immediate(run: () => void): Timer {
  const handle = setImmediate(run);
  return { cancel: () => clearImmediate(handle) };
}

function timeout(run: () => void, ms: number): Timer {
  const handle = setTimeout(run, ms);
  return { cancel: () => clearTimeout(handle) };
}

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
  private pickingAtStart = false;
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
  private resizePending = false;
  private stopped = false;
  private resolveExit!: (code: number) => void;
  private readonly unsubscribe: (() => void)[] = [];
  private nextSteerId = 1;

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
    const own = this.port.commands();
    const names = new Set(own.map((spec) => spec.name));
    return [...own, ...LOCAL_COMMANDS.filter((spec) => !names.has(spec.name))].sort((a, b) => (a.name < b.name ? -1 : 1));
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

  /** Opens the thread picker; the chosen thread is resumed or forked through the session's command. */
  openPicker(verb: 'resume' | 'fork'): void {
    const browser = this.port.threads;
    if (!browser) {
      this.state.note(`this session has no stored threads to ${verb}`, 'error');
      if (this.pickingAtStart) void this.exit(1);
      return;
    }
    this.picker = new ThreadPicker(verb, browser, () => this.requestFrame());
    this.requestFrame();
  }

  /** The picker's answer: a thread to open, or cancelled (which at start-up leaves rig). */
  closePicker(chosen: string | undefined): void {
    const picker = this.picker;
    if (!picker) return;
    this.picker = undefined;
    const atStart = this.pickingAtStart;
    this.pickingAtStart = false;
    if (chosen) this.runCommand(`/${picker.verb} ${chosen}`);
    else if (atStart) void this.exit(1);
    this.requestFrame();
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
      this.afterTurn(ended);
    }
    this.requestFrame();
  }

  private afterTurn(how: 'completed' | 'failed' | 'interrupted'): void {
    this.notify(how === 'completed' ? 'rig finished the turn' : how === 'failed' ? 'rig: the turn failed' : 'rig: turn interrupted');
    if (how === 'interrupted') {
      // Queued messages come back to the composer, where they can be sent or dropped.
      const texts = this.state.queue.map((queued) => queued.input.text);
      this.state.queue = [];
      if (texts.length > 0 && this.composer.isEmpty) this.composer.setText(texts.join('\n\n'));
      return;
    }
    // A steer the turn did not take, or a follow-up: the next one starts the next turn.
    const next = this.state.queue.shift();
    if (next) this.send(next.input);
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
    if (this.pager) {
      this.pager.replace(...openPagerLines(this));
      this.terminal.write(this.pager.render(this.terminal.columns, this.options.caps));
      return;
    }
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
    const banner = this.editing !== undefined ? `editing an earlier message: Enter sends it there (the thread forks) · Esc goes further back · Ctrl+C cancels` : undefined;
    const layout = layoutLive({
      state: this.state,
      composer: this.composer,
      width: this.terminal.columns,
      rows: this.terminal.rows,
      now: this.now(),
      plain: Boolean(this.options.plain),
      ...(banner ? { banner } : {}),
      ...(this.picker || this.chooser ? { picker: (this.picker ?? this.chooser)! } : {}),
    });
    return { lines: layout.lines.map((line) => serialize(line, this.options.caps)), ...(layout.cursor ? { cursor: layout.cursor } : {}) };
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

  /** Starts a turn with `input` (printed at once). */
  send(input: UserInput): void {
    this.state.echoUserMessage(input);
    this.state.turn ??= { startedAt: this.now() };
    this.port.submit(input).catch((error: unknown) => {
      // Nothing started: no turn to wait for.
      this.state.turn = undefined;
      this.failed('could not start the turn')(error);
    });
  }

  /** Enter while a turn runs: deliver at the next tool boundary. */
  steer(input: UserInput): void {
    const id = `steer-${this.nextSteerId++}`;
    this.state.queue.push({ id, kind: 'steer', input });
    this.port.steer(id, input).catch((error: unknown) => {
      this.state.queue = this.state.queue.filter((queued) => queued.id !== id);
      this.failed('could not steer the turn')(error);
    });
  }

  followUp(input: UserInput): void {
    this.state.queue.push({ id: `later-${this.nextSteerId++}`, kind: 'follow-up', input });
  }

  /** Alt+Up: the last queued message back into the composer. */
  editQueued(): void {
    const last = this.state.queue[this.state.queue.length - 1];
    if (!last) return;
    const load = () => {
      this.state.queue = this.state.queue.filter((queued) => queued !== last);
      if (!this.composer.isEmpty) this.composer.insertText('\n');
      this.composer.insertText(last.input.text);
      this.requestFrame();
    };
    if (last.kind === 'follow-up') return load();
    this.port.retractSteer(last.id).then((retracted) => {
      if (retracted) load();
      else {
        this.flash('that message was already delivered', 'warning');
        this.requestFrame();
      }
    }, this.failed('could not take the message back'));
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
    if (this.options.plain) return;
    this.pager = openPager(this);
    this.terminal.write((this.alternateScreen ? '' : ALT_SCREEN_ON) + this.pager.render(this.terminal.columns, this.options.caps));
  }

  closePager(): void {
    if (!this.pager) return;
    this.pager = undefined;
    // In the alternate screen already, the pager drew over the session: draw it all again.
    if (this.alternateScreen) return this.reflow();
    this.terminal.write(ALT_SCREEN_OFF);
    // The main screen comes back as it was, reflowed if the size changed meanwhile.
    if (this.renderer.sizeChanged) this.resizePending = true;
    this.renderNow();
  }

  /** Ctrl+L: the live region erased and drawn again (the scrollback is left alone). */
  redraw(): void {
    this.resizePending = true;
    this.renderNow();
  }

  reflow(): void {
    const history = renderTranscript(this).map((line) => serialize(line, this.options.caps));
    this.state.pendingHistory = [];
    this.renderer.reflowAll(history, this.liveFrame());
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

function openPagerLines(app: TuiApp): [ReturnType<typeof renderTranscript>, number] {
  return [renderTranscript(app, { expanded: true, fit: true }), app.terminal.rows];
}
