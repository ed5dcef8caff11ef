// The conformance scenario every harness plays on the loopback mock, in its own tool names and
// argument shapes: read app.js, fix a typo in it, run it, finish. The final file is checked byte
// for byte; what the model read back is checked in the request bodies that follow.
import { join } from 'node:path';
import { systemInformation } from '../../src/harness/instance-template.js';
import type { MockTurn } from '../support/mock-provider/index.js';

export const APP_BEFORE = "const name = 'wrold';\nconsole.log(`Hello, ${name}!`);\n";
export const APP_AFTER = "const name = 'world';\nconsole.log(`Hello, ${name}!`);\n";
export const PROMPT = 'Fix the greeting in app.js and run it.';
export const FINAL_TEXT = 'Fixed the typo; node app.js prints Hello, world!';

export interface HarnessScript {
  /** --provider for the run (a built-in id re-pointed at the mock, or the temp config's `mock`). */
  provider: string;
  /** One mock turn per model request, in order. */
  turns(repo: string): MockTurn[];
  /** The agent message that ends the run. */
  finalMessage: string;
  /** Request numbers (1-based) whose body must contain the file as read, and the run's output. */
  sawFileAt: number;
  sawRunAt: number;
  /** Text protocols: a request that must carry the model's own earlier reply text. */
  echoed?: { at: number; text: string };
  /** SWE-agent: the request that must carry the review of the first submit (with the diff). */
  sawReviewAt?: number;
  /** Terminus 2: the request that must carry the completion check. */
  sawCheckAt?: number;
  /** Texts the first request must carry (the instance templates: the task, system information, screen). */
  firstRequestHas?: string[];
  /** Extra `rig exec` flags (Terminus drives a tmux server that must outlive each command). */
  flags?: string[];
}

const call = (name: string, args: Record<string, unknown>): MockTurn => ({ toolCalls: [{ name, arguments: args }] });
const text = (value: string): MockTurn => ({ text: value });
const done = text(FINAL_TEXT);

const PATCH = `*** Begin Patch
*** Update File: app.js
@@
-const name = 'wrold';
+const name = 'world';
*** End Patch`;

