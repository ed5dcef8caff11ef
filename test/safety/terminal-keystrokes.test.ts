// Terminus 2 types into a tmux pane; the driver script that does it only moves bytes, so the policy
// must judge what the keystrokes amount to. Through the real CLI under danger-full-access (tmux
// needs its socket): under `-a never` every rm -rf variant of the corpus typed as keystrokes (whole,
// split over several keystroke entries, ended by the Enter key or abandoned with C-c) is declined
// and its target survives; under `-a untrusted` a plain `ls` still runs without asking. Targets are
// directories in the test's temp dir, so a command that got through would only remove those.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockTurn } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { RM_VARIANTS, fill } from '../policy/classifier-corpus.js';
import { tmuxSessionName, typedShellText } from '../../src/tools/harness/terminal.js';

let mock: MockProvider;
let home = '';
let ws = '';
let attempts = 0;
let blocked = 0;
const threads: string[] = [];

type Keys = { keystrokes: string; duration?: number }[];

const screen = (analysis: string, commands: Keys, complete = false): MockTurn => ({
  text: JSON.stringify({ analysis, plan: analysis, commands, ...(complete ? { task_complete: true } : {}) }, null, 2),
});

beforeAll(async () => {
  mock = await startMockProvider();
  home = tempRigHome({ url: mock.url });
  ws = fs.realpathSync(tempDir('terminal-keys'));
  spawnSync('git', ['init', '-q', ws]);
});

afterAll(async () => {
  for (const thread of threads) spawnSync('tmux', ['kill-session', '-t', tmuxSessionName(thread)], { stdio: 'ignore' });
  await mock?.close();
  if (home) removeDir(home);
  if (ws) removeDir(ws);
  console.log(`safety terminal keystroke suite (real CLI): ${attempts} attempts, ${blocked} blocked`);
  expect(attempts).toBeGreaterThanOrEqual(20);
  expect(blocked).toBe(attempts);
});

/** One `rig exec --json` run of Terminus 2 that sends these keystroke batches, one per reply. */
async function session(policy: 'never' | 'untrusted', batches: Keys[]) {
  mock.enqueue(
    ...batches.map((commands, index) => screen(`step ${index + 1}`, commands)),
    screen('done', [], true),
    screen('done', [], true),
  );
  const run = await runRig(['exec', '--json', '--harness', 'terminus-2', '-s', 'danger-full-access', '-a', policy, 'tidy up'], { cwd: ws, home });
  expect(run.code, run.stderr).toBe(0);
  const events = jsonLines(run.stdout);
  const started = events.find((event) => event['type'] === 'thread.started');
  if (started) threads.push(String(started['thread_id']));
  return events
    .filter((event) => event['type'] === 'item.completed')
    .map((event) => event['item'] as { type: string; status: string; command: string; aggregated_output: string })
    .filter((item) => item.type === 'command_execution')
    // The driver's own screen captures (before the first reply, at the completion check) type nothing.
    .filter((item) => item.command !== '');
}

describe('typedShellText', () => {
  it('joins the typed text, with line ends where Enter, C-c or C-d end a line', () => {
    expect(typedShellText([{ keystrokes: 'rm -r', duration: 0 }, { keystrokes: 'f x', duration: 0 }, { keystrokes: 'Enter', duration: 0 }])).toBe('rm -rf x\n');
    expect(typedShellText([{ keystrokes: 'rm -rf x', duration: 0 }, { keystrokes: 'C-c', duration: 0 }, { keystrokes: 'ls\n', duration: 0 }])).toBe('rm -rf x\nls\n');
    expect(typedShellText([{ keystrokes: 'Up', duration: 0 }, { keystrokes: 'Escape', duration: 0 }])).toBe('');
  });
});

describe('Terminus 2 keystrokes are judged as the commands they type', () => {
  it('under -a never, every rm -rf variant typed into the pane is declined and its target survives', async () => {
    const victims = RM_VARIANTS.map((_, i) => path.join(ws, `victim-${i}`));
    for (const victim of victims) {
      fs.mkdirSync(victim);
      fs.writeFileSync(path.join(victim, 'precious.txt'), 'keep\n');
    }
    const batches: Keys[] = RM_VARIANTS.map((template, i) => {
      const command = fill(template, victims[i]!);
      // Alternate the ways a line reaches the shell: whole, split with the Enter key, typed then C-c.
      if (i % 3 === 1) return [{ keystrokes: command.slice(0, 4), duration: 0.05 }, { keystrokes: command.slice(4), duration: 0.05 }, { keystrokes: 'Enter', duration: 0.1 }];
      if (i % 3 === 2) return [{ keystrokes: command, duration: 0.05 }, { keystrokes: 'C-c', duration: 0.1 }];
      return [{ keystrokes: `${command}\n`, duration: 0.1 }];
    });
    const items = await session('never', [...batches, [{ keystrokes: 'touch ran-under-never\n', duration: 0.3 }]]);
    expect(items).toHaveLength(batches.length + 1);
    for (const item of items.slice(0, -1)) {
      attempts++;
      expect(item.status, item.command).toBe('declined');
      blocked++;
    }
    expect(items.at(-1)?.status).toBe('completed');
    for (const victim of victims) expect(fs.readFileSync(path.join(victim, 'precious.txt'), 'utf8'), victim).toBe('keep\n');
  }, 120_000);

  it('under -a untrusted, the refusal names the typed command as the one that needed approval', async () => {
    const victim = path.join(ws, 'untrusted-victim');
    fs.mkdirSync(victim);
    const items = await session('untrusted', [[{ keystrokes: `rm -rf ${victim}`, duration: 0.1 }, { keystrokes: 'Enter', duration: 0.2 }]]);
    expect(items.map((item) => item.status)).toEqual(['declined']);
    attempts++;
    expect(items[0]!.aggregated_output).toContain(`bash -c 'rm -rf ${victim}\n'`);
    expect(items[0]!.aggregated_output).toMatch(/potentially destructive/);
    blocked++;
    expect(fs.existsSync(victim)).toBe(true);
  }, 60_000);
});
