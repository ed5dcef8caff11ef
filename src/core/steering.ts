// Input given to a running turn (steering): it waits here until the loop hands it to the model with
// the next request. A message given an id can be taken back until then.
import type { UserInput } from '../protocol/index.js';

export interface SteeringMessage {
  input: UserInput;
  steerId?: string;
}

export class SteeringQueue {
  private readonly waiting: SteeringMessage[] = [];

  get size(): number {
    return this.waiting.length;
  }

  add(input: UserInput, steerId?: string): void {
    if (steerId !== undefined && this.waiting.some((pending) => pending.steerId === steerId)) {
      throw new Error(`a steering message with id ${steerId} is already waiting; give each one its own id`);
    }
    this.waiting.push({ input, ...(steerId !== undefined ? { steerId } : {}) });
  }

  /** False when the message was handed to the model already (or is unknown). */
  retract(steerId: string): boolean {
    const index = this.waiting.findIndex((pending) => pending.steerId === steerId);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  /** The oldest message, taken out of the queue. */
  next(): SteeringMessage | undefined {
    return this.waiting.shift();
  }
}
