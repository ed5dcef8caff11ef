import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempGitRepo } from '../support/workspace.js';
import {
  ApprovalCache,
  assessExecCommand,
  assessExecCommandLazily,
  decideExecApproval,
  decidePatchApproval,
  decideRetryWithoutSandbox,
  loadBashParser,
  needsBashParser,
  parseApprovalPolicy,
  parseRules,
  type ApprovalAction,
  type ApprovalPolicyConfig,
  type BashParser,
  type SandboxMode,
} from '../../src/policy/index.js';

let bash: BashParser;
// Where the commands run, as the orchestrator tells the classifier: a clean repository, nothing
// writable by commands, no terminal. (Read-only git is known safe only with these facts.)
const site = { cwd: '', tty: false, canWrite: (_: string) => false };
beforeAll(async () => {
  bash = await loadBashParser();
  site.cwd = tempGitRepo();
});
afterAll(() => {
  if (site.cwd) removeDir(site.cwd);
});

const rules = parseRules(
  [
    'prefix_rule(pattern=["cargo", "test"], decision="allow")',
    'prefix_rule(pattern=["git", "push"], decision="prompt", justification="talks to the remote")',
    'prefix_rule(pattern=["git", "reset", "--hard"], decision="forbidden")',
  ].join('\n'),
  'team.rules',
);

const ALL_ON = { sandbox_approval: true, rules: true, skill_approval: true, request_permissions: true, mcp_elicitations: true };
const ALL_OFF = { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: false };
const POLICIES: Record<string, ApprovalPolicyConfig> = {
  untrusted: 'untrusted',
  'on-request': 'on-request',
  never: 'never',
  'granular-on': { granular: ALL_ON },
  'granular-off': { granular: ALL_OFF },
};
const MODES: SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access'];

interface Case {
  argv: string[];
  escalation?: boolean;
  /** Expected action per policy; `run` / `ask` resolve to sandboxed or not by the sandbox mode. */
  /**
   * Expected action per policy. `run` / `ask` run sandboxed in a restricted mode and unsandboxed under full
   * access; `escalate` asks to run unsandboxed in a restricted mode and just runs under full access.
   */
  expect: Record<keyof typeof POLICIES, 'run' | 'run-unsandboxed' | 'ask' | 'escalate' | { reject: string }>;
}

const NEVER_PROMPT = 'approval required by policy, but AskForApproval is set to Never';
const escalationRejected = (name: string) => ({
  reject: `approval policy is ${name}; reject command — you cannot ask for escalated permissions if the approval policy is ${name}`,
});
const GRANULAR_OFF_NAME =
  'Granular(GranularApprovalConfig { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: false })';
const GRANULAR_ON_NAME =
  'Granular(GranularApprovalConfig { sandbox_approval: true, rules: true, skill_approval: true, request_permissions: true, mcp_elicitations: true })';

