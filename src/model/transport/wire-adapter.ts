// The contract between the shared transport and one wire's request lowering + stream parsing.
// Adapters know nothing about HTTP, retries or timeouts; the transport knows nothing about wires.
import type { EventSourceMessage } from 'eventsource-parser';
import type { ModelErrorKind, ModelEvent } from '../../protocol/index.js';
import type { ModelRequest, WireApi } from '../types.js';
import type { ResolvedCompat } from '../compat.js';

/** Why an attempt failed, and whether another attempt may help. */
export interface AttemptFailure {
  kind: ModelErrorKind;
  /** One line for users (without the "stream disconnected" prefix the transport adds). */
  message: string;
  retryable: boolean;
  /** Server-advised delay before the next attempt. */
  delayMs?: number;
  status?: number;
  /**
   * The provider's own error, sent inside a 200 stream (an `error` chunk or event): reported as
   * such, not as a disconnect.
   */
  reported?: boolean;
  /** Said in full as is: no "stream disconnected" prefix (e.g. a reply cut at the output limit). */
  final?: boolean;
}

/** Thrown by a stream parser when the provider reports a failure inside the stream. */
export class WireStreamError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.message);
  }
}

export interface WireStreamParser {
  /**
   * One SSE message; returns neutral events. A `completed` event ends the stream. `json` is the
   * message's data parsed by the transport (undefined when it is not JSON).
   */
  push(message: EventSourceMessage, json?: unknown): ModelEvent[];
  /** The body ended (or broke). Returns the terminal events, or throws WireStreamError. */
  end(): ModelEvent[];
}

export interface WireAdapter {
  readonly wire: WireApi;
  /** Path appended to the provider base URL. */
  readonly path: string;
  /** `compat`: the provider's quirk flags; the generic defaults of the wire when absent. */
  buildBody(request: ModelRequest, compat?: ResolvedCompat): Record<string, unknown>;
  createParser(request: ModelRequest): WireStreamParser;
}

/** Parses an SSE data payload; undefined for unparseable events (which every wire skips). */
export function parseJsonData<T>(data: string): T | undefined {
  try {
    return JSON.parse(data) as T;
  } catch {
    return undefined;
  }
}
