// The terminal as the TUI sees it: a size, a way to write, input and resize notifications. The
// process terminal is one implementation; tests use an xterm.js-backed one.
export interface TuiTerminal {
  readonly columns: number;
  readonly rows: number;
  write(data: string): void;
  onInput(listener: (data: string) => void): () => void;
  onResize(listener: () => void): () => void;
}