const CASES: Record<string, Case> = {
  'known safe': { argv: ['ls', '-la'], expect: { untrusted: 'run', 'on-request': 'run', never: 'run', 'granular-on': 'run', 'granular-off': 'run' } },
  'known safe script': {
    argv: ['bash', '-lc', 'ls && git status'],
    expect: { untrusted: 'run', 'on-request': 'run', never: 'run', 'granular-on': 'run', 'granular-off': 'run' },
  },
  'unknown command': {
    argv: ['cargo', 'build'],
    expect: { untrusted: 'ask', 'on-request': 'run', never: 'run', 'granular-on': 'run', 'granular-off': 'run' },
  },
  'script with a redirect': {
    argv: ['bash', '-lc', 'ls > listing.txt'],
    expect: { untrusted: 'ask', 'on-request': 'run', never: 'run', 'granular-on': 'run', 'granular-off': 'run' },
  },
  // The rule: a destructive command is asked under every policy, never included.
  dangerous: {
    argv: ['rm', '-rf', 'build'],
    expect: { untrusted: 'ask', 'on-request': 'ask', never: 'ask', 'granular-on': 'ask', 'granular-off': 'ask' },
  },
  'dangerous inside a script': {
    argv: ['bash', '-lc', 'ls && dd if=/dev/zero of=/dev/sda'],
    expect: { untrusted: 'ask', 'on-request': 'ask', never: 'ask', 'granular-on': 'ask', 'granular-off': 'ask' },
  },
  'escalation requested': {
    argv: ['cargo', 'build'],
    escalation: true,
    expect: {
      untrusted: escalationRejected('UnlessTrusted'),
      'on-request': 'escalate',
      never: escalationRejected('Never'),
      'granular-on': escalationRejected(GRANULAR_ON_NAME),
      'granular-off': escalationRejected(GRANULAR_OFF_NAME),
    },
  },
  'rule allow': {
    argv: ['cargo', 'test', '--all'],
    expect: { untrusted: 'run-unsandboxed', 'on-request': 'run-unsandboxed', never: 'run-unsandboxed', 'granular-on': 'run-unsandboxed', 'granular-off': 'run-unsandboxed' },
  },
  'rule prompt': {
    argv: ['git', 'push', 'origin'],
    expect: {
      untrusted: 'ask',
      'on-request': 'ask',
      never: { reject: NEVER_PROMPT },
      'granular-on': 'ask',
      'granular-off': { reject: 'approval required by policy rule, but AskForApproval::Granular.rules is false' },
    },
  },
  'rule forbidden': {
    argv: ['git', 'reset', '--hard', 'HEAD~1'],
    expect: Object.fromEntries(
      Object.keys(POLICIES).map((name) => [name, { reject: "`git reset --hard 'HEAD~1'` rejected: policy forbids commands starting with `git reset --hard`" }]),
    ) as Case['expect'],
  },
};

function expectedAction(expected: Case['expect'][string], mode: SandboxMode, reason?: string): ApprovalAction {
  const restricted = mode !== 'danger-full-access';
  if (typeof expected === 'object') return { action: 'reject', reason: expected.reject };
  if (expected === 'run') return { action: restricted ? 'run-sandboxed' : 'run-unsandboxed' };
  if (expected === 'run-unsandboxed') return { action: 'run-unsandboxed' };
  if (expected === 'escalate') return restricted ? { action: 'ask', thenRun: 'unsandboxed' } : { action: 'run-unsandboxed' };
  const ask: ApprovalAction = { action: 'ask', thenRun: restricted ? 'sandboxed' : 'unsandboxed' };
  if (reason !== undefined) ask.reason = reason;
  return ask;
}

describe('exec approval decision table: every policy × sandbox mode × case', () => {
  const rows = Object.entries(CASES).flatMap(([label, testCase]) =>
    Object.keys(POLICIES).flatMap((policyName) => MODES.map((mode) => [label, policyName, mode] as const)),
  );
  it.each(rows)('%s under %s in %s', (label, policyName, mode) => {
    const testCase = CASES[label]!;
    const policy = POLICIES[policyName]!;
    const ctx = { policy, sandboxMode: mode, escalationRequested: testCase.escalation ?? false, platform: 'linux' as const, ...site };
    const { requirement } = assessExecCommand(rules, testCase.argv, ctx, bash);
    const action = decideExecApproval({ requirement, policy, sandboxMode: mode, escalationRequested: testCase.escalation ?? false });
    const expected = testCase.expect[policyName]!;
    const reasons: Record<string, string> = {
      'rule prompt': '`git push origin` requires approval: talks to the remote',
      dangerous: '`rm -rf build` is potentially destructive, so it always needs approval: rm -f style commands are not permitted. Use a safer approach',
      'dangerous inside a script':
        "`bash -lc 'ls && dd if=/dev/zero of=/dev/sda'` is potentially destructive, so it always needs approval: writing raw data to a device is not permitted",
    };
    const reason = reasons[label];
    const { proposedAmendment: _ignored, ...comparable } = action as ApprovalAction & { proposedAmendment?: string[] };
    expect(comparable).toEqual(expectedAction(expected, mode, reason));
  });
});

