// A command can run before its spawner registers its process group (spawn returns after exec). If
// rig is SIGKILLed in that window, the watchdog takes the command down only if it was started, and
// told the scope's marker, before the spawn: ProcessScope.arm(). The unarmed case shows the window.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../support/workspace.js';

let dir: string;
let script: string;
const leftovers: number[] = [];

beforeAll(async () => {
  dir = tempDir('watchdog-arm');
  script = join(dir, 'child.mjs');
  await build({ entryPoints: [join(import.meta.dirname, 'fixtures', 'armed-scope-child.ts')], bundle: true, platform: 'node', format: 'esm', outfile: script, logLevel: 'silent' });
});

afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeDir(dir);
});

function running(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** Starts the child, waits for the pid of the command it started, SIGKILLs it; returns that pid. */
async function killBeforeRegistering(mode: 'armed' | 'unarmed'): Promise<number> {
  const child = spawn(process.execPath, [script, `watchdog-arm-${process.pid}-${Date.now()}-${mode}`, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.endsWith('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', () => reject(new Error(`the child exited before starting its command: ${out}`)));
  });
  leftovers.push(pid);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return pid;
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe.skipIf(process.platform !== 'linux')('the watchdog is armed before a spawn', () => {
  test('a command whose group was never registered is taken down by its marker when rig is SIGKILLed', async () => {
    const pid = await killBeforeRegistering('armed');
    expect(await goneWithin(pid, 10_000)).toBe(true);
  });

  test('without arming, nothing would: the command outlives the killed process', async () => {
    const pid = await killBeforeRegistering('unarmed');
    // The armed watchdog sweeps within ~0.3 s; a second is ample to see that none did here.
    expect(await goneWithin(pid, 1_000)).toBe(false);
  });
});
