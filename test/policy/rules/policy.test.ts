import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ExecPolicy,
  ExecPolicyLoadError,
  appendAllowPrefixRule,
  discoverRulesFiles,
  execPolicyCheckJson,
  loadRulesFiles,
  parseRules,
  runExecPolicyCheck,
} from '../../../src/policy/index.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-policy-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function loadError(text: string, file = 'ex.rules'): ExecPolicyLoadError {
  try {
    parseRules(text, file);
  } catch (error) {
    if (error instanceof ExecPolicyLoadError) return error;
    throw error;
  }
  throw new Error('expected a load error');
}

describe('prefix matching', () => {
  const policy = parseRules(
    [
      'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="talks to the network")',
      'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden", justification="Use --force-with-lease.")',
      'prefix_rule(pattern=["git", "status"])',
      'prefix_rule(pattern=["git"], decision="allow")',
    ].join('\n'),
    'team.rules',
  );

  it('matches by prefix with extra trailing words, never by a shorter command', () => {
    expect(policy.check(['git', 'status', '--short']).decision).toBe('allow');
    expect(policy.check(['git']).decision).toBe('allow');
    expect(policy.check(['gitk']).decision).toBe('none');
    expect(policy.check(['ls']).decision).toBe('none');
    expect(policy.check([]).decision).toBe('none');
  });

  it('matches alternatives and lets the strictest decision win, naming the deciding rule', () => {
    expect(policy.check(['git', 'fetch', 'origin'])).toEqual({
      decision: 'prompt',
      rule: { file: 'team.rules', line: 1, column: 1, pattern: ['git', ['push', 'fetch']], matchedPrefix: ['git', 'fetch'], justification: 'talks to the network' },
    });
    const forced = policy.check(['git', 'push', '--force', 'origin']);
    expect(forced.decision).toBe('forbidden');
    expect(forced.decision !== 'none' && forced.rule.line).toBe(2);
    expect(policy.evaluate(['git', 'push', '--force']).matchedRules.map((m) => m.decision)).toEqual(['prompt', 'forbidden', 'allow']);
  });

  it('uses basename rules for absolute paths unless host_executable excludes the path', () => {
    const open = parseRules('prefix_rule(pattern=["git", "status"], decision="prompt")', 'a.rules');
    expect(open.evaluate(['/usr/bin/git', 'status']).matchedRules[0]).toMatchObject({ matchedPrefix: ['git', 'status'], resolvedProgram: '/usr/bin/git' });
    expect(open.evaluate(['/usr/bin/git', 'status'], { resolveHostExecutables: false }).decision).toBeUndefined();
    const limited = parseRules(
      'prefix_rule(pattern=["git", "status"], decision="prompt")\nhost_executable(name="git", paths=["/usr/bin/git"])',
      'b.rules',
    );
    expect(limited.evaluate(['/usr/bin/git', 'status']).decision).toBe('prompt');
    expect(limited.evaluate(['/tmp/evil/git', 'status']).decision).toBeUndefined();
    // An exact rule for the absolute path wins without fallback.
    const exact = parseRules('prefix_rule(pattern=["/opt/git", "status"], decision="forbidden")\nprefix_rule(pattern=["git"], decision="allow")', 'c.rules');
    expect(exact.evaluate(['/opt/git', 'status']).matchedRules.map((m) => m.decision)).toEqual(['forbidden']);
  });

  it('adds session amendments without changing the original policy', () => {
    const amended = policy.withPrefixRule(['npm', 'test'], 'allow');
    expect(amended.check(['npm', 'test', '--watch']).decision).toBe('allow');
    expect(policy.check(['npm', 'test']).decision).toBe('none');
  });
});

describe('network rules', () => {
  it('gives the strictest decision for a host, per protocol if asked', () => {
    const policy = parseRules(
      [
        'network_rule(host="api.example.com", protocol="https", decision="allow")',
        'network_rule(host="API.example.com.", protocol="http", decision="deny")',
        'network_rule(host="cdn.example.com", protocol="https", decision="prompt")',
      ].join('\n'),
      'n.rules',
    );
    expect(policy.networkDecision('api.example.com')).toBe('forbidden');
    expect(policy.networkDecision('Api.Example.com:443', 'https')).toBe('allow');
    expect(policy.networkDecision('cdn.example.com')).toBe('prompt');
    expect(policy.networkDecision('other.example.com')).toBeUndefined();
    expect(policy.networkDecision('https://api.example.com/')).toBeUndefined();
  });
});

