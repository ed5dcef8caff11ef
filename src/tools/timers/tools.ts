// The timer tools: Claude Code's CronCreate, CronDelete, CronList and ScheduleWakeup, and Kimi
// Code's Cron* (option `style: "kimi"`: its key/value records). Jobs are the thread's (see
// core/timers): session-only, gone when rig exits; a fired prompt arrives as a user message.
import type { ResolvedTool, ToolFactory } from '../../harness/profile.js';
import type { ToolContext, ToolSpec } from '../spec.js';
import { boolArg, fail, functionSpec, numberArg, ok, stringArg, styleOption } from '../harness/common.js';
import { TimerError, type ScheduledJob, type TimersCapability } from './capability.js';

type Style = 'claude' | 'kimi';
const STYLES = ['claude', 'kimi'] as const;

const NO_TIMERS = 'scheduled prompts are not available in this session';

function timers(ctx: ToolContext): TimersCapability {
  const found = ctx.caps.timers;
  if (!found) throw new TimerError(NO_TIMERS);
  return found;
}

/** A TimerError is the model's to fix: its message alone, without the "failed:" wrapper. */
function refusing(run: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ReturnType<typeof ok>>) {
  return async (args: Record<string, unknown>, ctx: ToolContext) => {
    try {
      return await run(args, ctx);
    } catch (error) {
      if (error instanceof TimerError) return fail(error.message);
      throw error;
    }
  };
}

