// A thread's scheduled prompts (CronCreate, ScheduleWakeup). Timers belong to the thread: they run
// only while it is loaded and are cancelled when it closes (nothing is written to disk). When one
// fires, its prompt is queued as a user message: an idle thread starts a turn with it; a running
// turn is never cut into (the originals run scheduled prompts between turns), so the prompt waits
// and joins the next turn, whoever starts it, as finished sub-agents are delivered to a parent
// (agents/service.ts deliverQueued).
import { randomBytes } from 'node:crypto';
import type { EventEnvelope, UserInput } from '../../protocol/index.js';
import { TimerError, type ScheduledJob, type TimerLimits, type TimersCapability } from '../../tools/timers/capability.js';
import type { EnvelopeListener } from '../event-hub.js';
import { compileCron, type CronSchedule } from './cron-expression.js';

/** What the scheduler needs of its thread (a ThreadHandle). */
export interface TimerTarget {
  readonly isRunning: boolean;
  readonly closed: boolean;
  startTurn(input: UserInput): unknown;
  steer(input: UserInput): unknown;
  subscribe(listener: EnvelopeListener): () => void;
}

/** Claude Code's numbers: wake-ups 60..3600 s, 50 jobs per session, recurring jobs end after 7 days. */
export const DEFAULT_TIMER_LIMITS: TimerLimits = { minWakeupSeconds: 60, maxWakeupSeconds: 3600, maxJobs: 50, recurringMaxAgeDays: 7 };

const DAY_MS = 24 * 60 * 60 * 1000;
/** setTimeout holds at most ~24.8 days; a later fire time is re-armed on the way. */
const MAX_TIMEOUT_MS = DAY_MS;
/**
 * After a turn ends, a front end sends what its user queued meanwhile (the TUI's follow-ups); a
 * prompt that waited gives it this long to do so, then joins that turn or starts its own.
 */
const AFTER_TURN_GRACE_MS = 250;

interface Job extends ScheduledJob {
  schedule?: CronSchedule;
  timer?: NodeJS.Timeout;
}

export class ThreadTimers implements TimersCapability {
  limits: TimerLimits = DEFAULT_TIMER_LIMITS;
  private readonly jobs = new Map<string, Job>();
  /**
   * Jobs that fired while a turn was running, in firing order: one entry per job however often it
   * fired meanwhile (a busy thread gets one catch-up run, not a burst), dropped if the job is deleted.
   */
  private waiting: { jobId: string; prompt: string }[] = [];
  private target: TimerTarget | undefined;
  private unsubscribe: (() => void) | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Connects the scheduler to its thread once the thread exists. */
  attach(target: TimerTarget): void {
    this.unsubscribe?.();
    this.target = target;
    this.unsubscribe = target.subscribe((envelope) => this.observe(envelope));
  }

  async createCron(request: { cron: string; prompt: string; recurring: boolean }): Promise<ScheduledJob> {
    this.checkRoom();
    const schedule = await compileCron(request.cron);
    const created = this.now();
    const next = schedule.next(created);
    if (!next) throw new TimerError(`the cron expression "${request.cron}" never matches a time after now; give one that does`);
    this.checkRoom();
    const job: Job = {
      id: this.newId(),
      kind: 'cron',
      cron: request.cron.trim(),
      prompt: request.prompt,
      recurring: request.recurring,
      createdAt: created,
      nextFireAt: next,
      ...(request.recurring ? { expiresAt: new Date(created.getTime() + this.limits.recurringMaxAgeDays * DAY_MS) } : {}),
      fired: 0,
      schedule,
    };
    this.jobs.set(job.id, job);
    this.arm(job);
    return view(job);
  }

  scheduleWakeup(request: { delaySeconds: number; prompt: string; reason?: string }): ScheduledJob & { requestedSeconds: number } {
    const previous = this.wakeup();
    if (!previous) this.checkRoom();
    const { minWakeupSeconds, maxWakeupSeconds } = this.limits;
    const requested = Number.isFinite(request.delaySeconds) ? request.delaySeconds : minWakeupSeconds;
    const seconds = Math.min(maxWakeupSeconds, Math.max(minWakeupSeconds, requested));
    if (previous) this.remove(previous.id);
    const created = this.now();
    const job: Job = {
      id: this.newId(),
      kind: 'wakeup',
      prompt: request.prompt,
      recurring: false,
      createdAt: created,
      nextFireAt: new Date(created.getTime() + seconds * 1000),
      ...(request.reason ? { reason: request.reason } : {}),
      fired: 0,
    };
    this.jobs.set(job.id, job);
    this.arm(job);
    return { ...view(job), requestedSeconds: requested };
  }

