import { describe, expect, test } from 'vitest';
import { hookToolIdentity, matcherInputsFor, matcherMatches, matcherProblem } from '../../src/hooks/index.js';

const matches = (matcher: string | undefined, tool: string, capability?: string) =>
  matcherMatches(matcher, matcherInputsFor(hookToolIdentity(tool, capability)));

describe('matchers', () => {
  test('missing, empty and * match everything', () => {
    for (const m of [undefined, '', '*']) expect(matcherMatches(m, ['anything'])).toBe(true);
  });

  test('plain names match exactly, | separates alternatives', () => {
    expect(matcherMatches('Bash', ['Bash'])).toBe(true);
    expect(matcherMatches('Bash', ['BashOutput'])).toBe(false);
    expect(matcherMatches('Edit|Write', ['Write'])).toBe(true);
    expect(matcherMatches('Edit|Write', ['Read'])).toBe(false);
    expect(matcherMatches('mcp__memory', ['mcp__memory__create_entities'])).toBe(false);
  });

  test('anything else is a regular expression searched in the name', () => {
    expect(matcherMatches('^Bash', ['BashOutput'])).toBe(true);
    expect(matcherMatches('Notebook.*', ['NotebookEdit'])).toBe(true);
    expect(matcherMatches('mcp__.*__write.*', ['mcp__filesystem__write_file'])).toBe(true);
    expect(matcherMatches('mcp__.*__write.*', ['mcp__filesystem__read_file'])).toBe(false);
    expect(matcherProblem('[')).toMatch(/not a valid regular expression/);
    // Rust's inline case-insensitive flag, which Codex configs may use.
    expect(matcherMatches('(?i)^bash$', ['Bash'])).toBe(true);
    expect(matcherProblem('(?i)^bash$')).toBeUndefined();
    expect(matcherProblem('Edit|Write')).toBeUndefined();
  });
});

describe('tool names across harnesses', () => {
  test('an Edit|Write hook selects every harness\'s edit and write tools, and apply_patch', () => {
    expect(matches('Edit|Write', 'Edit', 'fs.edit')).toBe(true); // Claude Code
    expect(matches('Edit|Write', 'edit', 'fs.edit')).toBe(true); // opencode, Qwen Code
    expect(matches('Edit|Write', 'write_file', 'fs.write')).toBe(true); // Qwen Code
    expect(matches('Edit|Write', 'StrReplaceFile', 'fs.edit')).toBe(true); // Kimi CLI
    expect(matches('Edit|Write', 'apply_patch', 'native.apply_patch')).toBe(true); // rig, Codex
    expect(matches('Edit|Write', 'Bash', 'shell.bash')).toBe(false);
    expect(matches('Edit|Write', 'read_file', 'fs.read')).toBe(false);
  });

  test('Write alone does not select an edit, but apply_patch may do either', () => {
    expect(matches('Write', 'Edit', 'fs.edit')).toBe(false);
    expect(matches('Write', 'edit', 'fs.edit')).toBe(false);
    expect(matches('Write', 'apply_patch', 'native.apply_patch')).toBe(true);
    expect(matches('apply_patch', 'Edit', 'fs.edit')).toBe(true);
  });

  test('every shell tool answers to Bash; the native shell is written as Bash on stdin', () => {
    expect(matches('Bash', 'run_shell_command', 'shell.bash')).toBe(true);
    expect(matches('Bash', 'exec_shell', 'shell.bash')).toBe(true);
    expect(matches('run_shell_command', 'Bash', 'shell.bash')).toBe(true);
    expect(hookToolIdentity('exec_command', 'native.exec_command').name).toBe('Bash');
    expect(hookToolIdentity('run_shell_command', 'shell.bash').name).toBe('run_shell_command');
    expect(hookToolIdentity('apply_patch', 'native.apply_patch')).toMatchObject({ name: 'apply_patch' });
    expect(hookToolIdentity('apply_patch', 'native.apply_patch').aliases).toEqual(expect.arrayContaining(['Edit', 'Write']));
  });

  test('tools are recognised by name when the capability is not known; MCP tools match only themselves', () => {
    expect(matches('Edit', 'MultiEdit')).toBe(true);
    const mcp = hookToolIdentity('mcp__fs__write_file');
    expect(mcp).toEqual({ name: 'mcp__fs__write_file', aliases: [] });
  });
});
