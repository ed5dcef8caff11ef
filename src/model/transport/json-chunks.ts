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

function writeArray(writer: ChunkWriter, items: readonly unknown[]): void {
  writer.write('[');
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const last = i === items.length - 1;
    const cached = item !== null && typeof item === 'object' ? stableBytes.get(item) : undefined;
    if (cached !== undefined) {
      let bytes = cached;
      if (bytes === null) {
        bytes = ownedUtf8(`${JSON.stringify(item)},`);
        stableBytes.set(item as object, bytes);
      }
      writer.writeBytes(last ? bytes.subarray(0, bytes.length - 1) : bytes);
      continue;
    }
    // As JSON.stringify: an array slot that has no JSON form is null.
    writer.write(`${JSON.stringify(item) ?? 'null'}${last ? '' : ','}`);
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
