import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_BLOCKS_TMUX, createTmuxTool, terminalObservation, tmuxArgv, tmuxSessionName, tmuxScript } from '../../../src/tools/harness/terminal.js';
import { bound } from './bind.js';
import { call, fakeContext } from './fake-context.js';

const sessions: string[] = [];

afterAll(() => {
  for (const session of sessions) {
    try {
      execFileSync('tmux', tmuxArgv(session, 'kill-server').slice(1), { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
});

describe('terminal observation', () => {
  it('shows only what was added when the history grew, else the screen', () => {
    expect(terminalObservation('a\nb\n', 'a\nb\nc\n', 'screen')).toBe('New Terminal Output:\nc');
    expect(terminalObservation(undefined, 'a', 'screen\n\n')).toBe('Current Terminal Screen:\nscreen');
    expect(terminalObservation('x', 'cleared', 'cleared')).toBe('Current Terminal Screen:\ncleared');
  });

  it('sends special keys by name and text through the paste buffer', () => {
    const script = tmuxScript('s1', '/w', [{ keystrokes: 'C-c', duration: 0 }, { keystrokes: "echo 'hi'\n", duration: 0.5 }]);
    expect(script).toContain("tmux -L 's1' -f /dev/null send-keys -t 's1' C-c");
    expect(script).toContain(`printf %s '${Buffer.from("echo 'hi'\n").toString('base64')}' | base64 -d`);
    expect(script).toContain('sleep 0.5');
    // The paste buffer is named after the session: buffers are shared by every session of the server.
    expect(script).toContain("tmux -L 's1' -f /dev/null load-buffer -b 'rig-keys-s1' \"$keys\"");
    expect(script).toContain("tmux -L 's1' -f /dev/null paste-buffer -d -b 'rig-keys-s1' -t 's1'");
  });

  it('threads typing at once each get their own keys', async () => {
    const contexts = [0, 1, 2].map((n) => {
      const ctx = fakeContext();
      ctx.threadId = `test-${process.pid}-${Date.now()}-pair-${n}`;
      sessions.push(tmuxSessionName(ctx.threadId));
      return ctx;
    });
    const keystrokes = bound('terminus-2').byName.get('keystrokes');
    // A first look, so that the next output is the new history rather than the 40-line screen.
    await Promise.all(contexts.map((ctx) => call(keystrokes, { commands: [] }, ctx)));
    const burst = (n: number) => Array.from({ length: 25 }, (_, k) => ({ keystrokes: `echo t${n}-k${k}\n`, duration: k === 24 ? 1 : 0 }));
    const results = await Promise.all(contexts.map((ctx, n) => call(keystrokes, { commands: burst(n) }, ctx)));
    results.forEach((result, n) => {
      for (let k = 0; k < 25; k++) expect(result.text).toContain(`t${n}-k${k}\n`);
      for (const other of [0, 1, 2].filter((m) => m !== n)) expect(result.text).not.toContain(`t${other}-k`);
    });
  });
});

describe('terminus-2 keystrokes on a real tmux session', () => {
  it('runs commands in one session per thread and reports new output', async () => {
    const ctx = fakeContext();
    ctx.threadId = `test-${process.pid}-${Date.now()}`;
    sessions.push(tmuxSessionName(ctx.threadId));
    const keystrokes = bound('terminus-2').byName.get('keystrokes');
    const first = await call(keystrokes, { commands: [{ keystrokes: 'export RIGVAR=kept; echo first-$RIGVAR\n', duration: 0.5 }] }, ctx);
    expect(first.success).toBe(true);
    expect(first.text.startsWith('Current Terminal Screen:\n')).toBe(true);
    expect(first.text).toContain('first-kept');
    const second = await call(keystrokes, { commands: [{ keystrokes: 'echo second-$RIGVAR\n', duration: 0.5 }] }, ctx);
    expect(second.text.startsWith('New Terminal Output:\n')).toBe(true);
    expect(second.text).toContain('second-kept');
    expect(second.text).not.toContain('first-kept');
    expect(ctx.execCalls[0]?.timeoutMs).toBe(10_000 + 500 + 8_000 + 3_000);
  });

  it('an empty first call shows the fresh screen; the completion check and warnings wrap the output', async () => {
    const ctx = fakeContext();
    ctx.threadId = `test-${process.pid}-${Date.now()}-check`;
    sessions.push(tmuxSessionName(ctx.threadId));
    const keystrokes = bound('terminus-2').byName.get('keystrokes');
    const first = await call(keystrokes, { commands: [] }, ctx);
    // The prompt is drawn before the screen is read: the shell's `user@rig:<cwd>$` (`#` for root).
    expect(first.text).toMatch(new RegExp(`^Current Terminal Screen:\\n\\S+@rig:${ctx.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[$#]$`));
    const warned = await call(keystrokes, { commands: [{ keystrokes: 'echo w\n', duration: 0.3 }], warnings: ['Extra text detected after JSON object'] }, ctx);
    expect(warned.text.startsWith('Previous response had warnings:\nWARNINGS: - Extra text detected after JSON object\n\nNew Terminal Output:\n')).toBe(true);
    const check = await call(keystrokes, { commands: [{ keystrokes: 'echo done\n', duration: 0.3 }], confirm_completion: true }, ctx);
    expect(check.text.startsWith('Current terminal state:\nNew Terminal Output:\n')).toBe(true);
    expect(check.text).toContain('done');
    expect(check.text).toContain('\n\nAre you sure you want to mark the task as complete?');
    expect(check.text).toContain('"task_complete": true');
  });

  it('rejects malformed commands without touching tmux', async () => {
    const ctx = fakeContext();
    expect((await call(bound('terminus-2').byName.get('keystrokes'), { commands: [{ duration: 1 }] }, ctx)).success).toBe(false);
    expect(ctx.execCalls).toEqual([]);
  });
});

describe('terminal under a sandbox that blocks sockets', () => {
  it('says why the terminal cannot start and how to run it', async () => {
    const ctx = fakeContext({
      exec: () => ({ exitCode: 1, output: 'error connecting to /tmp/tmux-0/default (Operation not permitted)\n', totalBytes: 0, wallTimeMs: 1, timedOut: false }),
    });
    const tool = createTmuxTool({ name: 'keystrokes', capability: 'terminal.tmux', options: {}, exposure: 'hidden', extras: {}, at: 'tools[0]' });
    expect(await call(tool, { commands: [{ keystrokes: 'ls\n', duration: 0 }] }, ctx)).toEqual({ success: false, text: SANDBOX_BLOCKS_TMUX });
  });
});