/** An instant as ISO 8601 (UTC) with how far away it is. */
export function when(at: Date | null, now: Date = new Date()): string {
  if (!at) return 'never (the expression matches no later time)';
  const seconds = Math.max(0, Math.round((at.getTime() - now.getTime()) / 1000));
  const span = seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : seconds < 172800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86400)} days`;
  return `${at.toISOString()} (in ${span})`;
}

/** Claude Code reads "true"/"false" strings as booleans (its semanticBoolean); so does rig. */
function flag(args: Record<string, unknown>, name: string): boolean | undefined {
  const value = args[name];
  if (value === 'true' || value === 'false') return value === 'true';
  return boolArg(args, name);
}

function delayArg(args: Record<string, unknown>): number | undefined {
  const value = args['delaySeconds'] ?? args['delay_seconds'];
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return numberArg(args, 'delaySeconds', 'delay_seconds');
}

function shortPrompt(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

export function createCronCreateTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'Schedule a prompt on a 5-field cron expression (local time).',
      parameters: { type: 'object', properties: { cron: { type: 'string' }, prompt: { type: 'string' }, recurring: { type: 'boolean' } }, required: ['cron', 'prompt'] },
      parallelSafe: true,
    },
    refusing(async (args, ctx) => {
      const cron = stringArg(args, 'cron');
      const prompt = stringArg(args, 'prompt');
      if (cron === undefined || cron.trim() === '') return fail(`${tool.name}: give cron, a 5-field expression "minute hour day-of-month month day-of-week" in local time`);
      if (prompt === undefined || prompt.trim() === '') return fail(`${tool.name}: give prompt, the message to send each time the job fires`);
      const recurring = flag(args, 'recurring') ?? true;
      const scheduler = timers(ctx);
      const job = await scheduler.createCron({ cron, prompt, recurring });
      if (style === 'kimi') return ok(['Scheduled cron job.', ...kimiRecord(job)].join('\n'));
      const lifetime = recurring
        ? `It fires on every match until deleted, and expires after ${scheduler.limits.recurringMaxAgeDays} days.`
        : 'It fires once, then is deleted.';
      const durable = flag(args, 'durable') === true ? ' durable is not supported: rig keeps the job in this session only.' : '';
      return ok(
        `Scheduled ${recurring ? 'recurring' : 'one-shot'} job ${job.id} (${job.cron}). Next fire: ${when(job.nextFireAt)}. ${lifetime} ` +
          `The job lives in this session only (nothing is written to disk) and stops when rig exits; each fire sends its prompt as a new user message, after the running turn if one is running. Cancel it with ${deleteName(tool)} id "${job.id}".${durable}`,
      );
    }),
  );
}

function deleteName(tool: ResolvedTool): string {
  return tool.name.replace(/Create$/, 'Delete');
}

export function createCronDeleteTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'Cancel a scheduled prompt by id.',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      parallelSafe: true,
    },
    refusing(async (args, ctx) => {
      const id = stringArg(args, 'id', 'job_id');
      if (id === undefined || id.trim() === '') return fail(`${tool.name}: give id, the job id CronCreate answered with (the list tool shows them)`);
      const removed = timers(ctx).delete(id);
      if (!removed) {
        const known = timers(ctx).list().map((job) => job.id);
        return fail(`no scheduled job has id "${id.trim()}"; ${known.length > 0 ? `the pending jobs are ${known.join(', ')}` : 'nothing is scheduled'}`);
      }
      if (style === 'kimi') return ok(`Deleted cron job ${removed.id}.`);
      return ok(`Cancelled job ${removed.id} (${removed.cron ?? 'wake-up'}): it will not fire again.`);
    }),
  );
}

export function createCronListTool(tool: ResolvedTool): ToolSpec {
  const style = styleOption<Style>(tool, STYLES, 'claude');
  return functionSpec(
    tool,
    {
      description: 'List scheduled prompts.',
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
    },
    refusing(async (_args, ctx) => {
      const jobs = timers(ctx).list();
      if (style === 'kimi') {
        const crons = jobs.filter((job) => job.kind === 'cron');
        if (crons.length === 0) return ok('cron_jobs: 0\nNo cron jobs scheduled.');
        return ok([`cron_jobs: ${crons.length}`, crons.map((job) => kimiRecord(job).join('\n')).join('\n---\n')].join('\n'));
      }
      if (jobs.length === 0) return ok('No scheduled jobs.');
      const now = new Date();
      const lines = jobs.map((job) => {
        const what = job.kind === 'wakeup' ? `wake-up${job.reason ? ` (${shortPrompt(job.reason)})` : ''}` : `${job.cron} ${job.recurring ? 'recurring' : 'one-shot'}`;
        return `${job.id}  ${what}  next: ${when(job.nextFireAt, now)}  prompt: ${shortPrompt(job.prompt)}`;
      });
      return ok(`${jobs.length} scheduled job${jobs.length === 1 ? '' : 's'} (session-only):\n${lines.join('\n')}`);
    }),
  );
}

function kimiRecord(job: ScheduledJob): string[] {
  const ageDays = (Date.now() - job.createdAt.getTime()) / 86_400_000;
  return [
    `id: ${job.id}`,
    `cron: ${job.cron ?? ''}`,
    `prompt: ${shortPrompt(job.prompt)}`,
    `nextFireAt: ${job.nextFireAt ? job.nextFireAt.toISOString() : 'null'}`,
    `recurring: ${job.recurring}`,
    `ageDays: ${ageDays.toFixed(2)}`,
  ];
}

export function createScheduleWakeupTool(tool: ResolvedTool): ToolSpec {
  return functionSpec(
    tool,
    {
      description: 'Schedule the next step of a self-paced loop.',
      parameters: { type: 'object', properties: { delaySeconds: { type: 'number' }, reason: { type: 'string' }, prompt: { type: 'string' } } },
      parallelSafe: false,
    },
    refusing(async (args, ctx) => {
      const scheduler = timers(ctx);
      if (flag(args, 'stop') === true) {
        const cancelled = scheduler.cancelWakeup();
        return ok(cancelled ? `Loop stopped: wake-up ${cancelled.id} is cancelled and nothing else is scheduled.` : 'Loop stopped: no wake-up was pending.');
      }
      if (flag(args, 'noop') === true) {
        const pending = scheduler.list().find((job) => job.kind === 'wakeup');
        return ok(pending ? `Nothing changed: wake-up ${pending.id} still fires at ${when(pending.nextFireAt)}.` : 'Nothing changed: no wake-up is pending.');
      }
      const prompt = stringArg(args, 'prompt');
      if (prompt === undefined || prompt.trim() === '') return fail(`${tool.name}: give prompt, the message to send when the wake-up fires (or stop: true to end the loop)`);
      const delay = delayArg(args);
      if (delay === undefined) return fail(`${tool.name}: give delaySeconds, how long to wait (${scheduler.limits.minWakeupSeconds} to ${scheduler.limits.maxWakeupSeconds} seconds)`);
      const reason = stringArg(args, 'reason');
      const job = scheduler.scheduleWakeup({ delaySeconds: delay, prompt, ...(reason ? { reason } : {}) });
      const waits = Math.round((job.nextFireAt!.getTime() - job.createdAt.getTime()) / 1000);
      const clamped = waits !== job.requestedSeconds ? `; ${job.requestedSeconds} s was asked, and a wake-up waits ${scheduler.limits.minWakeupSeconds} to ${scheduler.limits.maxWakeupSeconds} s` : '';
      return ok(
        `Wake-up ${job.id} scheduled in ${waits} s, at ${job.nextFireAt!.toISOString()}${clamped}. Then the prompt arrives as a new user message (after the running turn, if one is running). ` +
          `It lives in this session only. Calling ${tool.name} again replaces it; stop: true cancels it.`,
      );
    }),
  );
}

export function timerCapabilities(): [string, ToolFactory<ToolSpec>][] {
  return [
    ['timers.cron_create', createCronCreateTool],
    ['timers.cron_delete', createCronDeleteTool],
    ['timers.cron_list', createCronListTool],
    ['timers.wakeup', createScheduleWakeupTool],
  ];
}

/** The capabilities above: a session that cannot keep timers (rig exec) leaves all of them out. */
export const TIMER_CAPABILITY_IDS = ['timers.cron_create', 'timers.cron_delete', 'timers.cron_list', 'timers.wakeup'] as const;
