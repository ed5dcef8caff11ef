// After start-up, the young generation keeps the size it has reached.
//
// V8 doubles the young generation (up to 2 x 16 MB) whenever enough objects have survived
// scavenges since the last growth; over a long session that always happens, although what a step
// allocates dies within the step. In the 320-step soak this was ~24 MB of rig's private memory:
// 41 MB at the end instead of ~32 MB. Frozen after the first second, when start-up has grown it
// to what the process needs (~8 MB), the same soak ends at ~32 MB, with ~50 scavenges instead of
// ~30 (about 20 ms over the session). Frozen from the very start (2 MB), scavenges run six times
// as often, so start-up keeps its growth.

/** When start-up is over, for this purpose: a `rig exec` sends its first request in ~150 ms. */
const SETTLE_AFTER_MS = 1_000;

export function settleYoungGenerationAfterStartup(): void {
  const timer = setTimeout(() => {
    void import('node:v8').then((v8) => v8.setFlagsFromString('--semi-space-growth-factor=1'));
  }, SETTLE_AFTER_MS);
  timer.unref();
}
