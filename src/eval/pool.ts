// Runs trials K at a time in this process (each trial's agent an engine thread here, or a child
// process with --isolate); stops handing out trials once the signal aborts.
export async function runPool<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>, signal: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (!signal.aborted && next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, lane));
}
