// The approval flow end to end through the Thread API: for each approval policy, which tool calls
// raise approval.requested, which never do, and what each answer (approve, approve for the
// session, deny, abort) does to the command and to what the model sees next.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/protocol/index.js';
import { customCall, fnCall, openScriptedSession, writeRigHome, type ScriptedSession } from './scripted-session.js';

const GRANULAR_ON = '{granular = {sandbox_approval = true, rules = true, skill_approval = true, request_permissions = true, mcp_elicitations = true}}';
const GRANULAR_OFF = '{granular = {sandbox_approval = false, rules = false, skill_approval = false, request_permissions = false, mcp_elicitations = false}}';
const GRANULAR_RULES_ONLY = '{granular = {sandbox_approval = false, rules = true, skill_approval = false, request_permissions = false, mcp_elicitations = false}}';
const GRANULAR: Record<string, string> = { 'granular-on': GRANULAR_ON, 'granular-off': GRANULAR_OFF, 'granular-rules-only': GRANULAR_RULES_ONLY };
type PolicyName = 'untrusted' | 'on-request' | 'never' | 'granular-on' | 'granular-off' | 'granular-rules-only';
const POLICIES: PolicyName[] = ['untrusted', 'on-request', 'never', 'granular-on', 'granular-off', 'granular-rules-only'];

let base = '';
let home = '';
let outside = '';
let ws = '';
let counter = 0;
const open: ScriptedSession[] = [];

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-approval-flow-')));
  home = path.join(base, 'home');
  outside = path.join(base, 'outside');
  fs.mkdirSync(outside);
  writeRigHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
  fs.mkdirSync(path.join(home, 'rules'));
  fs.writeFileSync(path.join(home, 'rules', 'team.rules'), 'prefix_rule(pattern=["touch", "ruled"], decision="prompt", justification="team rule")\n');
});