describe('exec approval: other inputs', () => {
  const assess = (argv: string[], policy: ApprovalPolicyConfig, sandboxMode: SandboxMode = 'workspace-write', prefixRule?: string[]) =>
    assessExecCommand(rules, argv, { policy, sandboxMode, ...(prefixRule ? { prefixRule } : {}) }, bash);

  it('--yolo runs everything without a sandbox, even forbidden and dangerous commands', () => {
    for (const argv of [['rm', '-rf', '/'], ['git', 'reset', '--hard']]) {
      const { requirement } = assess(argv, 'never');
      expect(decideExecApproval({ requirement, policy: 'never', sandboxMode: 'read-only', yolo: true })).toMatchObject({ action: 'run-unsandboxed' });
    }
  });

  it('an escalation already granted this turn is not rejected again', () => {
    const { requirement } = assess(['cargo', 'build'], 'never');
    expect(decideExecApproval({ requirement, policy: 'never', sandboxMode: 'workspace-write', escalationRequested: true, escalationPreapproved: true })).toEqual({
      action: 'run-unsandboxed',
    });
  });

  it('a session approval skips the question', () => {
    const { requirement } = assess(['cargo', 'build'], 'untrusted');
    expect(decideExecApproval({ requirement, policy: 'untrusted', sandboxMode: 'workspace-write', approvedForSession: true })).toEqual({ action: 'run-sandboxed' });
  });

  it('without a sandbox, a restricted mode asks to run unsandboxed (or refuses when it cannot ask)', () => {
    const { requirement } = assess(['cargo', 'build'], 'on-request');
    expect(decideExecApproval({ requirement, policy: 'on-request', sandboxMode: 'workspace-write', sandboxAvailable: false })).toEqual({
      action: 'ask',
      reason: 'no sandbox is available on this machine; run without sandbox?',
      thenRun: 'unsandboxed',
    });
    expect(decideExecApproval({ requirement, policy: 'never', sandboxMode: 'workspace-write', sandboxAvailable: false })).toMatchObject({ action: 'reject' });
    expect(decideExecApproval({ requirement, policy: { granular: ALL_OFF }, sandboxMode: 'read-only', sandboxAvailable: false })).toEqual({
      action: 'reject',
      reason: 'approval policy disallowed sandbox approval prompt',
    });
    // Full access never needed a sandbox.
    expect(decideExecApproval({ requirement, policy: 'on-request', sandboxMode: 'danger-full-access', sandboxAvailable: false })).toEqual({ action: 'run-unsandboxed' });
  });

  it('treats an external sandbox like full access', () => {
    const { requirement } = assess(['cargo', 'build'], 'on-request', 'external-sandbox');
    expect(decideExecApproval({ requirement, policy: 'on-request', sandboxMode: 'external-sandbox' })).toEqual({ action: 'run-unsandboxed' });
  });

  it('bypasses the sandbox only when explicit allow rules cover every sub-command', () => {
    expect(assess(['bash', '-lc', 'cargo test && cargo test --doc'], 'on-request').requirement).toEqual({ kind: 'skip', bypassSandbox: true });
    expect(assess(['bash', '-lc', 'cargo test && ls'], 'on-request').requirement).toMatchObject({ kind: 'skip', bypassSandbox: false });
  });

  it('evaluates each sub-command of a plain script and keeps the strictest', () => {
    const assessment = assess(['bash', '-lc', 'ls && git push origin && cargo test'], 'on-request');
    expect(assessment.commands).toEqual([['ls'], ['git', 'push', 'origin'], ['cargo', 'test']]);
    expect(assessment.decision).toBe('prompt');
    expect(assessment.requirement).toEqual({
      kind: 'needs-approval',
      reason: "`bash -lc 'ls && git push origin && cargo test'` requires approval: talks to the remote",
    });
    const forbidden = assess(['bash', '-lc', 'git push && git reset --hard'], 'on-request');
    expect(forbidden.requirement).toEqual({
      kind: 'forbidden',
      reason: "`bash -lc 'git push && git reset --hard'` rejected: policy forbids commands starting with `git reset --hard`",
    });
  });

  it('uses the heredoc command prefix for rules but proposes no amendment from it', () => {
    const withRule = parseRules('prefix_rule(pattern=["python3"], decision="prompt")', 'p.rules');
    const assessment = assessExecCommand(withRule, ['bash', '-lc', "python3 <<'PY'\nprint(1)\nPY"], { policy: 'untrusted', sandboxMode: 'workspace-write' }, bash);
    expect(assessment.usedComplexParsing).toBe(true);
    expect(assessment.commands).toEqual([['python3']]);
    expect(assessment.requirement).toEqual({ kind: 'needs-approval', reason: '`bash -lc "python3 <<\'PY\'\nprint(1)\nPY"` requires approval by policy' });
    // A known-safe command read via the heredoc fallback is not auto-approved under untrusted.
    const safe = assessExecCommand(rules, ['bash', '-lc', 'cat <<EOF\nhi\nEOF'], { policy: 'untrusted', sandboxMode: 'workspace-write' }, bash);
    expect(safe.requirement).toEqual({ kind: 'needs-approval' });
  });

  it('proposes an amendment from the first heuristically prompted command, or the model prefix_rule when it is acceptable', () => {
    expect(assess(['bash', '-lc', 'cd src && cargo build --release'], 'untrusted').requirement).toEqual({
      kind: 'needs-approval',
      proposedAmendment: ['cargo', 'build', '--release'],
    });
    expect(assess(['cargo', 'build'], 'untrusted', 'workspace-write', ['cargo', 'build']).requirement).toEqual({
      kind: 'needs-approval',
      proposedAmendment: ['cargo', 'build'],
    });
    // Over-broad prefixes are never offered; the heuristic argv is offered instead.
    expect(assess(['python3', '-c', 'print(1)'], 'untrusted', 'workspace-write', ['python3', '-c']).requirement).toEqual({
      kind: 'needs-approval',
      proposedAmendment: ['python3', '-c', 'print(1)'],
    });
    // A prefix that would not cover every sub-command is not offered.
    expect(assess(['bash', '-lc', 'cargo build && make'], 'untrusted', 'workspace-write', ['cargo', 'build']).requirement).toEqual({
      kind: 'needs-approval',
      proposedAmendment: ['cargo', 'build'],
    });
    // An explicit prompt rule cannot be amended away, so nothing is proposed.
    expect(assess(['git', 'push'], 'untrusted', 'workspace-write', ['git', 'push']).requirement).not.toHaveProperty('proposedAmendment');
    // Unsandboxed-retry amendments: the allowed heuristic command is proposed for later.
    expect(assess(['cargo', 'build'], 'on-request').requirement).toEqual({ kind: 'skip', bypassSandbox: false, proposedAmendment: ['cargo', 'build'] });
  });

  it('loads the bash parser only for scripts the cheap reader cannot read', async () => {
    expect(needsBashParser(['cargo', 'test'])).toBe(false);
    expect(needsBashParser(['sudo', '/bin/bash', '-c', 'x'])).toBe(false);
    expect(needsBashParser(['bash', '-lc', 'ls -la && git status | head -n 3'])).toBe(false);
    expect(needsBashParser(['bash', '-lc', 'echo "$HOME"'])).toBe(true);
    expect(needsBashParser(['trap', 'rm "$x"', 'EXIT'])).toBe(true);
    const plain = await assessExecCommandLazily(rules, ['cargo', 'test'], { policy: 'on-request', sandboxMode: 'read-only' });
    expect(plain.requirement).toEqual({ kind: 'skip', bypassSandbox: true });
    const script = await assessExecCommandLazily(rules, ['bash', '-lc', 'rm -rf x'], { policy: 'on-request', sandboxMode: 'read-only' });
    // The classifier saw through the wrapper to the rm inside (a dangerous command is never offered as a rule).
    expect(script.requirement).toEqual({
      kind: 'needs-approval',
      reason: "`bash -lc 'rm -rf x'` is potentially destructive, so it always needs approval: rm -f style commands are not permitted. Use a safer approach",
    });
    const quoted = await assessExecCommandLazily(rules, ['bash', '-lc', 'rm -r "$(echo x)"'], { policy: 'never', sandboxMode: 'read-only' });
    expect(quoted.requirement).toMatchObject({ kind: 'needs-approval', reason: expect.stringContaining('rm -r') });
  });

  it('judges each sub-command of a plain script in its place (a pipe into a shell, a cd before git)', () => {
    const piped = assess(['bash', '-lc', "echo 'rm -rf x' | sh"], 'never');
    expect(piped.requirement).toMatchObject({ kind: 'needs-approval', reason: expect.stringContaining('rm -f style') });
    const declined = assess(['bash', '-lc', 'ls && git status'], 'untrusted');
    // Without the command's directory the classifier cannot vouch for git.
    expect(declined.requirement).toMatchObject({ kind: 'needs-approval', proposedAmendment: ['git', 'status'] });
  });
});

