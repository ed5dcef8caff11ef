import { describe, expect, it } from 'vitest';
import { ExecPolicyLoadError, parseRules } from '../../../src/policy/index.js';

function loadError(text: string, file = 'team.rules'): ExecPolicyLoadError {
  try {
    parseRules(text, file);
  } catch (error) {
    if (error instanceof ExecPolicyLoadError) return error;
    throw error;
  }
  throw new Error('expected the rules to fail to load');
}

describe('rules parser: valid files', () => {
  it('reads comments, both quote styles, escapes, nested alternatives, trailing commas and several calls', () => {
    const policy = parseRules(
      [
        '# team rules',
        'prefix_rule(',
        '    pattern = ["git", ["push", "fetch"],],  # alternatives',
        "    decision = 'prompt',",
        '    justification = "say \\"why\\"\\ttab",',
        ')',
        'prefix_rule(pattern=[\'rm\'], decision="forbidden"); prefix_rule(pattern=["ls"])',
        '',
      ].join('\n'),
      'team.rules',
    );
    const rules = policy.rules;
    expect(rules.map((rule) => [rule.program, rule.rest, rule.decision])).toEqual([
      ['git', [['push', 'fetch']], 'prompt'],
      ['rm', [], 'forbidden'],
      ['ls', [], 'allow'],
    ]);
    expect(rules[0]!.justification).toBe('say "why"\ttab');
    expect(rules[0]!.source).toEqual({ file: 'team.rules', line: 2, column: 1 });
    expect(rules[1]!.source).toEqual({ file: 'team.rules', line: 7, column: 1 });
    expect(rules[2]!.source).toEqual({ file: 'team.rules', line: 7, column: 52 });
  });

  it('splits alternatives in the first position into one rule per program', () => {
    const policy = parseRules('prefix_rule(pattern=[["npm", "pnpm"], "install"], decision="prompt")', 'a.rules');
    expect(policy.rules.map((rule) => rule.program)).toEqual(['npm', 'pnpm']);
    expect(policy.check(['pnpm', 'install', 'x']).decision).toBe('prompt');
  });

  it('accepts positional arguments in the builtin order, assignments, raw and triple-quoted strings, \\x and \\u escapes', () => {
    const policy = parseRules(
      [
        'GIT_READS = ["status", "log"]',
        'prefix_rule(["git", GIT_READS], "allow", justification = r"raw\\d")',
        'prefix_rule(pattern = ["echo", """multi',
        'line"""], justification = "\\x41\\u00e9")',
      ].join('\n'),
      'b.rules',
    );
    const [git, echo] = policy.rules;
    expect(git!.rest).toEqual([['status', 'log']]);
    expect(git!.justification).toBe('raw\\d');
    expect(echo!.rest).toEqual(['multi\nline']);
    expect(echo!.justification).toBe('Aé');
  });

  it('treats a one-element alternative list as a plain token and keeps None for optional arguments', () => {
    const policy = parseRules('prefix_rule(pattern=["git", ["status"]], decision=None, justification=None)', 'c.rules');
    expect(policy.rules[0]!.rest).toEqual(['status']);
    expect(policy.rules[0]!.decision).toBe('allow');
    expect(policy.rules[0]!.justification).toBeUndefined();
  });

  it('reads network_rule and host_executable', () => {
    const policy = parseRules(
      [
        'network_rule(host = "API.Example.com:443", protocol = "https_connect", decision = "deny", justification = "no")',
        'host_executable(name = "git", paths = ["/usr/bin/git", "/usr/bin/git", "~/bin/git"])',
      ].join('\n'),
      'd.rules',
      { homeDir: '/home/tester' },
    );
    expect(policy.networkRules).toEqual([
      { host: 'api.example.com', protocol: 'https', decision: 'forbidden', justification: 'no', source: { file: 'd.rules', line: 1, column: 1 } },
    ]);
    expect(policy.hostExecutables.get('git')).toEqual(['/usr/bin/git', '/home/tester/bin/git']);
  });

  it('loads an empty file and a file of only comments', () => {
    expect(parseRules('', 'e.rules').rules).toEqual([]);
    expect(parseRules('# nothing\n\n   # here\n', 'e.rules').rules).toEqual([]);
  });
});