afterEach(async () => {
  for (const session of open.splice(0)) await session.close();
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A fresh workspace and session (workspace-write) under `policy`. */
async function sessionUnder(policy: PolicyName): Promise<ScriptedSession> {
  ws = path.join(base, `ws-${counter++}`);
  fs.mkdirSync(ws);
  execFileSync('git', ['init', '-q', ws]);
  fs.writeFileSync(path.join(ws, 'inside.txt'), 'inside\n');
  const granular = GRANULAR[policy];
  const session = await openScriptedSession({
    home,
    cwd: ws,
    mode: granular ? 'interactive' : 'exec',
    flags: {
      sandbox: 'workspace-write',
      ...(granular ? { config: [`approval_policy=${granular}`] } : { askForApproval: policy as 'never' }),
    },
  });
  open.push(session);
  return session;
}

const exec = (cmd: string, extra: Record<string, unknown> = {}) => fnCall('exec_command', { cmd, ...extra }, `call-${counter++}`);
const patchCall = (target: string) =>
  customCall('apply_patch', ['*** Begin Patch', `*** Add File: ${target}`, '+patched', '*** End Patch', ''].join('\n'), `call-${counter++}`);

interface Case {
  name: string;
  call: () => ReturnType<typeof exec>;
  /** The file the call creates when it runs. */
  creates: () => string;
  /** Policies that ask; every other policy must not ask. */
  asks: PolicyName[];
  /** Policies that refuse without asking, with the message the model gets. */
  refuses?: Partial<Record<PolicyName, RegExp>>;
}

const ESCALATION_REFUSED = /you cannot ask for escalated permissions if the approval policy is/;
const CASES: Case[] = [
  { name: 'ls then a write', call: () => exec('ls > /dev/null && touch ls-ran'), creates: () => path.join(ws, 'ls-ran'), asks: ['untrusted'] },
  { name: 'known-safe ls', call: () => exec('ls'), creates: () => '', asks: [] },
  { name: 'a write (touch x)', call: () => exec('touch x'), creates: () => path.join(ws, 'x'), asks: ['untrusted'] },
  {
    name: 'escalation request',
    call: () => exec('touch escalated', { sandbox_permissions: 'require_escalated', justification: 'needs the network' }),
    creates: () => path.join(ws, 'escalated'),
    asks: ['on-request'],
    refuses: {
      untrusted: ESCALATION_REFUSED,
      never: ESCALATION_REFUSED,
      'granular-on': ESCALATION_REFUSED,
      'granular-off': ESCALATION_REFUSED,
      'granular-rules-only': ESCALATION_REFUSED,
    },
  },
  {
    name: 'a command a rule says to ask about',
    call: () => exec('touch ruled'),
    creates: () => path.join(ws, 'ruled'),
    asks: ['untrusted', 'on-request', 'granular-on', 'granular-rules-only'],
    refuses: { never: /approval required by policy, but AskForApproval is set to Never/, 'granular-off': /Granular.rules is false/ },
  },
  { name: 'dangerous rm -rf', call: () => exec('mkdir -p doomed && rm -rf doomed && touch rm-ran'), creates: () => path.join(ws, 'rm-ran'), asks: POLICIES },
  { name: 'apply_patch inside', call: () => patchCall('patched-inside.txt'), creates: () => path.join(ws, 'patched-inside.txt'), asks: ['untrusted'] },
  {
    name: 'apply_patch outside',
    call: () => patchCall(path.join(outside, `patched-outside-${counter}.txt`)),
    creates: () => path.join(outside, `patched-outside-${counter - 1}.txt`),
    asks: ['untrusted', 'on-request', 'granular-on'],
    refuses: {
      never: /writing outside of the project; rejected by user approval settings/,
      'granular-off': /writing outside of the project/,
      'granular-rules-only': /writing outside of the project/,
    },
  },
];

describe('who is asked: every policy × call (answers approve)', () => {
  const rows = CASES.flatMap((testCase) => POLICIES.map((policy) => [testCase.name, policy, testCase] as const));
  it.each(rows)('%s under %s', async (_name, policy, testCase) => {
    const session = await sessionUnder(policy);
    session.answer = 'approve';
    const result = await session.call(testCase.call());
    const refusal = testCase.refuses?.[policy];
    expect(result.asked.length).toBe(testCase.asks.includes(policy) ? 1 : 0);
    if (refusal) {
      expect(result.output).toMatch(refusal);
      if (testCase.creates()) expect(fs.existsSync(testCase.creates())).toBe(false);
    } else if (testCase.creates()) {
      expect(fs.existsSync(testCase.creates())).toBe(true);
    }
    expect(result.status).toBe('completed');
  });
});

describe('what each answer does', () => {
  const answered = async (policy: PolicyName, decision: ApprovalDecision) => {
    const session = await sessionUnder(policy);
    session.answer = decision;
    return session;
  };

  it('approve_for_session: the identical command is not asked again; another one is', async () => {
    const session = await answered('untrusted', 'approve_for_session');
    const first = await session.call(exec('touch again'));
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]).toMatchObject({ kind: 'exec', cwd: ws });
    const second = await session.call(exec('touch again'));
    expect(second.asked).toHaveLength(0);
    expect(second.output).toMatch(/Process exited with code 0/);
    const other = await session.call(exec('touch other'));
    expect(other.asked).toHaveLength(1);
  });

  it('approve_for_session covers a repeated patch to the same paths', async () => {
    const session = await answered('on-request', 'approve_for_session');
    const target = path.join(outside, 'session-approved.txt');
    const body = (line: string) => ['*** Begin Patch', `*** Add File: ${target}`, `+${line}`, '*** End Patch', ''].join('\n');
    expect((await session.call(customCall('apply_patch', body('one'), 'p1'))).asked).toHaveLength(1);
    fs.rmSync(target);
    expect((await session.call(customCall('apply_patch', body('two'), 'p2'))).asked).toHaveLength(0);
    expect(fs.readFileSync(target, 'utf8')).toBe('two\n');
  });

  it('approve asks again next time', async () => {
    const session = await answered('untrusted', 'approve');
    expect((await session.call(exec('touch twice'))).asked).toHaveLength(1);
    expect((await session.call(exec('touch twice'))).asked).toHaveLength(1);
  });

  it.each(POLICIES)('deny under %s: the model gets a result it can act on, and the turn goes on', async (policy) => {
    const session = await answered(policy, 'deny');
    const result = await session.call(exec('mkdir -p doomed && rm -rf doomed && touch denied'));
    expect(result.asked).toHaveLength(1);
    expect(result.output).toContain('exec command rejected by user');
    expect(result.status).toBe('completed');
    expect(fs.existsSync(path.join(ws, 'denied'))).toBe(false);
    // The declined command shows as a declined item, and the model's next request carries the refusal.
    const completed = result.events.find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(completed).toMatchObject({ item: { status: 'declined' } });
    const sentBack = session.session.thread.history.at(-2);
    expect(sentBack).toMatchObject({ type: 'function_call_output', output: expect.stringContaining('exec command rejected by user') });
  });

  it('deny a patch: the model is told the user rejected it', async () => {
    const session = await answered('on-request', 'deny');
    const target = path.join(outside, 'denied-patch.txt');
    const result = await session.call(patchCall(target));
    expect(result.asked).toHaveLength(1);
    expect(result.output).toContain('patch rejected by user');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('abort: the turn is interrupted and the command never runs', async () => {
    const session = await answered('untrusted', 'abort');
    const result = await session.call(exec('touch aborted'));
    expect(result.asked).toHaveLength(1);
    expect(result.status).toBe('interrupted');
    expect(fs.existsSync(path.join(ws, 'aborted'))).toBe(false);
    expect(result.events.some((event) => event.type === 'turn.completed')).toBe(false);
  });

  it('the escalation request carries the justification as its reason and runs outside the sandbox once approved', async () => {
    const session = await answered('on-request', 'approve');
    const target = path.join(outside, 'escalated.txt');
    const result = await session.call(exec(`touch '${target}'`, { sandbox_permissions: 'require_escalated', justification: 'write the report' }));
    expect(result.asked).toEqual([expect.objectContaining({ kind: 'exec', reason: 'write the report' })]);
    expect(fs.existsSync(target)).toBe(true);
  });

  it('a dangerous command under never asks, and names why', async () => {
    const session = await answered('never', 'deny');
    const result = await session.call(exec('rm -rf doomed'));
    expect(result.asked).toEqual([expect.objectContaining({ kind: 'exec', reason: expect.stringContaining('potentially destructive') })]);
  });
});
