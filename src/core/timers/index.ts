// Session-scoped timers: the thread's scheduler and how configuration and front ends shape it.
import type { RigConfig } from '../../config/index.js';
import type { TimerLimits } from '../../tools/timers/capability.js';
import { TIMER_CAPABILITY_IDS } from '../../tools/timers/tools.js';
import { DEFAULT_TIMER_LIMITS } from './thread-timers.js';

export { ThreadTimers, DEFAULT_TIMER_LIMITS, type TimerTarget } from './thread-timers.js';

/** [timers] over Claude Code's defaults. */
export function timerLimits(table: RigConfig['timers']): TimerLimits {
  return {
    ...DEFAULT_TIMER_LIMITS,
    ...(table?.min_wakeup_seconds !== undefined ? { minWakeupSeconds: table.min_wakeup_seconds } : {}),
    ...(table?.max_jobs !== undefined ? { maxJobs: table.max_jobs } : {}),
  };
}

/** The timer capabilities marked unavailable with `reason` (none when there is no reason). */
export function timersUnavailable(reason: string | undefined): Map<string, string> {
  return new Map(reason === undefined ? [] : TIMER_CAPABILITY_IDS.map((id) => [id, reason]));
}

/** Why `rig exec` leaves the timer tools out. */
export const EXEC_NO_TIMERS = 'rig exec ends when its turn ends, so a scheduled prompt could never fire; use the TUI, the REPL or the app server for scheduled prompts';
/** Why a sub-agent has none (Kimi Code does the same): its thread ends with its task. */
export const SUBAGENT_NO_TIMERS = "a sub-agent's thread ends with its task, so a scheduled prompt could never fire; schedule it from the main thread";
