// Cron expressions for CronCreate: Claude Code's dialect (5 fields "minute hour day-of-month month
// day-of-week" in local time; `*`, lists, ranges and steps; 0 or 7 is Sunday; when both day fields
// are restricted either may match), parsed by croner. A sixth, leading seconds field is accepted
// too (rig's extension, for sub-minute schedules). croner is imported on first use: a session that
// never schedules anything does not pay for it at startup (about 40 ms to load here).
import { TimerError } from '../../tools/timers/capability.js';

export interface CronSchedule {
  /** The first match strictly after `after`, or null when there is none. */
  next(after: Date): Date | null;
}

let loading: Promise<typeof import('croner')> | undefined;

const DIALECT_HINT =
  'Use 5 fields "minute hour day-of-month month day-of-week" in local time, e.g. "*/5 * * * *" (every 5 minutes) or "30 14 28 2 *" (February 28 at 14:30).';

export async function compileCron(expression: string): Promise<CronSchedule> {
  const text = expression.trim().replace(/\s+/g, ' ');
  if (text === '') throw new TimerError(`the cron expression is empty. ${DIALECT_HINT}`);
  const { Cron } = await (loading ??= import('croner'));
  let cron: InstanceType<typeof Cron>;
  try {
    cron = new Cron(text, { mode: '5-or-6-parts', paused: true });
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, '');
    throw new TimerError(`invalid cron expression "${expression}": ${why}. ${DIALECT_HINT}`);
  }
  return { next: (after) => cron.nextRun(after) };
}
