// The timer tools as the profiles bind them (Claude Code's and Kimi Code's), over a real thread
// scheduler: what each answers, and what it refuses and why.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMER_LIMITS, ThreadTimers } from '../../../src/core/timers/index.js';
import { bound } from '../harness/bind.js';
import { call, fakeContext, type FakeContext } from '../harness/fake-context.js';

const schedulers: ThreadTimers[] = [];
afterEach(() => schedulers.splice(0).forEach((timers) => timers.close()));

function contextWithTimers(): { ctx: FakeContext; timers: ThreadTimers } {
  const timers = new ThreadTimers();
  timers.limits = { ...DEFAULT_TIMER_LIMITS };
  schedulers.push(timers);
  const ctx = fakeContext();
  ctx.caps.timers = timers;
  return { ctx, timers };
}

describe('Claude Code timer tools', () => {
  const claude = bound('claude-code');
  const tool = (name: string) => claude.byName.get(name);

  it('CronCreate schedules a session-only job and says how to cancel it; CronList and CronDelete find it by id', async () => {
    const { ctx } = contextWithTimers();
    const created = await call(tool('CronCreate'), { cron: '*/5 * * * *', prompt: 'check the deploy', durable: true }, ctx);
    expect(created.success).toBe(true);
    const id = /job ([0-9a-f]{8})/.exec(created.text)![1]!;
    expect(created.text).toMatch(/^Scheduled recurring job [0-9a-f]{8} \(\*\/5 \* \* \* \*\)\. Next fire: \S+Z \(in \d+ (s|min)\)\./);
    expect(created.text).toContain('expires after 7 days');
    expect(created.text).toContain(`CronDelete id "${id}"`);
    expect(created.text).toContain('durable is not supported');
    const listed = await call(tool('CronList'), {}, ctx);
    expect(listed.text).toMatch(new RegExp(`^1 scheduled job \\(session-only\\):\\n${id}  \\*/5 \\* \\* \\* \\* recurring  next: .+  prompt: check the deploy$`));
    expect(await call(tool('CronDelete'), { id }, ctx)).toEqual({ success: true, text: `Cancelled job ${id} (*/5 * * * *): it will not fire again.` });
    expect((await call(tool('CronList'), {}, ctx)).text).toBe('No scheduled jobs.');
  });

  it('CronCreate with recurring "false" (a string, as models send it) is a one-shot job', async () => {
    const { ctx, timers } = contextWithTimers();
    const created = await call(tool('CronCreate'), { cron: '30 14 28 2 *', prompt: 'remind me', recurring: 'false' }, ctx);
    expect(created.text).toContain('one-shot job');
    expect(timers.list()[0]).toMatchObject({ recurring: false });
  });

  it('a bad expression or an unknown id is refused with what to do', async () => {
    const { ctx } = contextWithTimers();
    const bad = await call(tool('CronCreate'), { cron: 'every 5 minutes', prompt: 'x' }, ctx);
    expect(bad.success).toBe(false);
    expect(bad.text).toMatch(/^invalid cron expression "every 5 minutes": .*Use 5 fields "minute hour day-of-month month day-of-week" in local time/);
    const unknown = await call(tool('CronDelete'), { id: 'deadbeef' }, ctx);
    expect(unknown).toEqual({ success: false, text: 'no scheduled job has id "deadbeef"; nothing is scheduled' });
  });

  it('ScheduleWakeup clamps the delay and says so, replaces the pending wake-up, and stop cancels it', async () => {
    const { ctx, timers } = contextWithTimers();
    const first = await call(tool('ScheduleWakeup'), { delaySeconds: 5, reason: 'build running', prompt: 'look again' }, ctx);
    expect(first.text).toMatch(/^Wake-up [0-9a-f]{8} scheduled in 60 s, at \S+Z; 5 s was asked, and a wake-up waits 60 to 3600 s\./);
    await call(tool('ScheduleWakeup'), { delaySeconds: 120, prompt: 'look later' }, ctx);
    expect(timers.list().map((job) => job.prompt)).toEqual(['look later']);
    expect((await call(tool('ScheduleWakeup'), { stop: true }, ctx)).text).toMatch(/^Loop stopped: wake-up [0-9a-f]{8} is cancelled/);
    expect(timers.list()).toEqual([]);
    expect((await call(tool('ScheduleWakeup'), { delaySeconds: 60 }, ctx)).success).toBe(false);
  });

  it('without a scheduler (a session that cannot keep timers) the tools say so', async () => {
    const result = await call(tool('CronList'), {}, fakeContext());
    expect(result).toEqual({ success: false, text: 'scheduled prompts are not available in this session' });
  });
});

describe('Kimi Code timer tools', () => {
  const kimi = bound('kimi-code');
  const tool = (name: string) => kimi.byName.get(name);

  it('answer in key/value records, as Kimi Code does', async () => {
    const { ctx } = contextWithTimers();
    expect((await call(tool('CronList'), {}, ctx)).text).toBe('cron_jobs: 0\nNo cron jobs scheduled.');
    const created = await call(tool('CronCreate'), { cron: '0 9 * * 1-5', prompt: 'standup notes' }, ctx);
    expect(created.text).toMatch(/^Scheduled cron job\.\nid: [0-9a-f]{8}\ncron: 0 9 \* \* 1-5\nprompt: standup notes\nnextFireAt: \S+Z\nrecurring: true\nageDays: 0\.00$/);
    const id = /id: ([0-9a-f]{8})/.exec(created.text)![1]!;
    expect((await call(tool('CronList'), {}, ctx)).text).toMatch(/^cron_jobs: 1\nid: [0-9a-f]{8}\ncron: 0 9 \* \* 1-5\n/);
    expect((await call(tool('CronDelete'), { id }, ctx)).text).toBe(`Deleted cron job ${id}.`);
  });
});
