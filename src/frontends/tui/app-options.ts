// How a TUI session is set up (TuiOptions), and the one-shot timers the app schedules frames,
// escape timeouts and notices with.
import type { UserInput } from '../../protocol/index.js';
import type { FileIndex } from './input/file-index.js';
import type { SessionPort } from './session-port.js';
import type { TuiTerminal } from './terminal/terminal.js';
import type { Capabilities } from './text/styled.js';

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

export type Timer = { cancel(): void };

export function immediate(run: () => void): Timer {
  const handle = setImmediate(run);
  return { cancel: () => clearImmediate(handle) };
}

export function timeout(run: () => void, ms: number): Timer {
  const handle = setTimeout(run, ms);
  return { cancel: () => clearTimeout(handle) };
}