describe('retry without sandbox after a sandbox denial', () => {
  it('follows wants-no-sandbox-approval per tool and policy', () => {
    const shell = (policy: ApprovalPolicyConfig, alreadyApproved = false) => decideRetryWithoutSandbox({ tool: 'shell', policy, alreadyApproved });
    const patch = (policy: ApprovalPolicyConfig) => decideRetryWithoutSandbox({ tool: 'apply_patch', policy, alreadyApproved: false });
    const ask = { action: 'ask', reason: 'command failed; retry without sandbox?', then: 'rerun-unsandboxed' };
    expect(shell('untrusted')).toEqual(ask);
    expect(shell('untrusted', true)).toEqual({ action: 'rerun-unsandboxed' });
    expect(shell('on-request')).toEqual({ action: 'return-to-model' });
    expect(shell('never')).toEqual({ action: 'return-to-model' });
    expect(shell({ granular: ALL_ON })).toEqual(ask);
    expect(shell({ granular: ALL_OFF })).toEqual({ action: 'return-to-model' });
    expect(patch('on-request')).toEqual(ask);
    expect(patch('untrusted')).toEqual(ask);
    expect(patch('never')).toEqual({ action: 'return-to-model' });
    expect(patch({ granular: ALL_OFF })).toEqual({ action: 'return-to-model' });
  });

  it('asks to allow the host when only network access was denied', () => {
    expect(decideRetryWithoutSandbox({ tool: 'shell', policy: 'untrusted', alreadyApproved: true, blockedHost: 'example.com' })).toEqual({
      action: 'ask',
      reason: 'Network access to "example.com" is blocked by policy.',
      then: 'rerun-with-host-allowed',
    });
  });
});

