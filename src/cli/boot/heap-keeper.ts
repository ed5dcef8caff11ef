// Keeps a small heap close to what it holds: a full collection once the heap has grown by a
// fraction of what survived the last one.
//
// V8 schedules its own full collections from a limit it sets at the previous one: at least 8 MB and
// up to 2-4 times the surviving heap. For a heap of rig's size (10-20 MB) that is a 50-100% margin
// that fills with garbage promoted from the young generation, and the pages it took are not given
// back: on the 320-step soak bench there was one full collection in the whole run, and private
// memory grew ~10 MB while what the heap held grew ~2 MB. Node 20 cannot set that limit. V8's
// memory reducer would collect during idle time, but only 8 s after a full collection and only
// when the process is quiet, which a busy turn never is.
//
// The heap is looked at when a model request has been sent (model/transport/request-sent.ts):
// then the process waits for the model's first token, hundreds of milliseconds with a real model,
// so the collection's pause (12-17 ms for a ~15 MB heap on a 2-core machine: gc() marks and sweeps
// on the main thread, where V8's own collections are incremental and concurrent) is paid while
// nothing else could run. Measured on the soak (320 steps, 2 runs), where the mock answers at
// once so every pause shows: private memory at the end ~31 -> ~24 MB, its p95 ~31 -> ~25 MB,
// main-process peak RSS ~73 -> ~70 MB, for one collection every ~2 MB of growth (~7 in the run).
// Large heaps are left to V8: there a full collection would pause for tens of milliseconds, and
// V8's margin is small beside the heap. RIG_HEAP_KEEPER=0 turns it off.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MODEL_REQUEST_SENT_CHANNEL } from '../../model/transport/request-sent.js';

export interface HeapKeeperPolicy {
  /** Growth of the used heap since the last collection that is always tolerated. */
  minGrowthBytes: number;
  /** Growth tolerated as a fraction of what the last collection left, when that is more. */
  growthFraction: number;
  /** At or above this used heap, collections are left to V8. */
  maxHeapBytes: number;
}

export const DEFAULT_HEAP_POLICY: HeapKeeperPolicy = {
  minGrowthBytes: 2 * 1024 * 1024,
  growthFraction: 0.15,
  maxHeapBytes: 64 * 1024 * 1024,
};

/** Whether the heap, used `used` bytes now and `afterLast` after the last collection, should be collected. */
export function shouldCollect(used: number, afterLast: number, policy: HeapKeeperPolicy = DEFAULT_HEAP_POLICY): boolean {
  if (used >= policy.maxHeapBytes) return false;
  return used - afterLast > Math.max(policy.minGrowthBytes, afterLast * policy.growthFraction);
}

export interface HeapKeeper {
  /** Full collections it has asked for. */
  readonly collections: number;
  /** Looks at the heap now (one getHeapStatistics() call, microseconds); true when it collected. */
  check(): boolean;
  stop(): void;
}

let collectGarbage: (() => void) | undefined;

/**
 * V8's gc(), exposed after start: the flag is read when a context is created, so a new context
 * gets the function (the main one never does). Undefined where V8 refuses.
 */
function fullCollection(): (() => void) | undefined {
  if (collectGarbage) return collectGarbage;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc === 'function') collectGarbage = gc as () => void;
  } catch {
    // No gc(): V8 keeps its own schedule.
  }
  return collectGarbage;
}

/** Starts keeping the heap (undefined when RIG_HEAP_KEEPER=0 or gc() cannot be had). */
export function startHeapKeeper(env: NodeJS.ProcessEnv = process.env, policy: HeapKeeperPolicy = DEFAULT_HEAP_POLICY): HeapKeeper | undefined {
  if (env['RIG_HEAP_KEEPER'] === '0') return undefined;
  // Set by the first request, not at boot: loading the bundle grows the heap by more than the
  // margin, nearly all of it code kept for the run, and a one-shot `rig exec` would pay a
  // collection for nothing.
  let afterLast: number | undefined;
  let collections = 0;
  const keeper: HeapKeeper = {
    get collections() {
      return collections;
    },
    check() {
      const used = getHeapStatistics().used_heap_size;
      if (afterLast === undefined) {
        afterLast = used;
        return false;
      }
      if (!shouldCollect(used, afterLast, policy)) {
        // Garbage V8 collected on its own lowers the mark.
        if (used < afterLast) afterLast = used;
        return false;
      }
      const gc = fullCollection();
      if (!gc) {
        keeper.stop();
        return false;
      }
      gc();
      collections++;
      afterLast = getHeapStatistics().used_heap_size;
      return true;
    },
    stop() {
      unsubscribe(MODEL_REQUEST_SENT_CHANNEL, onRequestSent);
    },
  };
  const onRequestSent = (): void => {
    keeper.check();
  };
  subscribe(MODEL_REQUEST_SENT_CHANNEL, onRequestSent);
  return keeper;
}
