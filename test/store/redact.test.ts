import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/protocol/index.js';
import {
  REDACTED,
  RolloutWriter,
  newThreadId,
  readGitInfo,
  redactSecrets,
  responseItemRecord,
  secretValuesFromEnv,
  stripUrlCredentials,
} from '../../src/store/index.js';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-redact-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe('redactSecrets', () => {
  it('replaces known values anywhere, including inside JSON-escaped strings', () => {
    const secret = 'sk-proj-"quoted"\\back';
    const value = { a: `key=${secret}`, nested: [{ b: secret }], n: 3 };
    expect(redactSecrets(value, [secret])).toEqual({ a: `key=${REDACTED}`, nested: [{ b: REDACTED }], n: 3 });
  });

  it('redacts credential headers as JSON fields and as text', () => {
    const value = {
      headers: { Authorization: 'Bearer abc.def', 'x-api-key': 'k-123456', accept: 'json' },
      cmd: "curl -H 'Authorization: Bearer tok_999' -H 'X-Api-Key: zzz' https://x",
    };
    const out = redactSecrets(value, []);
    expect(out.headers).toEqual({ Authorization: REDACTED, 'x-api-key': REDACTED, accept: 'json' });
    expect(out.cmd).toBe(`curl -H 'Authorization: ${REDACTED}' -H 'X-Api-Key: ${REDACTED}' https://x`);
  });

  it('ignores values too short to be secrets', () => {
    expect(redactSecrets({ a: 'abc def' }, ['abc'])).toEqual({ a: 'abc def' });
  });

  it('collects credential-looking env values and explicit excludes', () => {
    const env = { OPENAI_API_KEY: 'sk-aaaaaaaa', GH_TOKEN: 'ghp_bbbbbbbb', HOME: '/home/someone', CUSTOM: 'custom-secret' };
    expect(secretValuesFromEnv(env, ['CUSTOM']).sort()).toEqual(['custom-secret', 'ghp_bbbbbbbb', 'sk-aaaaaaaa']);
  });
});

describe('rollout files never contain secrets', () => {
  it('scans the written bytes for every secret', () => {
    const apiKey = 'sk-live-0123456789abcdef';
    const envSecret = 'hunter2-database-password';
    const writer = RolloutWriter.create({
      home,
      threadId: newThreadId(),
      meta: { cwd: '/repo', originator: 'rig', cli_version: '0.1.0', base_instructions: `use ${apiKey}` },
      secrets: [apiKey, envSecret],
    });
    writer.append(responseItemRecord(userText(`my key is ${apiKey} and db pw ${envSecret}`)));
    writer.append(responseItemRecord({ type: 'function_call_output', call_id: 'c', output: `Authorization: Bearer ${'x'.repeat(30)}` }));
    writer.append({ type: 'event_msg', payload: { type: 'request', headers: { authorization: `Bearer ${apiKey}` } } });
    writer.close();
    const bytes = fs.readFileSync(writer.path);
    expect(bytes.includes(apiKey)).toBe(false);
    expect(bytes.includes(envSecret)).toBe(false);
    expect(bytes.includes('x'.repeat(30))).toBe(false);
    expect(bytes.toString('utf8').split(REDACTED).length - 1).toBeGreaterThanOrEqual(4);
  });
});

describe('readGitInfo', () => {
  it('reads branch, commit and a credential-free origin without spawning git per call', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-git-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' }).toString().trim();
      git('init', '-q', '-b', 'feature');
      git('remote', 'add', 'origin', 'https://user:ghp_secret@github.com/o/r.git');
      fs.writeFileSync(path.join(repo, 'f'), 'x');
      git('add', 'f');
      git('commit', '-q', '-m', 'init');
      const sha = git('rev-parse', 'HEAD');
      fs.mkdirSync(path.join(repo, 'sub'));
      expect(readGitInfo(path.join(repo, 'sub'))).toEqual({
        branch: 'feature',
        commit_hash: sha,
        repository_url: 'https://github.com/o/r.git',
      });
      git('pack-refs', '--all');
      expect(readGitInfo(repo)?.commit_hash).toBe(sha);
      // A linked worktree has a .git file; refs and config live in the common dir.
      const worktree = path.join(repo, 'wt');
      git('worktree', 'add', '-q', '-b', 'side', worktree);
      expect(readGitInfo(worktree)).toEqual({ branch: 'side', commit_hash: sha, repository_url: 'https://github.com/o/r.git' });
      const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'rig-nogit-'));
      expect(readGitInfo(plain)).toBeUndefined();
      fs.rmSync(plain, { recursive: true });
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('strips userinfo from URLs', () => {
    expect(stripUrlCredentials('https://a:b@host/x')).toBe('https://host/x');
    expect(stripUrlCredentials('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
  });
});
