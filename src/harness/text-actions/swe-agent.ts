// SWE-agent's text protocol: the model writes its reasoning and one command; rig finds the
// command in the text. Pure functions: the turn loop turns the action into a hidden tool call.

export type SweAgentAction =
  | { kind: 'bash'; command: string }
  | { kind: 'editor'; command: string }
  | { kind: 'submit' }
  | { kind: 'none' };

/** Sent back when a reply holds no command (our wording). */
export const SWE_AGENT_FORMAT_ERROR =
  'Your reply did not contain a command. Reply with a DISCUSSION section followed by exactly one command in a fenced code block, e.g.\n\nDISCUSSION\nList the files first.\n\n```\nls -la\n```';

/** Sent back when a function-calling reply calls no tool (our wording of SWE-agent's message). */
export const SWE_AGENT_TOOLS_FORMAT_ERROR =
  'Your last reply did not call a tool. Every reply must make exactly one function call (bash, str_replace_editor or submit) ' +
  'in the function-call format; a command written in a code block is not run. When the task is solved, call submit.';

/**
 * SWE-agent's submit prints the patch between two of these lines (tools/review_on_submit_m/bin/submit
 * in SWE-agent/SWE-agent @ 3ea751c); the agent ends when an observation holds them.
 */
export const SWE_AGENT_SUBMISSION_MARKER = '<<SWE_AGENT_SUBMISSION>>';

/** The submitted patch when this observation is a submission, else undefined. */
export function sweAgentSubmission(observation: string): string | undefined {
  const first = observation.indexOf(SWE_AGENT_SUBMISSION_MARKER);
  if (first === -1) return undefined;
  const last = observation.indexOf(SWE_AGENT_SUBMISSION_MARKER, first + SWE_AGENT_SUBMISSION_MARKER.length);
  if (last === -1) return undefined;
  return observation.slice(first + SWE_AGENT_SUBMISSION_MARKER.length, last).replace(/^\n/, '').replace(/\n$/, '');
}

/**
 * The review round of SWE-agent's review-on-submit (its default configuration): the first submit
 * shows this with the diff instead of submitting. Our wording of its steps.
 */
export function sweAgentReviewMessage(diff: string): string {
  return [
    'Before your changes are submitted, review them:',
    '',
    '1. If you changed the code after you last ran your reproduction script, run the script again. If it fails, revisit your changes.',
    '   If you have already deleted the script, skip this step.',
    '2. Delete your reproduction script if it is still there.',
    '3. If you changed any test files, restore them to how they were before you started (for example `git checkout -- path/to/test_file.py`);',
    '   the diff below shows which files you changed.',
    '4. Run submit again to confirm.',
    '',
    'All of your changes:',
    '',
    '<diff>',
    diff,
    '</diff>',
  ].join('\n');
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

function inner(text: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return match?.[1];
}

/** The command in a reply, trying the forms the original accepts in its order. */
export function extractSweAgentCommand(text: string): string | undefined {
  const invoke = /<tool_invoke>\s*<name>\s*execute_bash\s*<\/name>\s*<code>([\s\S]*?)<\/code>\s*<\/tool_invoke>/.exec(text);
  if (invoke?.[1] !== undefined) return invoke[1];
  const named = /<invoke\s+name="(?:bash|execute_bash)"\s*>([\s\S]*?)<\/invoke>/.exec(text);
  if (named?.[1] !== undefined) {
    const parameter = /<parameter\s+name="command"\s*>([\s\S]*?)<\/parameter>/.exec(named[1]);
    const command = parameter?.[1] ?? inner(named[1], 'command');
    if (command !== undefined) return command;
  }
  const execute = inner(text, 'execute_bash');
  if (execute !== undefined) return inner(execute, 'code') ?? execute;
  const fence = /```([^\n`]*)\n([\s\S]*?)```/.exec(text);
  if (fence?.[2] !== undefined) {
    const label = (fence[1] ?? '').trim();
    return ['', 'bash', 'sh', 'shell'].includes(label) ? fence[2] : `${label}\n${fence[2]}`;
  }
  return undefined;
}

export function parseSweAgentAction(text: string): SweAgentAction {
  const raw = extractSweAgentCommand(text);
  if (raw === undefined) return { kind: 'none' };
  const command = decodeXmlEntities(raw).trim();
  if (command === '') return { kind: 'none' };
  if (command === 'submit') return { kind: 'submit' };
  if (command.startsWith('str_replace_editor ')) return { kind: 'editor', command };
  return { kind: 'bash', command };
}

/** Splits a command line like a POSIX shell would for words: quotes and backslashes, no expansion. */
export function shellWords(line: string): string[] | string {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return 'unterminated single quote';
      current += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1] as string)) j++;
        current += line[j];
      }
      if (j >= line.length) return 'unterminated double quote';
      i = j;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** `str_replace_editor <command> <path> [--flag value]...` as the editor tool's arguments. */
export function parseEditorCommandLine(line: string): Record<string, unknown> | string {
  const words = shellWords(line.trim());
  if (typeof words === 'string') return `Could not parse the str_replace_editor command: ${words}`;
  const [name, command, path, ...rest] = words;
  if (name !== 'str_replace_editor' || !command || !path) return 'Usage: str_replace_editor <command> <path> [--file_text T] [--old_str S] [--new_str S] [--insert_line N] [--view_range A B]';
  const args: Record<string, unknown> = { command, path };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i] as string;
    if (flag === '--view_range') {
      args['view_range'] = [Number(rest[i + 1]), Number(rest[i + 2])];
      i += 2;
    } else if (flag === '--insert_line') {
      args['insert_line'] = Number(rest[++i]);
    } else if (['--file_text', '--old_str', '--new_str'].includes(flag)) {
      args[flag.slice(2)] = rest[++i] ?? '';
    } else {
      return `Unknown str_replace_editor option ${flag}`;
    }
  }
  return args;
}
