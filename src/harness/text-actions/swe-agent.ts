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
