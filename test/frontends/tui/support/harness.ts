// Starts the TUI on an xterm.js terminal with a fake port and a settable clock.
import { TuiApp, type TuiOptions } from '../../../../src/frontends/tui/app.js';
import type { Capabilities } from '../../../../src/frontends/tui/text/styled.js';
import { FakePort } from './fake-port.js';
import { XtermTerminal } from './xterm-terminal.js';

export const COLOR: Capabilities = { color: true, attributes: true, hyperlinks: false };
export const NO_COLOR: Capabilities = { color: false, attributes: true, hyperlinks: false };

export interface Harness {
  app: TuiApp;
  term: XtermTerminal;
  port: FakePort;
  clock: { now: number };
  /** Lets the TUI take the port's events and input, draws the frame, waits for xterm to parse it. */
  settle(): Promise<void>;
  /** Types bytes, then settles. */
  type(data: string): Promise<void>;
  emit(...events: Parameters<FakePort['emit']>): Promise<void>;
}

export async function startHarness(options: { columns?: number; rows?: number; caps?: Capabilities; tui?: Partial<TuiOptions> } = {}): Promise<Harness> {
  const term = new XtermTerminal(options.columns ?? 60, options.rows ?? 16);
  const port = new FakePort();
  const clock = { now: 1_000_000 };
  const app = new TuiApp({
    terminal: term,
    port,
    caps: options.caps ?? NO_COLOR,
    cwd: process.cwd(),
    now: () => clock.now,
    escapeTimeoutMs: 5,
    notifications: false,
    ...options.tui,
  });
  app.start();
  const settle = async () => {
    await port.drained();
    app.renderNow();
    await term.settle();
  };
  await settle();
  return {
    app,
    term,
    port,
    clock,
    settle,
    type: async (data: string) => {
      term.type(data);
      await settle();
    },
    emit: async (...events) => {
      port.emit(...events);
      await settle();
    },
  };
}