describe('rules parser: every error names file:line:col with what was expected', () => {
  const cases: Array<[string, string, string]> = [
    ['unterminated string', 'prefix_rule(pattern=["git)\n', 'team.rules:1:22: unterminated string (expected a closing " before the end of the line)'],
    ['unterminated triple string', 'x = """abc\n', 'team.rules:1:5: unterminated string (expected a closing """)'],
    ['invalid escape', 'prefix_rule(pattern=["a\\qb"])', 'team.rules:1:24: invalid escape sequence \\q (expected one of \\n \\t \\r \\\\ \\\' \\" \\xHH \\uHHHH)'],
    ['bad hex escape', 'prefix_rule(pattern=["\\xZZ"])', 'team.rules:1:23: invalid escape sequence \\x (expected 2 hex digits)'],
    ['unexpected character', 'prefix_rule(pattern=["a"]) @', "team.rules:1:28: unexpected character '@' (expected a name, a string, a list or a call)"],
    ['missing comma in list', 'prefix_rule(\n  pattern=["a" "b"])', 'team.rules:2:16: two strings next to each other (expected a , between list items (Starlark does not join adjacent strings))'],
    ['missing comma between arguments', 'prefix_rule(pattern=["a"] decision="allow")', "team.rules:1:27: unexpected name 'decision' in the call to prefix_rule() opened at line 1 (expected , or ))"],
    ['unclosed call at end of file', 'prefix_rule(pattern=["a"],\n', 'team.rules:2:1: unexpected end of file (expected a value: a string, a list, a name or a call)'],
    ['unclosed list', 'prefix_rule(pattern=["a",', 'team.rules:1:26: unexpected end of file (expected a value: a string, a list, a name or a call)'],
    ['missing value', 'prefix_rule(pattern=)', "team.rules:1:21: unexpected ')' (expected a value: a string, a list, a name or a call)"],
    ['statement that is not a call', '"just a string"', 'team.rules:1:1: unexpected string at the start of a statement (expected a call such as prefix_rule(...) or an assignment NAME = value)'],
    ['two statements on one line', 'prefix_rule(pattern=["a"]) prefix_rule(pattern=["b"])', "team.rules:1:28: unexpected name 'prefix_rule' after a statement (expected a new line or ;)"],
    ['positional after keyword', 'prefix_rule(pattern=["a"], "allow")', 'team.rules:1:28: positional argument after a keyword argument (expected keyword=value)'],
    ['unknown function', '\n\nallow_rule(pattern=["a"])', "team.rules:3:1: unknown function 'allow_rule' (expected prefix_rule, network_rule or host_executable)"],
    ['unknown keyword', 'prefix_rule(pattern=["a"], decison="allow")', "team.rules:1:28: prefix_rule() got an unexpected keyword argument 'decison' (expected one of pattern, decision, match, not_match, justification)"],
    ['duplicate keyword', 'prefix_rule(pattern=["a"], pattern=["b"])', "team.rules:1:28: prefix_rule() got multiple values for argument 'pattern'"],
    ['too many positional', 'host_executable("git", [], "x")', 'team.rules:1:28: host_executable() takes at most 2 positional arguments (expected keyword=value)'],
    ['missing pattern', '  prefix_rule(decision="allow")', "team.rules:1:3: prefix_rule() is missing required argument 'pattern'"],
    ['undefined name', 'prefix_rule(pattern=READS)', "team.rules:1:21: undefined name 'READS' (expected a string, a list, or a name assigned earlier in the file)"],
    ['assigning a builtin', 'prefix_rule = 1', 'team.rules:1:1: cannot assign to the builtin prefix_rule'],
    ['pattern not a list', 'prefix_rule(pattern="git")', 'team.rules:1:21: pattern must be a list (got string)'],
    ['empty pattern', 'prefix_rule(pattern=[])', 'team.rules:1:21: invalid pattern element: pattern cannot be empty'],
    ['empty alternatives', 'prefix_rule(pattern=["git", []])', 'team.rules:1:29: invalid pattern element: pattern alternatives cannot be empty'],
    ['non-string alternative', 'prefix_rule(pattern=["git", ["a", ["b"]]])', 'team.rules:1:35: invalid pattern element: pattern alternative must be a string (got list)'],
    ['number in pattern', 'prefix_rule(pattern=["head", 5])', 'team.rules:1:30: invalid pattern element: pattern element must be a string or list of strings (got int)'],
    ['bad decision', 'prefix_rule(pattern=["a"], decision="deny")', 'team.rules:1:37: invalid decision: deny (expected allow, prompt or forbidden)'],
    ['decision not a string', 'prefix_rule(pattern=["a"], decision=True)', 'team.rules:1:37: decision must be a string (got bool)'],
    ['blank justification', 'prefix_rule(pattern=["a"], justification="  ")', 'team.rules:1:42: invalid rule: justification cannot be empty (expected a reason, or leave justification out)'],
    ['example of wrong type', 'prefix_rule(pattern=["a"], match=[1])', 'team.rules:1:35: invalid example: example must be a string or list of strings (got int)'],
    ['example token of wrong type', 'prefix_rule(pattern=["a"], match=[["a", 1]])', 'team.rules:1:41: invalid example: example tokens must be strings (got int)'],
    ['empty example list', 'prefix_rule(pattern=["a"], match=[[]])', 'team.rules:1:35: invalid example: example cannot be an empty list'],
    ['empty example string', 'prefix_rule(pattern=["a"], not_match=["  "])', 'team.rules:1:39: invalid example: example cannot be an empty string'],
    ['unbalanced example quotes', 'prefix_rule(pattern=["a"], match=["a \'b"])', "team.rules:1:35: invalid example: example string has invalid shell syntax (expected balanced quotes)"],
    ['bad network protocol', 'network_rule(host="a.com", protocol="ftp", decision="allow")', 'team.rules:1:37: invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got ftp)'],
    ['network host with scheme', 'network_rule(host="https://a.com", protocol="https", decision="allow")', 'team.rules:1:19: invalid rule: network_rule host must be a hostname or IP literal (without scheme or path)'],
    ['network wildcard', 'network_rule(host="*.a.com", protocol="https", decision="allow")', 'team.rules:1:19: invalid rule: network_rule host must be a specific host; wildcards are not allowed'],
    ['host executable path not absolute', 'host_executable(name="git", paths=["bin/git"])', 'team.rules:1:36: invalid rule: host_executable paths must be absolute or use `~/...` home-relative syntax (got bin/git)'],
    ['host executable wrong basename', 'host_executable(name="git", paths=["/usr/bin/hg"])', 'team.rules:1:36: invalid rule: host_executable path `/usr/bin/hg` must have basename `git`'],
    ['host executable name with slash', 'host_executable(name="bin/git", paths=[])', 'team.rules:1:22: invalid rule: host_executable name must be a bare executable name (got bin/git)'],
  ];

  it.each(cases)('%s', (_label, text, message) => {
    const error = loadError(text);
    expect(error.message).toBe(message);
    expect(error.file).toBe('team.rules');
    expect(`${error.file}:${error.line}:${error.column}: ${error.detail}`).toBe(message);
  });
});