describe('patch approval', () => {
  const patch = (policy: ApprovalPolicyConfig, sandboxMode: SandboxMode, allPathsWritable: boolean, extra = {}) =>
    decidePatchApproval({ policy, sandboxMode, allPathsWritable, ...extra });

  it('rejects an empty patch whatever the policy', () => {
    expect(patch('never', 'danger-full-access', true, { empty: true })).toEqual({ action: 'reject', reason: 'patch rejected: empty patch' });
  });
  it('asks under untrusted, even inside the workspace', () => {
    expect(patch('untrusted', 'workspace-write', true)).toEqual({ action: 'ask', thenRun: 'unsandboxed' });
  });
  it('auto-approves writes inside writable roots (checked against them) and anything under full access', () => {
    for (const policy of ['on-request', 'never', { granular: ALL_OFF }] as ApprovalPolicyConfig[]) {
      expect(patch(policy, 'workspace-write', true)).toEqual({ action: 'run-sandboxed' });
      expect(patch(policy, 'danger-full-access', false)).toEqual({ action: 'run-unsandboxed' });
      expect(patch(policy, 'external-sandbox', false)).toEqual({ action: 'run-unsandboxed' });
    }
    expect(patch('on-request', 'workspace-write', true, { sandboxAvailable: false })).toEqual({ action: 'ask', thenRun: 'unsandboxed' });
  });
  it('asks for writes outside, or rejects when the policy cannot ask', () => {
    expect(patch('on-request', 'workspace-write', false)).toEqual({ action: 'ask', thenRun: 'unsandboxed' });
    expect(patch({ granular: ALL_ON }, 'read-only', false)).toEqual({ action: 'ask', thenRun: 'unsandboxed' });
    expect(patch('never', 'workspace-write', false)).toEqual({ action: 'reject', reason: 'writing outside of the project; rejected by user approval settings' });
    expect(patch('never', 'read-only', false)).toEqual({ action: 'reject', reason: 'writing is blocked by read-only sandbox; rejected by user approval settings' });
    expect(patch({ granular: ALL_OFF }, 'read-only', false)).toEqual({
      action: 'reject',
      reason: 'writing is blocked by read-only sandbox; rejected by user approval settings',
    });
  });
  it('honours yolo and session approvals', () => {
    expect(patch('never', 'read-only', false, { yolo: true })).toMatchObject({ action: 'run-unsandboxed' });
    expect(patch('untrusted', 'read-only', false, { approvedForSession: true })).toEqual({ action: 'run-unsandboxed' });
  });
});

