// The one typed event stream of a thread. Listeners run synchronously in emission order, so a
// front end sees events exactly as the engine produced them.
import type { ThreadEvent } from '../protocol/index.js';

export type ThreadEventListener = (event: ThreadEvent) => void;

export class EventHub {
  private readonly listeners = new Set<ThreadEventListener>();

  subscribe(listener: ThreadEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ThreadEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