  cancelWakeup(): ScheduledJob | undefined {
    const pending = this.wakeup();
    return pending ? this.remove(pending.id) : undefined;
  }

  delete(id: string): ScheduledJob | undefined {
    const removed = this.remove(id.trim());
    if (removed) this.waiting = this.waiting.filter((fire) => fire.jobId !== removed.id);
    return removed;
  }

  list(): ScheduledJob[] {
    const order = (job: Job) => job.nextFireAt?.getTime() ?? Number.POSITIVE_INFINITY;
    return [...this.jobs.values()].sort((a, b) => order(a) - order(b)).map(view);
  }

  /** Cancels every timer; prompts not delivered yet are dropped with the thread. */
  close(): void {
    this.closed = true;
    for (const job of this.jobs.values()) clearTimeout(job.timer);
    this.jobs.clear();
    this.waiting = [];
    clearTimeout(this.flushTimer);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private wakeup(): Job | undefined {
    return [...this.jobs.values()].find((job) => job.kind === 'wakeup');
  }

  private checkRoom(): void {
    if (this.closed) throw new TimerError('this thread is closing; nothing can be scheduled any more');
    if (this.jobs.size >= this.limits.maxJobs) {
      throw new TimerError(
        `this session already has ${this.jobs.size} scheduled jobs, the most it may hold (timers.max_jobs = ${this.limits.maxJobs}); delete one with CronDelete first`,
      );
    }
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
      if (!this.jobs.has(id)) return id;
    }
  }

  private remove(id: string): ScheduledJob | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    clearTimeout(job.timer);
    this.jobs.delete(id);
    return view(job);
  }

  private arm(job: Job): void {
    clearTimeout(job.timer);
    if (!job.nextFireAt) return;
    const wait = Math.max(0, job.nextFireAt.getTime() - this.now().getTime());
    // Unref'd: a pending timer never keeps a finished process alive.
    job.timer = setTimeout(() => (wait > MAX_TIMEOUT_MS ? this.arm(job) : this.fire(job)), Math.min(wait, MAX_TIMEOUT_MS));
    job.timer.unref();
  }

  private fire(job: Job): void {
    if (this.closed || this.jobs.get(job.id) !== job) return;
    job.fired++;
    const next = job.recurring && job.schedule ? job.schedule.next(this.now()) : null;
    if (next && (!job.expiresAt || next.getTime() <= job.expiresAt.getTime())) {
      job.nextFireAt = next;
      this.arm(job);
    } else {
      this.jobs.delete(job.id);
    }
    this.deliver([{ jobId: job.id, prompt: job.prompt }]);
  }

  private deliver(fires: { jobId: string; prompt: string }[]): void {
    const target = this.target;
    if (!target || target.closed || this.closed || fires.length === 0) return;
    if (target.isRunning) return this.wait(fires);
    try {
      target.startTurn({ text: fires.map((fire) => fire.prompt).join('\n\n') });
    } catch {
      // A turn started in between (or the input was refused): wait for the next one.
      this.wait(fires);
    }
  }

  private wait(fires: { jobId: string; prompt: string }[]): void {
    for (const fire of fires) if (!this.waiting.some((queued) => queued.jobId === fire.jobId)) this.waiting.push(fire);
  }

  private observe(envelope: EventEnvelope): void {
    const event = envelope.event;
    if (event.type === 'thread.closed') return this.close();
    if (this.waiting.length === 0) return;
    if (event.type === 'turn.started') {
      clearTimeout(this.flushTimer);
      const text = this.waiting.splice(0).map((fire) => fire.prompt).join('\n\n');
      this.target?.steer({ text });
    } else if (event.type === 'turn.completed' || event.type === 'turn.failed' || event.type === 'turn.interrupted') {
      clearTimeout(this.flushTimer);
      this.flushTimer = setTimeout(() => this.deliver(this.waiting.splice(0)), AFTER_TURN_GRACE_MS);
      this.flushTimer.unref();
    }
  }
}

function view(job: Job): ScheduledJob {
  const { schedule: _schedule, timer: _timer, ...shown } = job;
  return { ...shown };
}
