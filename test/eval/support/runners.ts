// The two trial runners the eval tests run against: engine threads in the eval process (the
// default) and a `rig exec --json` child per trial (`--isolate`).
export const RUNNERS = ['in-process', 'isolate'] as const;
export type RunnerName = (typeof RUNNERS)[number];

/** The `rig eval` / `rig worker` flags that pick the runner. */
export function runnerFlags(runner: RunnerName): string[] {
  return runner === 'isolate' ? ['--isolate'] : [];
}
