// A ProcessScope owns what one thread started: closing it takes down its groups and the processes
// that left them (setsid) but carry its marker, and leaves other scopes' processes alone.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/exec/spawn.js';
import { ProcessScope, processesWithMarker } from '../../src/exec/process-groups.js';

const cwd = mkdtempSync(join(tmpdir(), 'rig-exec-scope-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pids: number[], withinMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (pids.every((pid) => !alive(pid) || isZombie(pid))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A zombie (dead, not yet reaped by its new parent) still answers kill(0). */
function isZombie(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return true;
  }
}

describe.skipIf(process.platform !== 'linux')('ProcessScope markers', () => {
  it('close() kills a setsid child that left the group, found by its marker', async () => {
    const marker = { name: 'RIG_PROCESS_SCOPE', value: `scope-test-${process.pid}-${Date.now()}` };
    const scope = new ProcessScope(marker);
    const other = new ProcessScope({ name: 'RIG_PROCESS_SCOPE', value: `${marker.value}-other` });
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [marker.name]: marker.value };
    const otherEnv = { ...env, [marker.name]: `${marker.value}-other` };
    // setsid detaches the sleeper from the command's group; the command itself exits at once.
    const run = await runProcess({ argv: ['sh', '-c', 'setsid sleep 100 >/dev/null 2>&1 & echo $!'], cwd, env, scope, drainTimeoutMs: 100 });
    const keep = await runProcess({ argv: ['sh', '-c', 'setsid sleep 100 >/dev/null 2>&1 & echo $!'], cwd, env: otherEnv, scope: other, drainTimeoutMs: 100 });
    expect(run.exitCode).toBe(0);
    const escaped = processesWithMarker(marker);
    expect(escaped.length).toBeGreaterThanOrEqual(1);
    await scope.close(100);
    expect(await gone(escaped)).toBe(true);
    // The other scope's sleeper runs on until its own scope closes.
    const theirs = processesWithMarker(other.marker!);
    expect(theirs.length).toBeGreaterThanOrEqual(1);
    expect(theirs.every(alive)).toBe(true);
    expect(keep.exitCode).toBe(0);
    await other.close(100);
    expect(await gone(theirs)).toBe(true);
  });
});
