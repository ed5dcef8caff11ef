// Reading the rollouts of finished threads from outside a thread (`rig eval` measures the runs
// its `rig exec` children recorded): parsing a rollout, and finding one by id or by day.
export { findRolloutFile, parseRollout, rolloutDayDir, threadIdTime } from '../store/index.js';
export type { RolloutRecord } from '../store/index.js';
