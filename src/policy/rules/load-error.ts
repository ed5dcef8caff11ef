// One error type for everything that can go wrong while loading a .rules file,
// always pointing at a place in the file so the user can fix it.

export interface SourcePosition {
  line: number;
  column: number;
}

export class ExecPolicyLoadError extends Error {
  override readonly name = 'ExecPolicyLoadError';
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The message without the `file:line:col: ` location prefix. */
  readonly detail: string;

  constructor(file: string, position: SourcePosition, detail: string) {
    super(`${file}:${position.line}:${position.column}: ${detail}`);
    this.file = file;
    this.line = position.line;
    this.column = position.column;
    this.detail = detail;
  }
}
