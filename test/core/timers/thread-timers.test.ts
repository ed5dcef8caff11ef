// The thread's scheduler against a stand-in thread (the TimerTarget interface): real timers with
// short delays, awaited through what the thread is asked to do.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, UserInput } from '../../../src/protocol/index.js';
import { ThreadTimers, DEFAULT_TIMER_LIMITS, type TimerTarget } from '../../../src/core/timers/index.js';
import { TimerError } from '../../../src/tools/timers/capability.js';

class StandInThread implements TimerTarget {
  isRunning = false;
  closed = false;
  readonly started: string[] = [];
  readonly steered: string[] = [];
  private readonly listeners = new Set<(envelope: EventEnvelope) => void>();
  private waiters: (() => void)[] = [];

  startTurn(input: UserInput): void {
    if (this.isRunning) throw new Error('a turn is already running');
    this.started.push(input.text);
    this.wake();
  }

  steer(input: UserInput): void {
    this.steered.push(input.text);
    this.wake();
  }

  subscribe(listener: (envelope: EventEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: EventEnvelope['event']): void {
    for (const listener of this.listeners) listener({ thread_id: 't', timestamp_ms: Date.now(), event } as EventEnvelope);
  }

  /** Resolves once startTurn/steer has been called `count` times in all. */
  async delivered(count: number): Promise<void> {
    while (this.started.length + this.steered.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }
}

function timersOn(thread: StandInThread, limits: Partial<typeof DEFAULT_TIMER_LIMITS> = {}): ThreadTimers {
  const timers = new ThreadTimers();
  timers.limits = { ...DEFAULT_TIMER_LIMITS, minWakeupSeconds: 0, ...limits };
  timers.attach(thread);
  return timers;
}

describe('thread timers', () => {
  it('refuses a cron expression that does not parse, saying what the dialect is', async () => {
    const timers = timersOn(new StandInThread());
    for (const bad of ['every minute', '61 * * * *', '* * *', '0 0 0 1 1 * 2030']) {
      const error = await timers.createCron({ cron: bad, prompt: 'x', recurring: true }).catch((e: unknown) => e);
      expect(error, bad).toBeInstanceOf(TimerError);
      expect((error as Error).message).toContain(`invalid cron expression "${bad}"`);
      expect((error as Error).message).toContain('minute hour day-of-month month day-of-week');
    }
    expect(timers.list()).toEqual([]);
    timers.close();
  });

  it('computes the next fire time in local time, and a one-shot job is not given an expiry', async () => {
    const timers = timersOn(new StandInThread());
    const job = await timers.createCron({ cron: '30 14 28 2 *', prompt: 'remind me', recurring: false });
    expect(job.id).toMatch(/^[0-9a-f]{8}$/);
    const next = job.nextFireAt!;
    expect([next.getMonth(), next.getDate(), next.getHours(), next.getMinutes()]).toEqual([1, 28, 14, 30]);
    expect(job.expiresAt).toBeUndefined();
    const recurring = await timers.createCron({ cron: '*/5 * * * *', prompt: 'poll', recurring: true });
    expect(recurring.expiresAt!.getTime() - recurring.createdAt.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(timers.list().map((j) => j.id)).toEqual([recurring.id, job.id]);
    timers.close();
  });

  it('clamps a wake-up to the limits and keeps one pending wake-up', () => {
    const timers = timersOn(new StandInThread(), { minWakeupSeconds: 60 });
    const short = timers.scheduleWakeup({ delaySeconds: 1, prompt: 'again' });
    expect(short.requestedSeconds).toBe(1);
    expect(short.nextFireAt!.getTime() - short.createdAt.getTime()).toBe(60_000);
    const long = timers.scheduleWakeup({ delaySeconds: 99_999, prompt: 'later', reason: 'waiting for CI' });
    expect(long.nextFireAt!.getTime() - long.createdAt.getTime()).toBe(3_600_000);
    expect(timers.list().map((job) => [job.id, job.reason])).toEqual([[long.id, 'waiting for CI']]);
    expect(timers.cancelWakeup()?.id).toBe(long.id);
    expect(timers.list()).toEqual([]);
    timers.close();
  });

  it('a wake-up that fires on an idle thread starts a turn with its prompt, then is gone', async () => {
    const thread = new StandInThread();
    const timers = timersOn(thread);
    timers.scheduleWakeup({ delaySeconds: 0.05, prompt: 'check the build' });
    await thread.delivered(1);
    expect(thread.started).toEqual(['check the build']);
    expect(timers.list()).toEqual([]);
    timers.close();
  });

  it('never cuts into a running turn: the prompt waits and starts the next turn after it ends', async () => {
    const thread = new StandInThread();
    thread.isRunning = true;
    const timers = timersOn(thread);
    const fired = new StandInThread();
    const sentinel = timersOn(fired);
    timers.scheduleWakeup({ delaySeconds: 0.02, prompt: 'after the turn' });
    sentinel.scheduleWakeup({ delaySeconds: 0.1, prompt: 'time passed' });
    await fired.delivered(1);
    expect(thread.started).toEqual([]);
    expect(thread.steered).toEqual([]);
    thread.isRunning = false;
    thread.emit({ type: 'turn.completed', usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 } } as EventEnvelope['event']);
    await thread.delivered(1);
    expect(thread.started).toEqual(['after the turn']);
    timers.close();
    sentinel.close();
  });

  it('a prompt that waited joins the next turn when someone else starts it', async () => {
    const thread = new StandInThread();
    thread.isRunning = true;
    const timers = timersOn(thread);
    const fired = new StandInThread();
    const sentinel = timersOn(fired);
    timers.scheduleWakeup({ delaySeconds: 0.02, prompt: 'join me' });
    sentinel.scheduleWakeup({ delaySeconds: 0.1, prompt: 'time passed' });
    await fired.delivered(1);
    thread.emit({ type: 'turn.completed', usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 } } as EventEnvelope['event']);
    // The user's queued message starts the next turn within the grace period.
    thread.emit({ type: 'turn.started' } as EventEnvelope['event']);
    await thread.delivered(1);
    expect(thread.steered).toEqual(['join me']);
    expect(thread.started).toEqual([]);
    timers.close();
    sentinel.close();
  });

  it('a job that fired several times during a busy turn runs once after it; deleting it drops that run', async () => {
    const thread = new StandInThread();
    thread.isRunning = true;
    const timers = timersOn(thread);
    const fired = new StandInThread();
    const sentinel = timersOn(fired);
    const ticking = await timers.createCron({ cron: '* * * * * *', prompt: 'tick', recurring: true });
    timers.scheduleWakeup({ delaySeconds: 0.02, prompt: 'wake' });
    await sentinel.createCron({ cron: '* * * * * *', prompt: 'time passed', recurring: true });
    // Two sentinel fires are at least one second apart: the ticking job fired at least once meanwhile.
    await fired.delivered(2);
    await fired.delivered(3);
    expect(timers.list().find((job) => job.id === ticking.id)!.fired).toBeGreaterThanOrEqual(2);
    timers.delete(ticking.id);
    thread.isRunning = false;
    thread.emit({ type: 'turn.interrupted' } as EventEnvelope['event']);
    await thread.delivered(1);
    expect(thread.started).toEqual(['wake']);
    timers.close();
    sentinel.close();
  });

  it('a recurring job fires on every match until it is deleted (six fields: seconds first)', async () => {
    const thread = new StandInThread();
    const timers = timersOn(thread);
    const job = await timers.createCron({ cron: '* * * * * *', prompt: 'tick', recurring: true });
    await thread.delivered(2);
    expect(thread.started).toEqual(['tick', 'tick']);
    expect(timers.list()[0]).toMatchObject({ id: job.id, fired: 2 });
    expect(timers.delete(job.id)?.id).toBe(job.id);
    expect(timers.delete(job.id)).toBeUndefined();
    expect(timers.list()).toEqual([]);
    timers.close();
  });

  it('holds at most timers.max_jobs jobs', async () => {
    const timers = timersOn(new StandInThread(), { maxJobs: 2 });
    await timers.createCron({ cron: '0 9 * * *', prompt: 'a', recurring: true });
    timers.scheduleWakeup({ delaySeconds: 600, prompt: 'b' });
    // Replacing the pending wake-up is not a new job.
    timers.scheduleWakeup({ delaySeconds: 900, prompt: 'c' });
    const error = await timers.createCron({ cron: '0 10 * * *', prompt: 'd', recurring: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimerError);
    expect((error as Error).message).toMatch(/already has 2 scheduled jobs.*timers\.max_jobs = 2.*CronDelete/);
    timers.close();
  });

  it('closing the thread cancels its timers: nothing fires afterwards and nothing more can be scheduled', async () => {
    const thread = new StandInThread();
    const timers = timersOn(thread);
    const fired = new StandInThread();
    const sentinel = timersOn(fired);
    timers.scheduleWakeup({ delaySeconds: 0.02, prompt: 'too late' });
    thread.emit({ type: 'thread.closed' } as EventEnvelope['event']);
    sentinel.scheduleWakeup({ delaySeconds: 0.1, prompt: 'time passed' });
    await fired.delivered(1);
    expect(thread.started).toEqual([]);
    expect(timers.list()).toEqual([]);
    await expect(timers.createCron({ cron: '* * * * *', prompt: 'x', recurring: true })).rejects.toThrow(/closing/);
    sentinel.close();
  });
});
