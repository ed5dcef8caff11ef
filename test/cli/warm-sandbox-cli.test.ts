// Sandboxes started ahead of their command, through the built `rig exec` with the real
// bubblewrap: later commands of a session run in them, and none is left running when rig exits.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'a.txt': 'a\n' });
  home = tempRigHome({ url: mock.url, wire: 'responses' });
});

afterAll(async () => {
  await mock.close();
  for (const dir of [repo, home]) removeDir(dir);
});

/** Live processes whose command line names `text` (a bwrap binding the test's workspace). */
function processesNaming(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(text)) found.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/** Clock ticks (1/100 s) between the start of the sandbox's init and of a process the command starts now. */
const SANDBOX_AGE = "now=$(cut -d' ' -f22 /proc/self/stat); init=$(cut -d' ' -f22 /proc/1/stat); echo \"sandbox age $((now - init))\"";

function ageOf(output: string | undefined): number {
  const match = /sandbox age (\d+)/.exec(output ?? '');
  if (!match) throw new Error(`no sandbox age in ${JSON.stringify(output)}`);
  return Number(match[1]);
}

async function outputsOf(env: Record<string, string>): Promise<string[]> {
  // The first command runs for 0.4 s; a copy started after it began is that much older than the
  // second command when the second runs in it. A sandbox of its own is as old as the command.
  mock.enqueue(
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'sleep 0.4; echo first' } }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: SANDBOX_AGE } }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'echo third > third.txt && cat third.txt' } }] },
    { text: 'done' },
  );
  const before = mock.requests.length;
  const run = await runRig(['exec', '--json', '--sandbox', 'workspace-write', 'run three commands'], { cwd: repo, home, env });
  expect(run.code, run.stderr).toBe(0);
  const outputs = mock.requests.slice(before + 1).map((request) => {
    const items = request.body.input as { type: string; output?: unknown }[];
    return String(items.filter((item) => item.type === 'function_call_output').at(-1)?.output ?? '');
  });
  // Every sandbox of the run is gone once rig has exited: the idle copy too.
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline && processesNaming(repo).length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(processesNaming(repo)).toEqual([]);
  return outputs;
}

describe('rig exec with sandboxes started ahead', () => {
  it('runs the second and later commands in a copy, and leaves none behind', async () => {
    const outputs = await outputsOf({});
    expect(outputs[0]).toContain('first');
    expect(ageOf(outputs[1])).toBeGreaterThanOrEqual(30);
    expect(outputs[2]).toContain('third');
  });

  it('with RIG_WARM_SANDBOX=0 every command gets a sandbox of its own', async () => {
    const outputs = await outputsOf({ RIG_WARM_SANDBOX: '0' });
    expect(outputs[0]).toContain('first');
    expect(ageOf(outputs[1])).toBeLessThan(20);
    expect(outputs[2]).toContain('third');
  });
});