describe('match / not_match examples are checked at load', () => {
  it('loads when every example behaves', () => {
    const policy = parseRules(
      'prefix_rule(\n  pattern=["git", ["push", "fetch"]],\n  match=[["git", "push"], "git fetch origin"],\n  not_match=[["git", "pull"], "git"],\n)',
      'ok.rules',
    );
    expect(policy.rules).toHaveLength(1);
  });

  it('a match example that does not match is an error at the example', () => {
    const error = loadError('prefix_rule(\n  pattern=["git", ["push", "fetch"]],\n  match=[\n    "git push",\n    "git pul origin",\n  ],\n)');
    expect(error.message).toBe(
      'ex.rules:5:5: match example `git pul origin` does not match the rule with pattern ["git", ["push", "fetch"]] (expected it to match; fix the example or the pattern)',
    );
    expect([error.file, error.line, error.column]).toEqual(['ex.rules', 5, 5]);
  });

  it('a not_match example that matches is an error at the example', () => {
    const error = loadError('prefix_rule(pattern=["rm"], decision="forbidden",\n  not_match=[["rm", "-rf", "it\'s here"]])');
    expect(error.message).toBe(
      'ex.rules:2:14: not_match example `rm -rf "it\'s here"` matches the rule with pattern ["rm"] (expected it not to match; fix the example or the pattern)',
    );
  });

  it('checks examples only against their own rule, after the whole file (host_executable later in the file counts)', () => {
    // The example matches only via basename fallback, which the later host_executable forbids for this path.
    const error = loadError(
      'prefix_rule(pattern=["git"], match=["/opt/git status"])\nhost_executable(name="git", paths=["/usr/bin/git"])',
    );
    expect(error.message).toMatch(/^ex\.rules:1:37: match example `\/opt\/git status` does not match/);
    // Another rule in the same file does not make a failing example pass.
    const own = loadError('prefix_rule(pattern=["ls"])\nprefix_rule(pattern=["cat"], match=["ls -l"])');
    expect(own.line).toBe(2);
  });

  it('a syntax error later in the file is reported before example failures', () => {
    const error = loadError('prefix_rule(pattern=["a"], match=["b"])\nprefix_rule(pattern=[)');
    expect(error.line).toBe(2);
  });
});

describe('files', () => {
  it('loads several files in order and names the failing file', async () => {
    const dir = tempDir();
    const first = path.join(dir, 'a.rules');
    const second = path.join(dir, 'b.rules');
    fs.writeFileSync(first, 'prefix_rule(pattern=["cargo"], decision="allow")\n');
    fs.writeFileSync(second, 'prefix_rule(pattern=["cargo", "publish"], decision="forbidden")\n');
    const policy = await loadRulesFiles([first, second]);
    expect(policy.check(['cargo', 'publish'])).toMatchObject({ decision: 'forbidden', rule: { file: second, line: 1 } });

    fs.writeFileSync(second, '\nprefix_rule(pattern=["cargo"], match=["npm"])\n');
    await expect(loadRulesFiles([first, second])).rejects.toThrow(`${second}:2:39: match example \`npm\` does not match`);
    await expect(loadRulesFiles([path.join(dir, 'missing.rules')])).rejects.toThrow(/^failed to read rules file .*missing\.rules: ENOENT/);
  });

  it('discovers RIG_HOME rules then trusted project rules, sorted, skipping other files; --ignore-rules skips all', async () => {
    const home = tempDir();
    const project = path.join(tempDir(), '.rig');
    fs.mkdirSync(path.join(home, 'rules'), { recursive: true });
    fs.mkdirSync(path.join(project, 'rules'), { recursive: true });
    fs.writeFileSync(path.join(home, 'rules', 'b.rules'), '');
    fs.writeFileSync(path.join(home, 'rules', 'a.rules'), '');
    fs.writeFileSync(path.join(home, 'rules', 'notes.txt'), '');
    fs.mkdirSync(path.join(home, 'rules', 'dir.rules'));
    fs.writeFileSync(path.join(project, 'rules', 'p.rules'), '');
    expect(await discoverRulesFiles({ rigHome: home, trustedProjectConfigDirs: [project] })).toEqual([
      path.join(home, 'rules', 'a.rules'),
      path.join(home, 'rules', 'b.rules'),
      path.join(project, 'rules', 'p.rules'),
    ]);
    expect(await discoverRulesFiles({ rigHome: home, ignoreRules: true })).toEqual([]);
    expect(await discoverRulesFiles({ rigHome: path.join(home, 'absent') })).toEqual([]);
  });

  it('appends "always allow" amendments to default.rules in a form that loads back', async () => {
    const home = tempDir();
    const file = await appendAllowPrefixRule(home, ['git', 'pull']);
    fs.appendFileSync(file, '# no newline at end');
    await appendAllowPrefixRule(home, ['echo', 'say "hi"\n']);
    expect(fs.readFileSync(file, 'utf8')).toBe(
      'prefix_rule(pattern=["git", "pull"], decision="allow")\n# no newline at end\nprefix_rule(pattern=["echo", "say \\"hi\\"\\n"], decision="allow")\n',
    );
    const policy = await loadRulesFiles([file]);
    expect(policy.check(['echo', 'say "hi"\n']).decision).toBe('allow');
  });
});

