// The job table over a real unified-exec manager (real processes): a wait for a pattern ends when
// the pattern appears, not at the deadline; a read after an interrupt finds the job still running;
// a job that prints megabytes keeps a bounded head and tail; little-coder's output format.
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnifiedExecManager } from '../../../src/exec/unified-exec.js';
import type { ExecOutcome, ToolContext } from '../../../src/tools/spec.js';
import { JOB_OUTPUT_MAX_BYTES, findJob, killJob, pollJob, startJob, takeUnread } from '../../../src/tools/jobs/table.js';
import { formatSessionOutput } from '../../../src/tools/jobs/shell-session.js';

const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'rig-jobs-')));
const managers: UnifiedExecManager[] = [];

function outcome(result: Awaited<ReturnType<UnifiedExecManager['execCommand']>>): ExecOutcome {
  return {
    exitCode: result.exitCode,
    output: result.output,
    totalBytes: result.totalBytes,
    wallTimeMs: result.wallTimeMs,
    timedOut: false,
    ...(result.sessionId !== undefined ? { sessionId: result.sessionId } : {}),
  };
}

/** A ToolContext whose capabilities are a real manager's sessions (no sandbox: the commands only print). */
function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  const manager = new UnifiedExecManager({ shell: { path: '/bin/sh', kind: 'sh' } });
  managers.push(manager);
  return {
    cwd,
    threadId: 't',
    signal,
    threadState: new Map(),
    emitItem: () => {},
    newItemId: () => 'i',
    caps: {
      exec: async (request) => outcome(await manager.execCommand({ cmd: request.command, cwd: request.cwd, yieldTimeMs: request.yieldTimeMs ?? 250 })),
      writeStdin: async (sessionId, chars, yieldTimeMs) => outcome(await manager.writeStdin({ sessionId, chars, yieldTimeMs })),
      readSession: async (sessionId, read) => outcome(await manager.readSession({ sessionId, ...read, signal })),
      closeSession: (sessionId) => manager.closeSession(sessionId),
      applyChanges: async () => ({ ok: false, message: 'unused' }),
      updatePlan: () => {},
      attachImage: () => {},
      canWrite: () => false,
    },
  };
}

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.closeAll()));
});

describe('job table', () => {
  it('a wait for a pattern returns when it appears, long before the deadline', async () => {
    const ctx = context();
    const start = await startJob(ctx, { command: 'sleep 1.5; echo server READY on 8080; sleep 30', cwd }, (id) => `job_${id}`);
    if (!('started' in start)) throw new Error('the job ended at once');
    const job = start.started;
    const before = Date.now();
    await pollJob(ctx, job, 20_000, /READY on \d+/);
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(takeUnread(job)).toContain('server READY on 8080');
    expect(job.done).toBe(false);
    await killJob(ctx, job);
    expect(job.killed).toBe(true);
    expect(findJob(ctx, job.id)).toBe(job);
  });

  it('an interrupted wait returns at once and leaves the job running', async () => {
    const controller = new AbortController();
    const ctx = context(controller.signal);
    const start = await startJob(ctx, { command: 'while true; do echo beat; sleep 0.1; done', cwd }, (id) => `job_${id}`);
    if (!('started' in start)) throw new Error('the job ended at once');
    const before = Date.now();
    const waiting = pollJob(ctx, start.started, 20_000);
    setTimeout(() => controller.abort(), 300);
    await waiting;
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(start.started.done).toBe(false);
    const ctxAfter = { ...ctx, signal: new AbortController().signal };
    await pollJob(ctxAfter, start.started, 0);
    expect(start.started.done).toBe(false);
    await killJob(ctxAfter, start.started);
  });

  it('a job printing 8 MiB keeps a bounded head and tail', async () => {
    const ctx = context();
    // Slow enough to outlive the start's wait, then a burst far past the bound.
    const start = await startJob(ctx, { command: 'echo FIRST; sleep 1.2; head -c 8388608 /dev/zero | tr "\\0" x; echo; echo LAST', cwd }, (id) => `job_${id}`);
    if (!('started' in start)) throw new Error('the job ended at once');
    const job = start.started;
    while (!job.done) await pollJob(ctx, job, 5000);
    expect(job.exitCode).toBe(0);
    expect(job.output.retainedBytes).toBeLessThanOrEqual(JOB_OUTPUT_MAX_BYTES);
    const text = job.output.toString();
    expect(text.startsWith('FIRST\n')).toBe(true);
    expect(text.endsWith('LAST\n')).toBe(true);
    expect(text).toMatch(/bytes omitted/);
  });
});

describe("little-coder's session output", () => {
  it('collapses repeated lines, caps at 200 lines as head 100 + tail 50, and ends with the footer', () => {
    expect(formatSessionOutput('a\na\na\nb', 0, '/w', false)).toBe('a\n  [... 2 duplicate line(s) collapsed ...]\nb\n[exit=0 cwd=/w timed_out=false]');
    const many = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
    const lines = formatSessionOutput(many, 1, '/w', true).split('\n');
    expect(lines).toHaveLength(152);
    expect(lines[100]).toBe('  [... 150 lines truncated ...]');
    expect(lines.at(-2)).toBe('line 299');
    expect(lines.at(-1)).toBe('[exit=1 cwd=/w timed_out=true output_truncated=true]');
    expect(formatSessionOutput('\u001b[31mred\u001b[0m\r', 0, '/w', false)).toBe('red\n[exit=0 cwd=/w timed_out=false]');
    expect(formatSessionOutput('', 2, '/w', false)).toBe('[exit=2 cwd=/w timed_out=false]');
  });
});
