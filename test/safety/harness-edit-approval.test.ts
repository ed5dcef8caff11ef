// A harness edit tool outside the workspace goes to the orchestrator like apply_patch does: it is
// asked about under on-request (and written once approved), refused under never.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fnCall, openScriptedSession, writeRigHome } from './scripted-session.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-harness-edit-approval-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

async function claudeSession(policy: 'on-request' | 'never') {
  const home = path.join(base, `home-${policy}`);
  const ws = path.join(base, `ws-${policy}`);
  fs.mkdirSync(ws, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  writeRigHome(home, '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
  return openScriptedSession({ home, cwd: ws, mode: 'interactive', flags: { sandbox: 'workspace-write', askForApproval: policy, harness: 'claude-code' } });
}

describe('harness edits outside the workspace', () => {
  it('asks under on-request and writes once approved', async () => {
    const session = await claudeSession('on-request');
    const target = path.join(base, 'approved.txt');
    session.answer = 'approve';
    const result = await session.call(fnCall('Write', { file_path: target, content: 'hello' }, 'w1'));
    expect(session.asked).toEqual([expect.objectContaining({ kind: 'file_change', paths: [target] })]);
    expect(fs.readFileSync(target, 'utf8')).toBe('hello');
    expect(result.output).not.toMatch(/failed/i);
    await session.close();
  });

  it('is refused under never without asking, and nothing is written', async () => {
    const session = await claudeSession('never');
    const target = path.join(base, 'refused.txt');
    const result = await session.call(fnCall('Write', { file_path: target, content: 'hello' }, 'w2'));
    expect(session.asked).toEqual([]);
    expect(result.output).toMatch(/^Write failed: writing outside of the project; rejected by user approval settings/);
    expect(fs.existsSync(target)).toBe(false);
    await session.close();
  });
});
