// Claude Code's Agent with `isolation: "worktree"` through the real CLI: the child starts in a git
// worktree of its own (under .rig/worktrees, on its own branch), its edit lands there and not in
// the parent's checkout, and the root is told where the changes are; a child that changed nothing
// has its worktree removed. Outside git the option is an error the model can act on.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { removeDir, runRig, tempDir, tempGitRepo } from '../../support/workspace.js';
import { agentsHome, CHILD_MODEL, inputTexts, ROOT_MODEL, scriptByModel } from '../../support/agents-home.js';

let mock: MockProvider;
const dirs: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) removeDir(dir);
});

const agent = (prompt: string) => ({ id: 'call_agent', name: 'Agent', arguments: { description: 'Implement fix', prompt, subagent_type: 'implementer', isolation: 'worktree' } });

function worktreesOf(repo: string): string[] {
  const dir = join(repo, '.rig', 'worktrees');
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe('Agent isolation "worktree" (claude-code)', () => {
  test('the child edits its own worktree; the root is told the path and branch; the checkout is untouched', async () => {
    const repo = realpathSync(tempGitRepo({ 'a.txt': 'alpha\n' }));
    const home = agentsHome(mock.url);
    dirs.push(repo, home);
    const seen = scriptByModel(mock, {
      [ROOT_MODEL]: [{ toolCalls: [agent('Replace alpha with ALPHA in a.txt.')] }, { text: 'All done.' }],
      [CHILD_MODEL]: [
        { toolCalls: [{ id: 'call_pwd', name: 'Bash', arguments: { command: 'pwd; git branch --show-current' } }] },
        { toolCalls: [{ id: 'call_read', name: 'Read', arguments: { file_path: 'a.txt' } }] },
        { toolCalls: [{ id: 'call_edit', name: 'Edit', arguments: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }] },
        { text: 'Changed a.txt.' },
      ],
    });
    const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', 'fix a.txt'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    const [name] = worktreesOf(repo);
    expect(name).toMatch(/^agent-implement_fix-[0-9a-f]{6}$/);
    const wt = join(repo, '.rig', 'worktrees', name!);
    expect(inputTexts(seen[CHILD_MODEL]![1]!).at(-1)).toContain(`${wt}\nworktree-${name}`);
    expect(readFileSync(join(wt, 'a.txt'), 'utf8')).toBe('ALPHA\n');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    const reply = inputTexts(seen[ROOT_MODEL]![1]!).at(-1)!;
    expect(reply).toMatch(/^Changed a\.txt\.\n\nagentId: /);
    expect(reply).toContain(`The agent worked in its own git worktree; its changes are at ${wt} on branch worktree-${name}`);
  });

  test('a child that changes nothing has its worktree removed; outside git the option is refused', async () => {
    const repo = realpathSync(tempGitRepo({ 'a.txt': 'alpha\n' }));
    const home = agentsHome(mock.url);
    dirs.push(repo, home);
    const seen = scriptByModel(mock, {
      [ROOT_MODEL]: [{ toolCalls: [agent('Look at a.txt.')] }, { text: 'ok' }],
      [CHILD_MODEL]: [{ toolCalls: [{ id: 'call_read', name: 'Read', arguments: { file_path: 'a.txt' } }] }, { text: 'It says alpha.' }],
    });
    const run = await runRig(['exec', '--json', '--harness', 'claude-code', '-s', 'workspace-write', 'look'], { cwd: repo, home });
    expect(run.code, run.stderr).toBe(0);
    expect(inputTexts(seen[ROOT_MODEL]![1]!).at(-1)).toContain('changed nothing there, so the worktree was removed');
    expect(worktreesOf(repo)).toEqual([]);

    const plain = realpathSync(tempDir('plain'));
    dirs.push(plain);
    const refused = scriptByModel(mock, { [ROOT_MODEL]: [{ toolCalls: [agent('Look.')] }, { text: 'ok' }] });
    const outside = await runRig(['exec', '--json', '--skip-git-repo-check', '--harness', 'claude-code', '-s', 'workspace-write', 'look'], { cwd: plain, home });
    expect(outside.code, outside.stderr).toBe(0);
    expect(inputTexts(refused[ROOT_MODEL]![1]!).at(-1)).toContain(`isolation "worktree" needs a git repository, and ${plain} is not in one`);
  });
});
