// The heap keeper: a full collection when a model request has been sent and the heap grew past
// its margin since the last one; never on the first request, never for a large heap, and not at
// all with RIG_HEAP_KEEPER=0.
import { channel } from 'node:diagnostics_channel';
import { getHeapStatistics } from 'node:v8';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_HEAP_POLICY, shouldCollect, startHeapKeeper, type HeapKeeper } from '../../src/cli/boot/heap-keeper.js';
import { MODEL_REQUEST_SENT_CHANNEL } from '../../src/model/transport/request-sent.js';

const MB = 1024 * 1024;
const keepers: HeapKeeper[] = [];
afterEach(() => keepers.splice(0).forEach((keeper) => keeper.stop()));

const requestSent = (): void => channel(MODEL_REQUEST_SENT_CHANNEL).publish('http://127.0.0.1/v1/responses');

it('collects past the larger of 2 MB and 15% of what the last collection left, and leaves large heaps to V8', () => {
  expect(shouldCollect(11 * MB, 10 * MB)).toBe(false);
  expect(shouldCollect(12.5 * MB, 10 * MB)).toBe(true);
  expect(shouldCollect(45 * MB, 40 * MB)).toBe(false);
  expect(shouldCollect(47 * MB, 40 * MB)).toBe(true);
  expect(shouldCollect(DEFAULT_HEAP_POLICY.maxHeapBytes, 20 * MB)).toBe(false);
});

/** Objects that survive young-generation collections, then dropped: garbage V8 leaves in old space. */
function promotedGarbage(bytes: number): void {
  let kept: { text: string; n: number }[] | undefined = [];
  for (let i = 0; i * 64 < bytes; i++) kept.push({ text: `item ${i} `.repeat(4), n: i });
  kept = undefined;
}

it('on a request sent after the heap grew, it collects and the garbage is gone', () => {
  const keeper = startHeapKeeper({}, { ...DEFAULT_HEAP_POLICY, maxHeapBytes: Number.MAX_SAFE_INTEGER });
  expect(keeper).toBeDefined();
  keepers.push(keeper!);
  requestSent();
  expect(keeper!.collections).toBe(0);
  const before = getHeapStatistics().used_heap_size;
  promotedGarbage(24 * MB);
  const grown = getHeapStatistics().used_heap_size;
  // Alive while they were made, so V8 promoted them and could not free them on its own since.
  expect(grown - before).toBeGreaterThan(16 * MB);
  requestSent();
  expect(keeper!.collections).toBe(1);
  expect(getHeapStatistics().used_heap_size).toBeLessThan(grown - 16 * MB);
  // Right after a collection there is nothing to do.
  requestSent();
  expect(keeper!.check()).toBe(false);
});

it('the first request only sets the mark: a one-shot run pays no collection for the bundle it loaded', () => {
  const keeper = startHeapKeeper({}, { ...DEFAULT_HEAP_POLICY, minGrowthBytes: 0, growthFraction: 0, maxHeapBytes: Number.MAX_SAFE_INTEGER });
  keepers.push(keeper!);
  promotedGarbage(8 * MB);
  requestSent();
  expect(keeper!.collections).toBe(0);
});

it('a heap at or above the ceiling is never collected by it', () => {
  const keeper = startHeapKeeper({}, { ...DEFAULT_HEAP_POLICY, minGrowthBytes: 0, growthFraction: 0, maxHeapBytes: 1 });
  keepers.push(keeper!);
  requestSent();
  promotedGarbage(8 * MB);
  requestSent();
  expect(keeper!.collections).toBe(0);
});

it('RIG_HEAP_KEEPER=0 turns it off', () => {
  expect(startHeapKeeper({ RIG_HEAP_KEEPER: '0' })).toBeUndefined();
});
