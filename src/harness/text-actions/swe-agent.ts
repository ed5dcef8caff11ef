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
