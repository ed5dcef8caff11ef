// A scripted model for `rig eval` tests, served by the loopback mock provider: it reads each
// request (which task, which harness's tools, how many steps so far) and answers with harmless
// tool calls in that harness's vocabulary. Where `solves(task, harness)` says so it writes the
// task's reference solution (native: apply_patch; claude-code: Read then Write; Harbor tasks: the
// solve.sh script through the shell tool), otherwise it looks around, makes one failing edit (a
// tool error) and gives up. Everything it runs stays in the trial's sandboxed workspace.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { MockRequest, MockToolCall, MockTurn, MockTurnFn } from '../../support/mock-provider/index.js';
import type { EvalTask } from '../../../src/eval/tasks/types.js';

export type Solves = (taskId: string, harness: string) => boolean;

interface FileWrite {
  path: string;
  before: string;
  after: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function writesOf(task: EvalTask): FileWrite[] {
  if (task.solution?.kind !== 'overlay') return [];
  const dir = task.solution.dir;
  return filesUnder(dir).map((file) => {
    const path = relative(dir, file);
    const original = join(task.repo, path);
    return { path, before: existsSync(original) ? readFileSync(original, 'utf8') : '', after: readFileSync(file, 'utf8') };
  });
}

function lines(text: string): string[] {
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

function replacePatch(writes: FileWrite[]): string {
  const parts = ['*** Begin Patch'];
  for (const w of writes) {
    parts.push(`*** Update File: ${w.path}`, '@@', ...lines(w.before).map((l) => `-${l}`), ...lines(w.after).map((l) => `+${l}`));
  }
  parts.push('*** End Patch', '');
  return parts.join('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies are free-form JSON
function allText(body: any): string {
  return JSON.stringify(body.input ?? body.messages ?? []);
}

/** Model turns already taken: runs of consecutive tool-call items in the input. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function stepsTaken(body: any): number {
  let steps = 0;
  let inCalls = false;
  for (const item of body.input ?? []) {
    const isCall = item.type === 'function_call' || item.type === 'custom_tool_call';
    if (isCall && !inCalls) steps += 1;
    inCalls = isCall;
  }
  return steps;
}

export interface ScriptedModelOptions {
  tasks: EvalTask[];
  solves: Solves;
  /** Prompt tokens per request, by harness (defaults 1000 native, 1500 others). */
  inputTokens?: (harness: string) => number;
}

export function scriptedModel(options: ScriptedModelOptions): MockTurnFn {
  const byPrompt = options.tasks.map((task) => ({ task, writes: writesOf(task), script: task.solution?.kind === 'script' ? readFileSync(task.solution.file, 'utf8') : undefined }));
  return (request: MockRequest): MockTurn => {
    const body = request.body;
    const text = allText(body);
    const tools: string[] = (body.tools ?? []).map((tool: { name?: string }) => tool.name ?? '');
    const harness = tools.includes('exec_command') ? 'native' : tools.includes('Bash') ? 'claude-code' : 'unknown';
    const entry = byPrompt.find(({ task }) => text.includes(JSON.stringify(task.prompt).slice(1, -1)));
    const input = options.inputTokens?.(harness) ?? (harness === 'native' ? 1000 : 1500);
    const usage = { input_tokens: input, cached_input_tokens: Math.round(input * 0.4), output_tokens: 60, reasoning_output_tokens: 20 };
    if (!entry) return { text: 'I do not know this task.', usage };
    const cwd = /<cwd>([^<]+)<\/cwd>/.exec(text)?.[1] ?? '.';
    const step = stepsTaken(body);
    const solve = options.solves(entry.task.id, harness);
    const shell = (command: string): MockToolCall => (harness === 'native' ? { name: 'exec_command', arguments: { cmd: command } } : { name: 'Bash', arguments: { command } });
    const plan: MockTurn[] = [];
    if (solve && entry.writes.length > 0) {
      if (harness === 'native') {
        plan.push({ toolCalls: [shell(`cat ${entry.writes.map((w) => w.path).join(' ')}`)], usage });
        plan.push({ toolCalls: [{ name: 'apply_patch', kind: 'custom', input: replacePatch(entry.writes) }], usage });
      } else {
        plan.push({ toolCalls: entry.writes.map((w) => ({ name: 'Read', arguments: { file_path: join(cwd, w.path) } })), usage });
        plan.push({ toolCalls: entry.writes.map((w) => ({ name: 'Write', arguments: { file_path: join(cwd, w.path), content: w.after } })), usage });
      }
    } else if (solve && entry.script) {
      plan.push({ toolCalls: [shell('ls')], usage });
      plan.push({ toolCalls: [shell(entry.script)], usage });
    } else {
      plan.push({ toolCalls: [shell('ls')], usage });
      plan.push({
        toolCalls: [
          harness === 'native'
            ? { name: 'apply_patch', kind: 'custom', input: '*** Begin Patch\n*** Update File: no-such-file.txt\n@@\n-a\n+b\n*** End Patch\n' }
            : { name: 'Edit', arguments: { file_path: join(cwd, 'no-such-file.txt'), old_string: 'a', new_string: 'b' } },
        ],
        usage,
      });
    }
    return plan[step] ?? { text: solve ? 'Fixed; the tests should pass now.' : 'I could not fix it.', usage };
  };
}

/** The deterministic pass/fail pattern the eval tests use: native and claude-code each miss some tasks, differently. */
export function defaultSolves(tasks: EvalTask[]): Solves {
  const index = new Map(tasks.map((task, i) => [task.id, i]));
  return (taskId, harness) => {
    const i = index.get(taskId) ?? 0;
    return harness === 'native' ? i % 3 !== 0 : i % 4 !== 1;
  };
}
