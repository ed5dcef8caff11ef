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

// Start times in clock ticks since boot (/proc/<pid>/stat field 22), the same clock in every PID
// namespace. The first command prints when it ended (a process it starts last); the second prints
// when its sandbox's init started. A sandbox of its own starts after the first command ended; a
// copy started ahead started while the first command ran (it sleeps 0.4 s, so the two are apart).
const FIRST = "sleep 0.4; echo \"first ended at $(cut -d' ' -f22 /proc/self/stat)\"";
const SECOND = "echo \"sandbox started at $(cut -d' ' -f22 /proc/1/stat)\"";

function tickOf(output: string | undefined, label: string): number {
  const match = new RegExp(`${label} (\\d+)`).exec(output ?? '');
  if (!match) throw new Error(`no "${label}" in ${JSON.stringify(output)}`);
  return Number(match[1]);
}

async function outputsOf(env: Record<string, string>): Promise<{ firstEnded: number; secondStarted: number; third: string }> {
  mock.enqueue(
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: FIRST } }] },
    { toolCalls: [{ name: 'exec_command', arguments: { cmd: SECOND } }] },
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
  return { firstEnded: tickOf(outputs[0], 'first ended at'), secondStarted: tickOf(outputs[1], 'sandbox started at'), third: outputs[2] ?? '' };
}

describe('rig exec with sandboxes started ahead', () => {
  it('runs the second and later commands in a copy, and leaves none behind', async () => {
    const run = await outputsOf({});
    expect(run.secondStarted).toBeLessThan(run.firstEnded);
    expect(run.third).toContain('third');
  });

  it('with RIG_WARM_SANDBOX=0 every command gets a sandbox of its own', async () => {
    const run = await outputsOf({ RIG_WARM_SANDBOX: '0' });
    expect(run.secondStarted).toBeGreaterThanOrEqual(run.firstEnded);
    expect(run.third).toContain('third');
  });
});
