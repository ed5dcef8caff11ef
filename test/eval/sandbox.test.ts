// A trial's agent runs under rig's sandbox with only its own workspace (and its own TMPDIR)
// writable: not /tmp, where the other trials' workspaces live, and not the trial folder around it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TrialResult } from '../../src/eval/results.js';
import { startMockProvider, type MockRequest, type MockTurn } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempRigHome } from '../support/workspace.js';
import { RUNNERS, runnerFlags } from './support/runners.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe.each(RUNNERS)('the agent sandbox of a trial (%s runner)', (runner) => {
  it('lets the agent write its workspace and TMPDIR only', async () => {
    const cwd = tempDir('eval-sandbox');
    dirs.push(cwd);
    const escape = join(cwd, 'escaped.txt');
    const mock = await startMockProvider();
    const model = (request: MockRequest): MockTurn => {
      const steps = (request.body.input ?? []).filter((item: { type: string }) => item.type === 'function_call').length;
      if (steps > 0) return { text: 'done' };
      const cmd = `echo in > inside.txt; echo tmp > "$TMPDIR/t.txt" && echo tmpdir-ok; echo out > ${escape} || echo denied-outside; echo out > ../sibling.txt || echo denied-sibling; echo out > /tmp/rig-eval-escape-$$ || echo denied-tmp`;
      return { toolCalls: [{ name: 'exec_command', arguments: { cmd } }] };
    };
    mock.enqueue(model, model);
    const home = tempRigHome({ url: mock.url });
    dirs.push(home);
    mkdirSync(join(cwd, 'repo'));
    writeFileSync(join(cwd, 'repo', 'README'), 'x\n');
    writeFileSync(join(cwd, 'tasks.jsonl'), `${JSON.stringify({ id: 'escape', repo: 'repo', prompt: 'write files', check: 'test -f inside.txt' })}\n`);
    try {
      const run = await runRig(['eval', join(cwd, 'tasks.jsonl'), '--harness', 'native', '--model', 'mock-model', '--provider', 'mock', '--out', join(cwd, 'run'), ...runnerFlags(runner)], { cwd, home });
      expect(run.code, run.stderr).toBe(0);
      const [result] = jsonLines(readFileSync(join(cwd, 'run', 'results.jsonl'), 'utf8')) as unknown as TrialResult[];
      expect(result!.status).toBe('passed');
      const output = JSON.stringify(mock.requests[1]!.body.input);
      expect(output).toContain('tmpdir-ok');
      expect(output).toContain('denied-outside');
      expect(output).toContain('denied-sibling');
      expect(output).toContain('denied-tmp');
      expect(existsSync(escape)).toBe(false);
    } finally {
      await mock.close();
    }
  }, 120_000);
});
