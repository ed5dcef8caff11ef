// Bounded output capture: a runaway command must not exhaust memory, but both the start of its
// output (the command's own banner, the first error) and the end (the summary, the last error) are
// what a reader needs, so the middle is what gets dropped.

/** 1 MiB: the most output kept per call. */
export const DEFAULT_OUTPUT_MAX_BYTES = 1024 * 1024;

export class HeadTailBuffer {
  readonly maxBytes: number;
  readonly headBudget: number;
  readonly tailBudget: number;
  private head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private omitted = 0;
  private total = 0;

  constructor(maxBytes: number = DEFAULT_OUTPUT_MAX_BYTES) {
    this.maxBytes = Math.max(0, Math.floor(maxBytes));
    this.headBudget = Math.floor(this.maxBytes / 2);
    this.tailBudget = this.maxBytes - this.headBudget;
  }

  /** Bytes dropped from the middle so far. */
  get omittedBytes(): number {
    return this.omitted;
  }

  /** Bytes currently kept (head + tail). */
  get retainedBytes(): number {
    return this.headLength + this.tailLength;
  }

  /** Every byte ever pushed, kept or not (since the last drain). */
  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Uint8Array): void {
    const length = chunk.length;
    if (length === 0) return;
    this.total += length;
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, length);
    const headRoom = this.headBudget - this.headLength;
    let rest = bytes;
    if (headRoom > 0) {
      const taken = Math.min(headRoom, length);
      // Copy: callers (stream readers) may reuse their chunk memory.
      this.head.push(Buffer.from(bytes.subarray(0, taken)));
      this.headLength += taken;
      rest = bytes.subarray(taken);
    }
    if (rest.length > 0) this.pushTail(rest);
  }

  private pushTail(bytes: Buffer): void {
    if (this.tailBudget === 0) {
      this.omitted += bytes.length;
      return;
    }
    if (bytes.length >= this.tailBudget) {
      this.omitted += this.tailLength + (bytes.length - this.tailBudget);
      this.tail = [Buffer.from(bytes.subarray(bytes.length - this.tailBudget))];
      this.tailLength = this.tailBudget;
      return;
    }
    this.tail.push(Buffer.from(bytes));
    this.tailLength += bytes.length;
    let excess = this.tailLength - this.tailBudget;
    while (excess > 0) {
      const first = this.tail[0]!;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.omitted += first.length;
        excess -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLength -= excess;
        this.omitted += excess;
        excess = 0;
      }
    }
  }

  /** The kept bytes, head then tail, without any marker. */
  toBuffer(): Buffer {
    return Buffer.concat([...this.head, ...this.tail], this.retainedBytes);
  }

  /** The kept bytes with `\n... N bytes omitted ...\n` between head and tail when bytes were dropped. */
  toBufferWithMarker(): Buffer {
    if (this.omitted === 0) return this.toBuffer();
    const marker = Buffer.from(omissionMarker(this.omitted));
    return Buffer.concat([...this.head, marker, ...this.tail]);
  }

  /** UTF-8 text of `toBufferWithMarker()`; invalid sequences become U+FFFD. */
  toString(): string {
    return this.toBufferWithMarker().toString('utf8');
  }

  /** Take everything kept (with the omission marker) and start over empty. */
  drain(): Buffer {
    const out = this.toBufferWithMarker();
    this.head = [];
    this.headLength = 0;
    this.tail = [];
    this.tailLength = 0;
    this.omitted = 0;
    this.total = 0;
    return out;
  }
}

export function omissionMarker(omittedBytes: number): string {
  return `\n... ${omittedBytes} bytes omitted ...\n`;
}
