// What the timer tools (Claude Code's CronCreate/CronDelete/CronList/ScheduleWakeup, Kimi Code's
// Cron*) need of the engine: a scheduler that belongs to the thread. When a job fires, its prompt
// is queued to the thread as a user message; the engine decides when (core/timers).

/** One scheduled prompt as the tools show it. */
export interface ScheduledJob {
  /** 8 hex digits, the originals' id shape. */
  id: string;
  /** A cron job (CronCreate) or the thread's one pending wake-up (ScheduleWakeup). */
  kind: 'cron' | 'wakeup';
  /** The expression as given (cron jobs only). */
  cron?: string;
  prompt: string;
  recurring: boolean;
  createdAt: Date;
  /** null when the expression never matches again. */
  nextFireAt: Date | null;
  /** Why the model scheduled a wake-up (ScheduleWakeup's `reason`). */
  reason?: string;
  /** When a recurring job stops on its own. */
  expiresAt?: Date;
  /** How many times it has fired. */
  fired: number;
}

export interface TimerLimits {
  minWakeupSeconds: number;
  maxWakeupSeconds: number;
  maxJobs: number;
  recurringMaxAgeDays: number;
}

export interface TimersCapability {
  readonly limits: TimerLimits;
  /** Throws TimerError when the expression does not parse, never matches, or the job limit is reached. */
  createCron(request: { cron: string; prompt: string; recurring: boolean }): Promise<ScheduledJob>;
  /**
   * Replaces the pending wake-up (a self-paced loop has one next step). The delay is clamped to
   * the limits; `requestedSeconds` in the answer says what was asked.
   */
  scheduleWakeup(request: { delaySeconds: number; prompt: string; reason?: string }): ScheduledJob & { requestedSeconds: number };
  /** Cancels the pending wake-up; undefined when there was none. */
  cancelWakeup(): ScheduledJob | undefined;
  /** Cancels a job by id; undefined when no job has that id. */
  delete(id: string): ScheduledJob | undefined;
  /** Every pending job, soonest first. */
  list(): ScheduledJob[];
}

/** A request the scheduler refuses; the message says what to change. */
export class TimerError extends Error {}
