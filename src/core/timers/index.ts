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

export { EXEC_NO_TIMERS, CLIENT_TURNS_NO_TIMERS, SUBAGENT_NO_TIMERS } from './reasons.js';
