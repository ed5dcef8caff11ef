// The interactive session (`rig resume ID` on a PTY, the real CLI) losing its terminal mid-turn:
// the window closes (SIGHUP to rig as the session leader) or only EIO comes back (someone else
// leads the session). Either way the turn is interrupted, its sandboxed command's process group is
// killed, the rollout ends with the interruption, and rig exits 129.
import type { IPty } from '@lydell/node-pty';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parseRollout, scanRolloutFiles } from '../../../src/store/index.js';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { useSeededThread } from '../../support/seeded-thread.js';
import { RIG_BIN, removeDir, tempDir } from '../../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../exec/helpers.js';
import { openTerminal, type Terminal } from '../repl/pty.js';

let mock: MockProvider;
let home: string;
let repo: string;
let threadId: string;

useSeededThread((seeded) => ({ mock, home, repo, threadId } = seeded));

/** The TUI on the thread, a turn whose sandboxed command sleeps; resolves once it runs. */
async function startSleepingTurn(marker: string, launch: (args: string[]) => Terminal): Promise<{ terminal: Terminal; groups: number[] }> {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo started; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] });
  const terminal = launch([RIG_BIN, 'resume', threadId, '-s', 'workspace-write', '-a', 'never']);
  await terminal.waitFor('ready when you are');
  terminal.term.write('run the sleeper\r');
  await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 3, 15_000, 'the sandboxed command to start');
  return { terminal, groups: processGroupsWith(marker) };
}

function closeTerminal(term: IPty): void {
  (term as IPty & { destroy(): void }).destroy();
}

function lastRecordOfRollout(): { type: string; payload: { type?: string } } {
  const read = parseRollout(readFileSync(scanRolloutFiles(home).get(threadId)!.path, 'utf8'));
  expect(read.warnings).toEqual([]);
  return read.records.at(-1) as never;
}

test('closing the terminal mid-turn (SIGHUP) interrupts, kills the command, saves the thread and exits 129', async () => {
  const marker = `rig-tui-hup-${process.pid}-${Date.now()}`;
  const { terminal, groups } = await startSleepingTurn(marker, (args) => openTerminal(process.execPath, args, { cwd: repo, home }));
  closeTerminal(terminal.term);
  expect(await terminal.exited).toEqual({ exitCode: 129, signal: 0 });
  await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
  expect(lastRecordOfRollout().payload.type).toBe('turn_aborted');
}, 40_000);

test('a terminal that only answers EIO ends the session the same way', async () => {
  const marker = `rig-tui-eio-${process.pid}-${Date.now()}`;
  const dir = tempDir('eio');
  const status = join(dir, 'status');
  const { terminal, groups } = await startSleepingTurn(marker, (args) =>
    openTerminal('/bin/sh', ['-c', `trap '' HUP; '${process.execPath}' "$@"; echo $? > '${status}'`, 'sh', ...args], { cwd: repo, home }),
  );
  closeTerminal(terminal.term);
  await waitUntil(() => {
    try {
      return readFileSync(status, 'utf8').trim() !== '';
    } catch {
      return false;
    }
  }, 15_000, 'rig to exit and the shell to record its status');
  expect(readFileSync(status, 'utf8').trim()).toBe('129');
  await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
  expect(lastRecordOfRollout().payload.type).toBe('turn_aborted');
  removeDir(dir);
}, 40_000);
