// runHooks through real child processes: stdin, exit codes, JSON answers, concurrency, timeouts,
// and how several handlers' answers combine.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runHooks, type HookStreamItem } from '../../src/hooks/index.js';
import { removeDir, tempDir } from '../support/workspace.js';
import { context, handler, script } from './helpers.js';

const dirs: string[] = [];
function dir(): string {
  const d = tempDir('hooks');
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const edit = { tool_name: 'Edit', matcher_aliases: ['edit', 'apply_patch'], tool_input: { file_path: '/w/a.txt', old_string: 'a', new_string: 'b' }, tool_use_id: 'toolu_1' };

describe('one handler', () => {
  test('gets the event as JSON on stdin and runs in the session cwd', async () => {
    const d = dir();
    const cmd = script(d, 'record.sh', `cat > "${d}/stdin.json"; pwd > "${d}/cwd.txt"; echo "$CLAUDE_PROJECT_DIR" > "${d}/project.txt"`);
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', cmd)], { projectDir: '/proj' }));
    expect(outcome.blocked).toBe(false);
    const stdin = JSON.parse(readFileSync(join(d, 'stdin.json'), 'utf8'));
    expect(stdin).toEqual({
      session_id: '0190a6f2-0000-7000-8000-000000000001',
      transcript_path: null,
      cwd: d,
      hook_event_name: 'PreToolUse',
      model: 'mock-model',
      permission_mode: 'default',
      turn_id: 'turn-1',
      tool_name: 'Edit',
      tool_input: edit.tool_input,
      tool_use_id: 'toolu_1',
    });
    expect(readFileSync(join(d, 'cwd.txt'), 'utf8').trim()).toBe(d);
    expect(readFileSync(join(d, 'project.txt'), 'utf8').trim()).toBe('/proj');
  });

  test('exit code 2 blocks a tool call with stderr as the reason for the model', async () => {
    const d = dir();
    const cmd = script(d, 'deny.sh', 'cat >/dev/null; echo "protected file: .env" >&2; exit 2');
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', cmd)]));
    expect(outcome).toMatchObject({ blocked: true, reason: 'protected file: .env' });
    expect(outcome.runs[0]).toMatchObject({ status: 'blocked', entries: [{ kind: 'feedback', text: 'protected file: .env' }] });
  });

  test('exit code 2 without stderr still blocks (as Claude Code does), with a generic reason', async () => {
    const d = dir();
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', 'exit 2')]));
    expect(outcome.blocked).toBe(true);
    expect(outcome.reason).toBe('PreToolUse hook exited with code 2 (blocked; it wrote no reason to stderr)');
    expect(outcome.runs[0]?.status).toBe('blocked');
  });

  test('any other exit code fails without blocking', async () => {
    const d = dir();
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', 'echo oops >&2; exit 3')]));
    expect(outcome.blocked).toBe(false);
    expect(outcome.runs[0]).toMatchObject({ status: 'failed', entries: [{ kind: 'error', text: 'hook exited with code 3' }] });
  });

  test('JSON permissionDecision deny blocks; allow with updatedInput rewrites the input', async () => {
    const d = dir();
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits on Fridays"}}'`;
    const denied = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', deny)]));
    expect(denied).toMatchObject({ blocked: true, reason: 'no edits on Fridays', permissionDecision: 'deny' });

    const rewrite = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/w/b.txt","old_string":"a","new_string":"c"}}}'`;
    const rewritten = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', rewrite)]));
    expect(rewritten).toMatchObject({ blocked: false, permissionDecision: 'allow', updatedInput: { file_path: '/w/b.txt', new_string: 'c' } });
  });

  test('updatedInput without a decision is refused (the run fails, nothing is rewritten)', async () => {
    const d = dir();
    const cmd = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -rf /"}}}'`;
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', cmd)]));
    expect(outcome.updatedInput).toBeUndefined();
    expect(outcome.runs[0]?.status).toBe('failed');
  });

  test('a timeout kills the handler and fails the run', async () => {
    const d = dir();
    const outcome = await runHooks('PreToolUse', edit, context(d, [handler('PreToolUse', 'sleep 30', { timeoutSec: 1 })]));
    expect(outcome.runs[0]).toMatchObject({ status: 'failed', entries: [{ kind: 'error', text: 'hook timed out after 1s' }] });
    expect(outcome.runs[0]!.durationMs!).toBeLessThan(10_000);
  });

  test('plain stdout of UserPromptSubmit and SessionStart becomes context; JSON block stops the prompt', async () => {
    const d = dir();
    const ctx = await runHooks('UserPromptSubmit', { prompt: 'hi' }, context(d, [handler('UserPromptSubmit', 'echo "branch: main"')]));
    expect(ctx.additionalContexts).toEqual(['branch: main']);
    const start = await runHooks('SessionStart', { source: 'startup' }, context(d, [handler('SessionStart', 'echo ready', { matcher: 'startup|resume' })]));
    expect(start.additionalContexts).toEqual(['ready']);
    const skipped = await runHooks('SessionStart', { source: 'clear' }, context(d, [handler('SessionStart', 'echo ready', { matcher: 'startup|resume' })]));
    expect(skipped.runs).toEqual([]);
    const blocked = await runHooks('UserPromptSubmit', { prompt: 'x' }, context(d, [handler('UserPromptSubmit', `echo '{"decision":"block","reason":"say please"}'`)]));
    expect(blocked).toMatchObject({ blocked: true, reason: 'say please' });
  });

  test('Stop: a block becomes a continuation prompt; continue:false stops and wins', async () => {
    const d = dir();
    const input = { stop_hook_active: false, last_assistant_message: 'done' };
    const more = await runHooks('Stop', input, context(d, [handler('Stop', 'echo "run the tests first" >&2; exit 2')]));
    expect(more).toMatchObject({ blocked: true, continuation: ['run the tests first'] });
    const both = await runHooks(
      'Stop',
      input,
      context(d, [handler('Stop', `echo '{"decision":"block","reason":"again"}'`), handler('Stop', `echo '{"continue":false,"stopReason":"budget spent"}'`)]),
    );
    expect(both).toMatchObject({ stop: true, stopReason: 'budget spent', continuation: [], blocked: false });
    const text = await runHooks('Stop', input, context(d, [handler('Stop', 'echo not json')]));
    expect(text.runs[0]?.status).toBe('failed');
  });

  test('PostToolUse: a block and exit-2 stderr are feedback for the model; additionalContext is kept', async () => {
    const d = dir();
    const post = { ...edit, tool_response: { success: true } };
    const outcome = await runHooks(
      'PostToolUse',
      post,
      context(d, [
        handler('PostToolUse', `echo '{"decision":"block","reason":"lint failed","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"eslint: 2 errors"}}'`),
        handler('PostToolUse', 'echo "types failed" >&2; exit 2'),
      ]),
    );
    expect(outcome).toMatchObject({ feedback: 'lint failed\n\ntypes failed', additionalContexts: ['eslint: 2 errors'] });
  });

  test('PermissionRequest: deny wins over allow; an allow alone approves', async () => {
    const d = dir();
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`;
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not in CI"}}}'`;
    const input = { tool_name: 'Bash', tool_input: { command: 'make deploy' } };
    const both = await runHooks('PermissionRequest', input, context(d, [handler('PermissionRequest', allow), handler('PermissionRequest', deny)]));
    expect(both.permission).toEqual({ behavior: 'deny', message: 'not in CI' });
    const one = await runHooks('PermissionRequest', input, context(d, [handler('PermissionRequest', allow)]));
    expect(one.permission).toEqual({ behavior: 'allow' });
  });

  test('only matching handlers run, once each even when several alias names match', async () => {
    const d = dir();
    const cmd = script(d, 'count.sh', `cat >/dev/null; echo x >> "${d}/count"`);
    await runHooks(
      'PreToolUse',
      edit,
      context(d, [handler('PreToolUse', cmd, { matcher: 'Edit|edit|apply_patch' }), handler('PreToolUse', cmd, { matcher: 'Bash' })]),
    );
    expect(readFileSync(join(d, 'count'), 'utf8')).toBe('x\n');
  });
});

describe('several handlers', () => {
  test('run at the same time, and are reported in configured order', async () => {
    const d = dir();
    // Each waits (up to 20 s) for the other's marker: run one after the other, both would time out.
    const wait = (mine: string, other: string) =>
      script(d, `${mine}.sh`, `cat >/dev/null; touch "${d}/${mine}"; i=0; while [ ! -e "${d}/${other}" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; [ -e "${d}/${other}" ] && echo "${mine} saw ${other}"`);
    const items: HookStreamItem[] = [];
    const outcome = await runHooks(
      'UserPromptSubmit',
      { prompt: 'go' },
      context(d, [handler('UserPromptSubmit', wait('a', 'b')), handler('UserPromptSubmit', wait('b', 'a'))], { onItem: (i) => items.push(i) }),
    );
    expect(outcome.additionalContexts).toEqual(['a saw b', 'b saw a']);
    expect(items.filter((i) => i.type === 'hook/started')).toHaveLength(2);
    expect(items.filter((i) => i.type === 'hook/completed').map((i) => i.run.status)).toEqual(['completed', 'completed']);
    expect(items[0]).toMatchObject({ type: 'hook/started', threadId: '0190a6f2-0000-7000-8000-000000000001', turnId: 'turn-1', run: { eventName: 'userPromptSubmit', status: 'running', scope: 'turn', handlerType: 'command', executionMode: 'sync' } });
  });

  test('a block from any handler wins, with the first block\'s reason; the last rewrite to finish wins', async () => {
    const d = dir();
    const allow = (cmd: string) => `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"${cmd}"}}}'`;
    const blocked = await runHooks(
      'PreToolUse',
      edit,
      context(d, [handler('PreToolUse', allow('a')), handler('PreToolUse', 'echo first >&2; exit 2'), handler('PreToolUse', 'echo second >&2; exit 2')]),
    );
    expect(blocked).toMatchObject({ blocked: true, reason: 'first', permissionDecision: 'deny' });
    expect(blocked.updatedInput).toBeUndefined();

    // The first configured handler finishes last: it waits until the second one's run completed.
    const slow = script(d, 'slow.sh', `cat >/dev/null; i=0; while [ ! -e "${d}/fast-done" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; ${allow('slow')}`);
    const fast = script(d, 'fast.sh', `cat >/dev/null; ${allow('fast')}`);
    const release = (item: HookStreamItem) => {
      if (item.type === 'hook/completed' && item.run.displayOrder === fastHandler.displayOrder) writeFileSync(join(d, 'fast-done'), '');
    };
    const slowHandler = handler('PreToolUse', slow);
    const fastHandler = handler('PreToolUse', fast);
    const rewritten = await runHooks('PreToolUse', edit, context(d, [slowHandler, fastHandler], { onItem: release }));
    expect(rewritten.updatedInput).toEqual({ command: 'slow' });
    expect(existsSync(join(d, 'fast-done'))).toBe(true);
  });

  test('async handlers are not awaited and cannot block', async () => {
    const d = dir();
    const items: HookStreamItem[] = [];
    let asyncDone!: () => void;
    const finished = new Promise<void>((resolve) => (asyncDone = resolve));
    const outcome = await runHooks(
      'PreToolUse',
      edit,
      context(d, [handler('PreToolUse', `echo nope >&2; exit 2`, { async: true })], {
        onItem: (i) => {
          items.push(i);
          if (i.type === 'hook/completed') asyncDone();
        },
      }),
    );
    expect(outcome.blocked).toBe(false);
    expect(outcome.runs).toEqual([]);
    await finished;
    expect(items.map((i) => [i.type, i.run.executionMode])).toEqual([
      ['hook/started', 'async'],
      ['hook/completed', 'async'],
    ]);
  });
});
