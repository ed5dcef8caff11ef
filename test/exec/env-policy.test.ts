import { describe, expect, it } from 'vitest';
import { buildCommandEnv, envPatternMatches } from '../../src/exec/env-policy.js';

const base = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  USER: 'u',
  LANG: 'en_US.UTF-8',
  FOO: 'bar',
  GITHUB_TOKEN: 'gh',
  AWS_SECRET_ACCESS_KEY: 'aws',
  OPENAI_API_KEY: 'sk-1',
  ANTHROPIC_API_KEY: 'sk-2',
  UNSET: undefined,
};
const providerKeys = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

describe('buildCommandEnv', () => {
  it('inherits everything by default but never a provider key', () => {
    const env = buildCommandEnv(base, { inherit: 'all' }, providerKeys);
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'en_US.UTF-8',
      FOO: 'bar',
      GITHUB_TOKEN: 'gh',
      AWS_SECRET_ACCESS_KEY: 'aws',
    });
  });

  it('keeps only core variables with inherit = core', () => {
    expect(buildCommandEnv(base, { inherit: 'core' }, providerKeys)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'en_US.UTF-8',
    });
  });

  it('starts empty with inherit = none and applies set', () => {
    expect(buildCommandEnv(base, { inherit: 'none', set: { ONLY: 'yes' } })).toEqual({ ONLY: 'yes' });
  });

  it('applies the default excludes only when ignore_default_excludes = false', () => {
    const withDefaults = buildCommandEnv(base, { ignoreDefaultExcludes: false });
    expect(Object.keys(withDefaults).sort()).toEqual(['FOO', 'HOME', 'LANG', 'PATH', 'USER']);
    const ignored = buildCommandEnv(base, { ignoreDefaultExcludes: true });
    expect(ignored.GITHUB_TOKEN).toBe('gh');
  });

  it('drops exclude matches case-insensitively and restores via set', () => {
    const env = buildCommandEnv(base, { exclude: ['f*', 'h?me'], set: { FOO: 'override' } });
    expect(env.HOME).toBeUndefined();
    expect(env.FOO).toBe('override');
  });

  it('keeps only include_only matches, after set', () => {
    const env = buildCommandEnv(base, { includeOnly: ['*PATH', 'NEW'], set: { NEW: '1', OTHER: '2' } });
    expect(env).toEqual({ PATH: '/usr/bin', NEW: '1' });
  });

  it('lets a provider key through only when the user names it in set or include_only', () => {
    expect(buildCommandEnv(base, { set: { OPENAI_API_KEY: 'mine' } }, providerKeys).OPENAI_API_KEY).toBe('mine');
    const named = buildCommandEnv(base, { includeOnly: ['OPENAI_API_KEY', 'PATH'] }, providerKeys);
    expect(named).toEqual({ OPENAI_API_KEY: 'sk-1', PATH: '/usr/bin' });
    // A wildcard that happens to match is not naming it.
    const wildcard = buildCommandEnv(base, { includeOnly: ['*_API_KEY'] }, providerKeys);
    expect(wildcard).toEqual({});
  });

  it('does not touch its input', () => {
    const copy = { ...base };
    buildCommandEnv(base, { exclude: ['*'] }, providerKeys);
    expect(base).toEqual(copy);
  });
});

describe('envPatternMatches', () => {
  it('treats * and ? as wildcards and everything else literally', () => {
    expect(envPatternMatches('*KEY*', 'my_key_file')).toBe(true);
    expect(envPatternMatches('A?C', 'abc')).toBe(true);
    expect(envPatternMatches('A.C', 'ABC')).toBe(false);
    expect(envPatternMatches('PATH', 'MANPATH')).toBe(false);
  });
});
