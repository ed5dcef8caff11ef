// A request body as JSON in pieces, never one string of the whole conversation, and the history's
// items encoded once per thread instead of once per request.
//
// A 300-step session sends ~300 kB of history on every request. As one JSON.stringify string plus
// its Buffer copy, each body was ~1 MB of garbage, most of it in V8's large-object space, freed only
// by a full collection: the soak bench saw rig's private memory grow ~135 kB per step while the
// history grew 1 kB, and serializing was over half of everything a step allocated. Now an item the
// wire lowered once (stableJson) is encoded to UTF-8 once, and each request writes those same bytes.

/** JSON whose pieces, concatenated, are exactly `JSON.stringify(value)` in UTF-8. */
export interface JsonChunks {
  readonly chunks: readonly (string | Buffer)[];
  /** UTF-8 length of the whole: the request's content-length. */
  readonly byteLength: number;
}

/**
 * Small pieces are joined up to this many UTF-16 units: 128 kB even as a two-byte string, below
 * V8's large-object threshold (kMaxRegularHeapObjectSize, 128 kiB on 64-bit).
 */
const CHUNK_UNITS = 32 * 1024;

// The UTF-8 of objects their maker promised never to change (stableJson), followed by a comma: an
// item in the middle of an array is written as is, the last one without its comma (a view, no copy).
const stableBytes = new WeakMap<object, Buffer | null>();

/**
 * Marks `value` as never changed again, so its JSON is encoded once and reused by every request
 * that carries it. Returns `value`.
 */
export function stableJson<T extends object>(value: T): T {
  if (!stableBytes.has(value)) stableBytes.set(value, null);
  return value;
}

class ChunkWriter {
  readonly chunks: (string | Buffer)[] = [];
  byteLength = 0;
  private pending: string[] = [];
  private pendingUnits = 0;

  write(text: string): void {
    this.byteLength += Buffer.byteLength(text, 'utf8');
    if (text.length >= CHUNK_UNITS) {
      this.flush();
      this.chunks.push(text);
      return;
    }
    if (this.pendingUnits + text.length > CHUNK_UNITS) this.flush();
    this.pending.push(text);
    this.pendingUnits += text.length;
  }

  writeBytes(bytes: Buffer): void {
    this.flush();
    this.chunks.push(bytes);
    this.byteLength += bytes.length;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.length === 1 ? this.pending[0]! : this.pending.join(''));
    this.pending = [];
    this.pendingUnits = 0;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * UTF-8 in memory of its own. Buffer.from() puts a string under 4 kB into a slice of a shared 8 kB
 * pool, and one slice kept alive keeps the whole pool: an item cached for the thread's lifetime
 * held 8 kB for its ~1 kB of JSON (the soak's heap grew ~8 kB a step from this alone).
 */
function ownedUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

/**
 * Consecutive stable items joined into one block once this many are in a row. A 300-step history
 * written item by item was ~600 pieces per request, each a write with its own queue entries in
 * the HTTP and stream layers and its own iovec in the kernel: ~1 ms of the main thread a request on
 * the soak bench, growing with the history. In blocks it is ~20, for the same bytes in memory.
 */
const BLOCK_ITEMS = 32;

interface Block {
  items: readonly object[];
  /** The items' bytes one after the other, each with its comma. */
  bytes: Buffer;
}

// By the block's first item. Blocks begin where a run of stable items begins (after a block, or
// after an item that is not stable), so the next request, whose array starts with the same items,
// meets them at the same places.
const blocks = new WeakMap<object, Block>();

function blockMatches(block: Block, items: readonly unknown[], at: number): boolean {
  if (at + block.items.length > items.length) return false;
  for (let j = 0; j < block.items.length; j++) if (items[at + j] !== block.items[j]) return false;
  return true;
}

/** Joins the run's bytes into one block; each item's cached bytes become a view of it (no second copy). */
function makeBlock(run: readonly object[]): void {
  const parts = run.map((item) => stableBytes.get(item)!);
  const bytes = Buffer.allocUnsafeSlow(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  run.forEach((item, j) => {
    const part = parts[j]!;
    part.copy(bytes, offset);
    stableBytes.set(item, bytes.subarray(offset, offset + part.length));
    offset += part.length;
  });
  blocks.set(run[0]!, { items: run, bytes });
}

function writeArray(writer: ChunkWriter, items: readonly unknown[]): void {
  writer.write('[');
  let run: object[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const cached = item !== null && typeof item === 'object' ? stableBytes.get(item) : undefined;
    if (cached === undefined) {
      run = [];
      // As JSON.stringify: an array slot that has no JSON form is null.
      writer.write(`${JSON.stringify(item) ?? 'null'}${i === items.length - 1 ? '' : ','}`);
      continue;
    }
    const stable = item as object;
    const block = run.length === 0 ? blocks.get(stable) : undefined;
    if (block && blockMatches(block, items, i)) {
      const end = i + block.items.length - 1;
      // The array's last item goes without its comma (a view, no copy).
      writer.writeBytes(end === items.length - 1 ? block.bytes.subarray(0, block.bytes.length - 1) : block.bytes);
      i = end;
      continue;
    }
    // The history changed under it (compaction, a rewritten item): its items are blocked anew.
    if (block) blocks.delete(stable);
    let bytes = cached;
    if (bytes === null) {
      bytes = ownedUtf8(`${JSON.stringify(item)},`);
      stableBytes.set(stable, bytes);
    }
    writer.writeBytes(i === items.length - 1 ? bytes.subarray(0, bytes.length - 1) : bytes);
    run.push(stable);
    if (run.length === BLOCK_ITEMS) {
      makeBlock(run);
      run = [];
    }
  }
  writer.write(']');
}

/**
 * Serializes `value` as JSON.stringify would (no replacer, no indent). A plain object's arrays
 * (a request's `input`, `messages`, `tools`) are written item by item, so no piece holds more than
 * one item; anything else goes through JSON.stringify whole.
 */
export function toJsonChunks(value: unknown): JsonChunks {
  const writer = new ChunkWriter();
  if (!isPlainObject(value)) {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError('the request body is not JSON (undefined)');
    writer.write(text);
  } else {
    writer.write('{');
    let first = true;
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (Array.isArray(field) && typeof (field as { toJSON?: unknown }).toJSON !== 'function') {
        writer.write(`${first ? '' : ','}${JSON.stringify(key)}:`);
        writeArray(writer, field);
      } else {
        const text = JSON.stringify(field);
        // As JSON.stringify: a field that has no JSON form (undefined, a function) is left out.
        if (text === undefined) continue;
        writer.write(`${first ? '' : ','}${JSON.stringify(key)}:${text}`);
      }
      first = false;
    }
    writer.write('}');
  }
  writer.flush();
  return { chunks: writer.chunks, byteLength: writer.byteLength };
}

/** The whole text, for the few readers that want one string (error reports, tests). */
export function jsonChunksText(body: JsonChunks): string {
  return body.chunks.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).join('');
}
