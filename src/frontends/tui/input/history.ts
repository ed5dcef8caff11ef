// Input history: Up/Down walk it (keeping the unsent draft), Ctrl+R searches it backwards.
export class InputHistory {
  private readonly entries: string[];
  /** entries.length means "the draft". */
  private index: number;
  private draft = '';

  constructor(initial: readonly string[] = [], private readonly limit = 1000) {
    this.entries = initial.slice(-limit);
    this.index = this.entries.length;
  }

  get size(): number {
    return this.entries.length;
  }

  push(text: string): void {
    if (text.trim() === '') return;
    if (this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    if (this.entries.length > this.limit) this.entries.shift();
    this.index = this.entries.length;
    this.draft = '';
  }

  /** The older entry, or undefined at the oldest; `current` is kept as the draft when leaving it. */
  previous(current: string): string | undefined {
    if (this.index === 0 || this.entries.length === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** The newer entry, the draft after the newest, or undefined when already at the draft. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  /** Leaves navigation (after a send or an edit). */
  reset(): void {
    this.index = this.entries.length;
  }

  /** The newest entry older than `before` that contains `query` (case-insensitive). */
  search(query: string, before = this.entries.length): { index: number; text: string } | undefined {
    const needle = query.toLowerCase();
    for (let i = Math.min(before, this.entries.length) - 1; i >= 0; i--) {
      if (this.entries[i]!.toLowerCase().includes(needle)) return { index: i, text: this.entries[i]! };
    }
    return undefined;
  }
}