describe('ApprovalCache', () => {
  it('remembers approved argv prefixes and patch paths', () => {
    const cache = new ApprovalCache();
    cache.approveCommandPrefix(['cargo', 'build']);
    expect(cache.isCommandApproved(['cargo', 'build', '--release'])).toBe(true);
    expect(cache.isCommandApproved(['cargo'])).toBe(false);
    expect(cache.isCommandApproved(['cargo', 'test'])).toBe(false);
    cache.approveCommandPrefix([]);
    expect(cache.isCommandApproved(['anything'])).toBe(false);
    cache.approvePaths(['/w/a.ts', '/w/b.ts']);
    expect(cache.arePathsApproved(['/w/a.ts'])).toBe(true);
    expect(cache.arePathsApproved(['/w/a.ts', '/w/c.ts'])).toBe(false);
    expect(cache.arePathsApproved([])).toBe(false);
    cache.clear();
    expect(cache.isCommandApproved(['cargo', 'build'])).toBe(false);
  });
});

describe('parseApprovalPolicy', () => {
  it('accepts the names, the on-failure alias and granular tables', () => {
    expect(parseApprovalPolicy('untrusted')).toBe('untrusted');
    expect(parseApprovalPolicy('on-request')).toBe('on-request');
    expect(parseApprovalPolicy('on-failure')).toBe('on-request');
    expect(parseApprovalPolicy('never')).toBe('never');
    expect(parseApprovalPolicy({ granular: { rules: true } })).toEqual({ granular: { ...ALL_OFF, rules: true } });
  });
  it('explains what is accepted', () => {
    expect(() => parseApprovalPolicy('sometimes')).toThrow(
      'invalid approval_policy "sometimes" (expected untrusted, on-request, never, or {granular = {...}}; on-failure is a deprecated alias of on-request)',
    );
    expect(() => parseApprovalPolicy({ granular: { sandbox: true } })).toThrow(
      'unknown approval_policy.granular key "sandbox" (expected one of sandbox_approval, rules, skill_approval, request_permissions, mcp_elicitations)',
    );
    expect(() => parseApprovalPolicy({ granular: { rules: 'yes' } })).toThrow('approval_policy.granular.rules must be true or false');
    expect(() => parseApprovalPolicy('granular')).toThrow(/needs its switches/);
  });
});