/** Claude-lineage tools: Read/Edit/Bash with file_path, old_string, new_string. */
function claudeLike(provider: string, read: string, edit: string, bash: string, pathKey = 'file_path'): HarnessScript {
  return {
    provider,
    turns: (repo) => [
      call(read, { [pathKey]: join(repo, 'app.js') }),
      call(edit, { [pathKey]: join(repo, 'app.js'), old_string: "'wrold'", new_string: "'world'" }),
      call(bash, { command: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  };
}

function piLike(): HarnessScript {
  return {
    provider: 'mock',
    turns: (repo) => [
      call('read', { path: join(repo, 'app.js') }),
      call('edit', { path: join(repo, 'app.js'), edits: [{ oldText: "'wrold'", newText: "'world'" }] }),
      call('bash', { command: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  };
}

function nativeLike(): HarnessScript {
  return {
    provider: 'mock',
    turns: () => [
      call('exec_command', { cmd: 'cat app.js' }),
      { toolCalls: [{ name: 'apply_patch', kind: 'custom', input: PATCH }] },
      call('exec_command', { cmd: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  };
}

/** What SWE-agent's submit hands in for the scenario: the fix as `git diff` prints it. */
export const APP_PATCH = [
  'diff --git a/app.js b/app.js',
  'index 628bdb9..a79fd70 100644',
  '--- a/app.js',
  '+++ b/app.js',
  '@@ -1,2 +1,2 @@',
  "-const name = 'wrold';",
  "+const name = 'world';",
  ' console.log(`Hello, ${name}!`);',
].join('\n');

const terminus = (analysis: string, commands: { keystrokes: string; duration?: number }[], complete = false): MockTurn =>
  text(JSON.stringify({ analysis, plan: analysis, commands, ...(complete ? { task_complete: true } : {}) }, null, 2));

export const SCRIPTS: Record<string, HarnessScript> = {
  'claude-code': claudeLike('anthropic', 'Read', 'Edit', 'Bash'),
  'claude-code-bare': claudeLike('anthropic', 'Read', 'Edit', 'Bash'),
  zcode: claudeLike('zai', 'Read', 'Edit', 'Bash'),
  'kimi-code': claudeLike('moonshot', 'Read', 'Edit', 'Bash', 'path'),
  'qwen-code': claudeLike('dashscope', 'read_file', 'edit', 'run_shell_command'),
  'kimi-cli': {
    provider: 'moonshot',
    turns: (repo) => [
      call('ReadFile', { path: join(repo, 'app.js') }),
      call('StrReplaceFile', { path: join(repo, 'app.js'), edit: { old: "'wrold'", new: "'world'" } }),
      call('Shell', { command: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  },
  'deepseek-tui': {
    provider: 'deepseek',
    turns: (repo) => [
      call('read_file', { path: join(repo, 'app.js') }),
      call('edit_file', { path: join(repo, 'app.js'), search: "'wrold'", replace: "'world'" }),
      call('exec_shell', { command: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  },
  opencode: {
    provider: 'mock',
    turns: (repo) => [
      call('read', { filePath: join(repo, 'app.js') }),
      call('edit', { filePath: join(repo, 'app.js'), oldString: "'wrold'", newString: "'world'" }),
      call('bash', { command: 'node app.js' }),
      done,
    ],
    finalMessage: FINAL_TEXT,
    sawFileAt: 2,
    sawRunAt: 4,
  },
  pi: piLike(),
  'little-coder': piLike(),
  native: nativeLike(),
  minimal: nativeLike(),
  'mini-swe-agent': {
    provider: 'mock',
    turns: () => [
      call('bash', { command: 'cat app.js' }),
      // A reply without a tool call is answered with the format error, then the work goes on.
      text('The name is misspelled; I will fix it.'),
      call('bash', { command: "sed -i \"s/'wrold'/'world'/\" app.js" }),
      call('bash', { command: 'node app.js' }),
      call('bash', { command: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo "Fixed the typo."' }),
    ],
    // The submission (the output after the sentinel line) is the final message; no 6th request.
    finalMessage: 'Fixed the typo.\n',
    firstRequestHas: [`Please solve this task: ${PROMPT}\n`, `<system_information>\n${systemInformation()}\n</system_information>`],
    sawFileAt: 2,
    sawRunAt: 5,
  },
  'swe-agent': {
    provider: 'mock',
    turns: (repo) => [
      // No command at all: the format-correction message comes back and the model tries again.
      text('I should look at the file first.'),
      text(`DISCUSSION\nLet me view the file.\n\n\`\`\`\nstr_replace_editor view ${join(repo, 'app.js')}\n\`\`\``),
      text(`DISCUSSION\nThe name is misspelled.\n\n\`\`\`\nstr_replace_editor str_replace ${join(repo, 'app.js')} --old_str "'wrold'" --new_str "'world'"\n\`\`\``),
      text('DISCUSSION\nNow run it.\n\n```bash\nnode app.js\n```'),
      // Review on submit: the first submit shows the diff, the second hands in the patch.
      text('DISCUSSION\nThe greeting is right now.\n\n```\nsubmit\n```'),
      text('DISCUSSION\nThe diff is only the fix.\n\n```\nsubmit\n```'),
    ],
    finalMessage: APP_PATCH,
    firstRequestHas: [`<pr_description>\n${PROMPT}\n</pr_description>`, 'How to reply: every reply has a DISCUSSION section'],
    echoed: { at: 5, text: 'DISCUSSION\nNow run it.' },
    sawFileAt: 3,
    sawRunAt: 5,
    sawReviewAt: 6,
  },
  'swe-agent-fc': {
    provider: 'mock',
    turns: (repo) => [
      // Text without a tool call: the function-calling format error comes back.
      text('I should look at the file first.'),
      call('str_replace_editor', { command: 'view', path: join(repo, 'app.js') }),
      call('str_replace_editor', { command: 'str_replace', path: join(repo, 'app.js'), old_str: "'wrold'", new_str: "'world'" }),
      call('bash', { command: 'node app.js' }),
      call('submit', {}),
      call('submit', {}),
    ],
    finalMessage: APP_PATCH,
    firstRequestHas: [`<pr_description>\n${PROMPT}\n</pr_description>`],
    sawFileAt: 3,
    sawRunAt: 5,
    sawReviewAt: 6,
  },
  'terminus-2': {
    provider: 'mock',
    turns: () => [
      text('Let me look around first.'),
      terminus('Read the program.', [{ keystrokes: 'cat app.js\n', duration: 0.3 }]),
      terminus('Fix the typo.', [{ keystrokes: "sed -i \"s/'wrold'/'world'/\" app.js\n", duration: 0.3 }]),
      terminus('Run it.', [{ keystrokes: 'node app.js\n', duration: 2 }]),
      // The first task_complete is answered with the completion check; the second ends the task.
      terminus('The greeting is right.', [], true),
      terminus('Confirmed: the greeting is right.', [], true),
    ],
    finalMessage: JSON.stringify({ analysis: 'Confirmed: the greeting is right.', plan: 'Confirmed: the greeting is right.', commands: [], task_complete: true }, null, 2),
    sawFileAt: 3,
    sawRunAt: 5,
    sawCheckAt: 6,
    // The screen the driver looked at before the first request, inside the first message.
    firstRequestHas: [`Task Description:\n${PROMPT}\n\nCurrent terminal state:\nCurrent Terminal Screen:\n`, '@rig:'],
    echoed: { at: 5, text: '"analysis": "Run it."' },
    // The tmux server started by the first command must survive it, so no per-command sandbox.
    flags: ['-s', 'danger-full-access'],
  },
};
