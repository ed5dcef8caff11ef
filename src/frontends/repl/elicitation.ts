// An MCP server's question (elicitation/create) at the line REPL: its message, then one line per
// field of its form (the flat schema MCP allows: strings, numbers, booleans, enums). An empty line
// keeps an optional field out; "!decline" declines the whole form and "!cancel" (or the end of
// input) cancels it and stops the turn. A URL request is shown and confirmed with y/n.
import type { ApprovalAnswer, JsonSchema, McpElicitationApprovalRequest } from '../../protocol/index.js';
import { describeApproval } from '../approval-format.js';
import type { ApprovalIo } from './approval.js';

interface Field {
  name: string;
  label: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  required: boolean;
  choices?: string[];
}

function fieldsOf(schema: JsonSchema | undefined): Field[] {
  const properties = (schema?.['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema?.['required']) ? (schema['required'] as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const type = (['string', 'number', 'integer', 'boolean', 'array'] as const).find((t) => t === property['type']) ?? 'string';
    const choices = enumOf(property);
    const title = typeof property['title'] === 'string' ? property['title'] : name;
    const description = typeof property['description'] === 'string' ? ` (${property['description']})` : '';
    return { name, label: `${title}${description}`, type, required: required.has(name), ...(choices ? { choices } : {}) };
  });
}

function enumOf(property: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(property['enum'])) return property['enum'].map(String);
  const items = property['items'] as Record<string, unknown> | undefined;
  if (items && Array.isArray(items['enum'])) return items['enum'].map(String);
  const oneOf = (property['oneOf'] ?? property['anyOf'] ?? (items?.['anyOf'] as unknown)) as { const?: unknown }[] | undefined;
  if (Array.isArray(oneOf) && oneOf.every((option) => option && 'const' in option)) return oneOf.map((option) => String(option.const));
  return undefined;
}

/** The typed value of one answer line, or a message saying what is wrong with it. */
function parseValue(field: Field, line: string): { value: unknown } | { problem: string } {
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(line)) return { value: true };
    if (/^(n|no|false)$/i.test(line)) return { value: false };
    return { problem: 'answer yes or no' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const value = Number(line);
    if (!Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) return { problem: `answer a${field.type === 'integer' ? 'n integer' : ' number'}` };
    return { value };
  }
  if (field.type === 'array') {
    const values = line.split(',').map((part) => part.trim()).filter(Boolean);
    const bad = field.choices ? values.filter((value) => !field.choices!.includes(value)) : [];
    return bad.length > 0 ? { problem: `choose from ${field.choices!.join(', ')}` } : { value: values };
  }
  if (field.choices && !field.choices.includes(line)) return { problem: `choose one of ${field.choices.join(', ')}` };
  return { value: line };
}

export async function askElicitation(request: McpElicitationApprovalRequest, io: ApprovalIo): Promise<ApprovalAnswer> {
  io.write(`${describeApproval({ kind: 'mcp_elicitation', server: request.server, message: request.message }, { color: io.color })}\n`);
  if (request.mode === 'url') {
    io.write(`  open: ${request.url ?? '(no URL given)'}\n`);
    const answer = await io.readLine('done? y/n/s ');
    if (answer === undefined || /^s/i.test(answer.trim())) return { decision: 'abort' };
    return /^y/i.test(answer.trim()) ? { decision: 'approve' } : { decision: 'deny' };
  }
  io.write('(an empty line skips an optional field; !decline declines, !cancel cancels)\n');
  const content: Record<string, unknown> = {};
  for (const field of fieldsOf(request.requested_schema)) {
    const choices = field.choices ? ` [${field.choices.join(', ')}]` : field.type === 'boolean' ? ' [y/n]' : '';
    for (;;) {
      const line = await io.readLine(`${field.label}${field.required ? '' : ' (optional)'}${choices}: `);
      if (line === undefined || line.trim() === '!cancel') return { decision: 'abort' };
      if (line.trim() === '!decline') return { decision: 'deny' };
      const text = line.trim();
      if (text === '') {
        if (field.required) {
          io.write('  this field is required\n');
          continue;
        }
        break;
      }
      const parsed = parseValue(field, text);
      if ('problem' in parsed) {
        io.write(`  ${parsed.problem}\n`);
        continue;
      }
      content[field.name] = parsed.value;
      break;
    }
  }
  return { decision: 'approve', content };
}
