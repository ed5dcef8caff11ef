// `rig resume` on a real terminal (a PTY) while a turn runs a sandboxed command: Ctrl-C interrupts
// the turn and kills bwrap, bash and sleep; closing the terminal (SIGHUP to rig as session leader, or
// only EIO when someone else leads the session) is an interrupt too, after which rig exits 129 with
// its rollout intact instead of aborting in Node's terminal reset.
import type { IPty } from '@lydell/node-pty';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parseRollout, scanRolloutFiles } from '../../../src/store/index.js';
import type { MockProvider } from '../../support/mock-provider/index.js';
import { useSeededThread } from '../../support/seeded-thread.js';
import { RIG_BIN, removeDir, tempDir } from '../../support/workspace.js';
import { membersOf, processGroupsWith, waitUntil } from '../exec/helpers.js';
import { openTerminal as openTerminalIn, type Terminal } from './pty.js';

let mock: MockProvider;
let home: string;
let repo: string;
let threadId: string;

useSeededThread((seeded) => ({ mock, home, repo, threadId } = seeded));

function openTerminal(file: string, args: string[]): Terminal {
  return openTerminalIn(file, args, { cwd: repo, home });
}

/** Resume the thread on a terminal and start a turn whose command sleeps; resolves once it runs. */
async function startSleepingTurn(marker: string, launch: (args: string[]) => Terminal): Promise<{ terminal: Terminal; groups: number[] }> {
  mock.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo started; sleep 30 # ${marker}`, yield_time_ms: 30_000 } }] });
  const terminal = launch([RIG_BIN, 'resume', '--lines', threadId]);
  await terminal.waitFor('› ');
  terminal.term.write('run the sleeper\r');
  // bwrap, its inner init, the shell and sleep: the whole tree is up.
  await waitUntil(() => membersOf(processGroupsWith(marker)).length >= 3, 15_000, 'the sandboxed command to start');
  return { terminal, groups: processGroupsWith(marker) };
}

/** Close the terminal's master side, as a terminal emulator does when its window closes. */
function closeTerminal(term: IPty): void {
  // node-pty's terminal objects have destroy(); its IPty interface does not declare it.
  (term as IPty & { destroy(): void }).destroy();
}

function lastRecordOfRollout(): { type: string; payload: { type?: string } } {
  const read = parseRollout(readFileSync(scanRolloutFiles(home).get(threadId)!.path, 'utf8'));
  expect(read.warnings).toEqual([]);
  return read.records.at(-1) as never;
}

test('Ctrl-C interrupts the turn and kills bwrap, bash and sleep before the prompt returns', async () => {
  const marker = `rig-repl-ctrlc-${process.pid}-${Date.now()}`;
  const { terminal, groups } = await startSleepingTurn(marker, (args) => openTerminal(process.execPath, args));
  terminal.term.write('\x03');
  await terminal.waitFor('(turn interrupted)');
  // Interrupting waits for the command's group to be gone: nothing runs on behind the prompt.
  expect(membersOf(groups)).toEqual([]);
  terminal.term.write('\x04');
  expect((await terminal.exited).signal ?? 0).toBe(0);
  expect(lastRecordOfRollout().payload.type).toBe('turn_aborted');
}, 40_000);

test('closing the terminal mid-turn (SIGHUP) interrupts, kills the command and exits 129', async () => {
  const marker = `rig-repl-hup-${process.pid}-${Date.now()}`;
  const { terminal, groups } = await startSleepingTurn(marker, (args) => openTerminal(process.execPath, args));
  closeTerminal(terminal.term);
  expect(await terminal.exited).toEqual({ exitCode: 129, signal: 0 });
  await waitUntil(() => membersOf(groups).length === 0, 5_000, 'the command to be killed');
  expect(lastRecordOfRollout().payload.type).toBe('turn_aborted');
}, 40_000);

test('a terminal that only answers EIO (rig not the session leader) ends the session the same way', async () => {
  const marker = `rig-repl-eio-${process.pid}-${Date.now()}`;
  const dir = tempDir('eio');
  const status = join(dir, 'status');
  // The shell leads the session and ignores SIGHUP, so rig itself sees only EIO on the terminal.
  const { terminal, groups } = await startSleepingTurn(marker, (args) =>
    openTerminal('/bin/sh', ['-c', `trap '' HUP; '${process.execPath}' "$@"; echo $? > '${status}'`, 'sh', ...args]),
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
