// Reads an HTTP body as Server-Sent Events, with an idle timeout: a provider that stops sending
// without closing the connection must not hang the turn forever.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export class IdleTimeoutError extends Error {
  constructor(readonly idleMs: number) {
    super('idle timeout waiting for SSE');
  }
}

/** How many characters of the body `observer.head` keeps, for messages about what arrived. */
const HEAD_CHARS = 200;

export async function* readSse(
  body: AsyncIterable<Uint8Array>,
  idleTimeoutMs: number,
  observer?: { head: string },
): AsyncGenerator<EventSourceMessage> {
  const reader = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  try {
    for (;;) {
      const chunk = await readWithTimeout(reader, idleTimeoutMs);
      if (chunk.done) {
        parser.feed(decoder.decode());
        // A final event without its blank line still counts (some servers end that way).
        parser.reset({ consume: true });
        yield* pending.splice(0);
        return;
      }
      const text = decoder.decode(chunk.value, { stream: true });
      if (observer && observer.head.length < HEAD_CHARS) observer.head += text.slice(0, HEAD_CHARS - observer.head.length);
      parser.feed(text);
      yield* pending.splice(0);
    }
  } finally {
    // Ends (and for a socket, destroys) the body when the reader stops early.
    reader.return?.()?.catch(() => undefined);
  }
}

async function readWithTimeout(reader: AsyncIterator<Uint8Array>, idleTimeoutMs: number): Promise<IteratorResult<Uint8Array>> {
  if (!(idleTimeoutMs > 0)) return reader.next();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new IdleTimeoutError(idleTimeoutMs)), idleTimeoutMs);
  });
  try {
    return await Promise.race([reader.next(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