describe('execpolicy check JSON', () => {
  const policy = ExecPolicy.fromSources([
    {
      fileName: 'p.rules',
      text: 'prefix_rule(pattern=["git", "push"], decision="prompt", justification="network")\nprefix_rule(pattern=["git"])',
    },
  ]);

  it('lists every matched rule and the strictest decision', () => {
    expect(execPolicyCheckJson(policy, ['git', 'push', 'origin'])).toBe(
      '{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["git","push"],"decision":"prompt","justification":"network"}},{"prefixRuleMatch":{"matchedPrefix":["git"],"decision":"allow"}}],"decision":"prompt"}',
    );
  });

  it('runs the whole check command from files', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'p.rules');
    fs.writeFileSync(file, 'prefix_rule(pattern=["git", "push"], decision="forbidden")\n');
    expect(await runExecPolicyCheck([file], ['git', 'push', '-f'])).toBe(
      '{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["git","push"],"decision":"forbidden"}}],"decision":"forbidden"}',
    );
    await expect(runExecPolicyCheck([], ['ls'])).rejects.toThrow('execpolicy check needs at least one --rules FILE');
    await expect(runExecPolicyCheck([file], [])).rejects.toThrow('execpolicy check needs a command to check');
  });

  it('omits decision when nothing matched', () => {
    expect(execPolicyCheckJson(policy, ['ls'])).toBe('{"matchedRules":[]}');
  });

  it('resolves host executables only when asked, and pretty-prints with two spaces', () => {
    expect(execPolicyCheckJson(policy, ['/usr/bin/git'])).toBe('{"matchedRules":[]}');
    expect(execPolicyCheckJson(policy, ['/usr/bin/git'], { resolveHostExecutables: true, pretty: true })).toBe(
      [
        '{',
        '  "matchedRules": [',
        '    {',
        '      "prefixRuleMatch": {',
        '        "matchedPrefix": [',
        '          "git"',
        '        ],',
        '        "decision": "allow",',
        '        "resolvedProgram": "/usr/bin/git"',
        '      }',
        '    }',
        '  ],',
        '  "decision": "allow"',
        '}',
      ].join('\n'),
    );
  });
});

describe('hostile rules files', () => {
  it('10,000 nested brackets: a bounded-nesting error naming file and line, no stack overflow', () => {
    const text = `# deep\nprefix_rule(pattern=${'['.repeat(10_000)}"x"${']'.repeat(10_000)})\n`;
    const error = loadError(text, '/srv/project/.rig/rules/deep.rules');
    expect(error.message).toMatch(/^\/srv\/project\/\.rig\/rules\/deep\.rules:2:\d+: .*nest more than 64 levels/);
  });

  it('64 levels still load', () => {
    expect(() => parseRules(`X = ${'['.repeat(63)}"x"${']'.repeat(63)}\n`, 'ok.rules')).not.toThrow();
  });
});

describe('files that may only narrow the policy (a project\'s rules)', () => {
  const userRules = 'prefix_rule(pattern=["rm"], decision="forbidden")\n';
  const projectRules = [
    'prefix_rule(pattern=["touch"], decision="allow")',
    'prefix_rule(pattern=["git", "push"], decision="prompt")',
    'host_executable(name="rm", paths=["/nonexistent/rm"])',
    'network_rule(host="example.com", protocol="https", decision="allow")',
    '',
  ].join('\n');
  const policy = ExecPolicy.fromSources(
    [
      { fileName: '/home/u/.rig/rules/default.rules', text: userRules },
      { fileName: '/srv/p/.rig/rules/p.rules', text: projectRules },
    ],
    { narrowOnly: (file) => file.startsWith('/srv/p/') },
  );

  it('keeps prompt and forbidden rules, skips allow rules, network allows and host_executable', () => {
    expect(policy.check(['touch', 'x']).decision).toBe('none');
    expect(policy.check(['git', 'push']).decision).toBe('prompt');
    // The project's host_executable would have stopped /bin/rm from matching the user's rule.
    expect(policy.check(['/bin/rm', '-rf', '/']).decision).toBe('forbidden');
    expect(policy.networkDecision('example.com')).toBeUndefined();
    expect(policy.ignored).toEqual([
      '/srv/p/.rig/rules/p.rules:1: prefix_rule ["touch"] decision="allow"',
      '/srv/p/.rig/rules/p.rules:3: host_executable name="rm"',
      '/srv/p/.rig/rules/p.rules:4: network_rule host="example.com" decision="allow"',
    ]);
  });

  it('loadSessionRules reads project rules narrow-only unless the project is opted in', async () => {
    const { loadSessionRules } = await import('../../../src/policy/index.js');
    const home = tempDir();
    const project = path.join(tempDir(), '.rig');
    fs.mkdirSync(path.join(project, 'rules'), { recursive: true });
    fs.writeFileSync(path.join(project, 'rules', 'p.rules'), 'prefix_rule(pattern=["touch"], decision="allow")\n');
    const narrow = await loadSessionRules({ rigHome: home, trustedProjectConfigDirs: [project] });
    expect(narrow.policy.check(['touch', 'x']).decision).toBe('none');
    expect(narrow.warnings[0]).toMatch(/^project rules may only narrow the exec policy; ignored: .*p\.rules:1: prefix_rule \["touch"\] decision="allow"\. /);
    const wide = await loadSessionRules({ rigHome: home, trustedProjectConfigDirs: [project], projectMayWiden: true });
    expect(wide.policy.check(['touch', 'x']).decision).toBe('allow');
    expect(wide.warnings).toEqual([]);
  });
});
