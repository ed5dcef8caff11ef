// The one event stream of a thread. Listeners run synchronously in emission order, so a front end
// sees events exactly as the engine produced them; a listener that throws cannot starve the others.
import type { EventEnvelope } from '../protocol/index.js';

export type EnvelopeListener = (envelope: EventEnvelope) => void;

export class EventHub {
  private readonly listeners = new Set<EnvelopeListener>();

  subscribe(listener: EnvelopeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(envelope: EventEnvelope): void {
    for (const listener of this.listeners) {
      try {
        listener(envelope);
      } catch (error) {
        // A front end's bug must not break the turn; report it once, where a developer looks.
        process.emitWarning(`a thread event listener threw: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      }
    }
  }
}
