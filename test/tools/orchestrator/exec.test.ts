// The exec orchestrator's bookkeeping: the items front ends see for declined, retried and
// session commands, the sandbox markers every way a command can run, and refusing rather than
// running unsandboxed when the sandbox is unavailable.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveSandboxPolicy } from '../../../src/exec/sandbox/index.js';
import { UnifiedExecManager } from '../../../src/exec/unified-exec.js';
import { ProcessScope } from '../../../src/exec/process-groups.js';
import { ApprovalCache, ExecPolicy } from '../../../src/policy/index.js';
import type { ApprovalRequest, ThreadEvent } from '../../../src/protocol/index.js';
import { createOrchestrator } from '../../../src/tools/orchestrator/index.js';
import { fnCall, openScriptedSession, writeRigHome, type ScriptedSession } from '../../safety/scripted-session.js';

let base = '';
let home = '';
let ws = '';
const open: ScriptedSession[] = [];

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-orchestrator-')));
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  fs.mkdirSync(path.join(base, 'outside'));
  execFileSync('git', ['init', '-q', ws]);
  writeRigHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
});

afterEach(async () => {
  for (const session of open.splice(0)) await session.close();
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

async function session(policy: 'untrusted' | 'on-request' | 'never', sandbox: 'workspace-write' | 'read-only' = 'workspace-write') {
  const scripted = await openScriptedSession({ home, cwd: ws, flags: { sandbox, askForApproval: policy } });
  open.push(scripted);
  return scripted;
}

/** Every item event for command executions, grouped by item id. */
function commandItems(events: ThreadEvent[]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const event of events) {
    if (!('item' in event) || event.item.type !== 'command_execution') continue;
    const phases = byId.get(event.item.id) ?? [];
    phases.push(`${event.type}:${event.item.status}`);
    byId.set(event.item.id, phases);
  }
  return byId;
}

describe('exec orchestrator items', () => {
  it('a declined command is one item: started, then completed as declined with the reason', async () => {
    const scripted = await session('untrusted');
    scripted.answer = 'deny';
    const result = await scripted.call(fnCall('exec_command', { cmd: 'touch nope' }, 'c1'));
    expect([...commandItems(result.events).values()]).toEqual([['item.started:in_progress', 'item.completed:declined']]);
    const completed = result.events.find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(completed).toMatchObject({ item: { aggregated_output: 'exec command rejected by user', exit_code: null } });
  });

  it('a rerun without the sandbox after a denial is its own item; each item completes once', async () => {
    const scripted = await session('untrusted');
    const asked: ApprovalRequest[] = [];
    scripted.answer = (request) => {
      asked.push(request);
      return 'approve';
    };
    const target = path.join(base, 'outside', 'retried.txt');
    const result = await scripted.call(fnCall('exec_command', { cmd: `touch '${target}'` }, 'c2'));
    // Approved once up front; the sandbox denial then reruns without asking again.
    expect(asked).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(true);
    const items = [...commandItems(result.events).values()];
    expect(items).toEqual([
      ['item.started:in_progress', 'item.completed:failed'],
      ['item.started:in_progress', 'item.completed:completed'],
    ]);
    expect(result.output).toMatch(/Process exited with code 0/);
  });

  it('a sandbox denial under on-request goes back to the model without a rerun', async () => {
    const scripted = await session('on-request');
    const target = path.join(base, 'outside', 'not-retried.txt');
    const result = await scripted.call(fnCall('exec_command', { cmd: `touch '${target}'` }, 'c3'));
    expect(result.asked).toHaveLength(0);
    expect(fs.existsSync(target)).toBe(false);
    expect(result.output).toMatch(/Process exited with code 1[\s\S]*Read-only file system/);
  });
});

describe('sandbox markers reach every kind of command', () => {
  it.each([
    ['a finished exec_command', { cmd: 'printenv RIG_SANDBOX RIG_SANDBOX_NETWORK_DISABLED' }],
    ['an exec_command on a terminal', { cmd: 'printenv RIG_SANDBOX RIG_SANDBOX_NETWORK_DISABLED', tty: true }],
  ])('%s', async (_label, args) => {
    const scripted = await session('never', 'read-only');
    const result = await scripted.call(fnCall('exec_command', args, 'env'));
    expect(result.output.replace(/\r/g, '')).toContain('bwrap\n1');
  });

  it('a long-running session keeps them when polled', async () => {
    const scripted = await session('never', 'read-only');
    const started = await scripted.call(fnCall('exec_command', { cmd: 'sleep 1; printenv RIG_SANDBOX', yield_time_ms: 250 }, 's1'));
    const sessionId = /session ID (\d+)/i.exec(started.output)?.[1];
    expect(sessionId).toBeDefined();
    const polled = await scripted.call(fnCall('write_stdin', { session_id: Number(sessionId), chars: '', yield_time_ms: 5000 }, 's2'));
    expect(polled.output).toContain('bwrap');
  });
});

describe('exec_command login (Codex 0.169)', () => {
  it('runs a login shell only when the model asks for one', async () => {
    const scripted = await session('never');
    const probe = { cmd: 'shopt -q login_shell && echo LOGIN || echo PLAIN', shell: '/bin/bash' };
    const asked = await scripted.call(fnCall('exec_command', { ...probe, login: true }, 'l1'));
    expect(asked.output).toContain('LOGIN');
    const plain = await scripted.call(fnCall('exec_command', { ...probe, login: false }, 'l2'));
    expect(plain.output).toContain('PLAIN');
    const unset = await scripted.call(fnCall('exec_command', probe, 'l3'));
    expect(unset.output).toContain('PLAIN');
  });
});

describe('without a working sandbox', () => {
  it('refuses to run a restricted command instead of running it bare', async () => {
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: ws, excludeSlashTmp: true, excludeTmpdirEnvVar: true });
    const unifiedExec = new UnifiedExecManager({ env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    const factory = createOrchestrator({
      sandbox: policy,
      approvalPolicy: 'never',
      execPolicy: ExecPolicy.empty(),
      yolo: false,
      commandEnv: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      unifiedExec,
      scope: new ProcessScope(),
      approvalCache: new ApprovalCache(),
      platform: 'linux',
      wrapOptions: { diagnosis: () => ({ ok: false, reason: 'bwrap is missing', fix: 'install bubblewrap' }) as never },
    });
    const events: ThreadEvent[] = [];
    let counter = 0;
    const caps = factory({
      cwd: ws,
      threadId: 't',
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      newItemId: () => `item_${counter++}`,
      askApproval: async () => {
        throw new Error('never asks under never');
      },
      canAskApproval: true,
    });
    const outcome = await caps.exec({ command: 'touch bare-run', cwd: ws });
    expect(outcome.declined).toMatch(/no sandbox is available/);
    expect(fs.existsSync(path.join(ws, 'bare-run'))).toBe(false);
    await unifiedExec.closeAll();
  });
});
