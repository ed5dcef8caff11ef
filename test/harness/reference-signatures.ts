// Reads the compact tool signatures of DeepSeek TUI (the harness reference, section 5.6, kept in
// test/fixtures/reference) into JSON schemas, so the profile is checked against the reference text.
import { readFileSync } from 'node:fs';

type Schema = Record<string, unknown>;

function splitTop(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === separator && depth === 0) {
      out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

function parseType(text: string): Schema {
  let t = text.trim();
  const alternatives = splitTop(t, '|');
  if (alternatives.length > 1) return { anyOf: alternatives.map(parseType) };
  let bounds: [string, string] | undefined;
  const ranged = /^(.*?)\[(-?\d*)\.\.(-?\d*)\]$/.exec(t);
  if (ranged && !t.startsWith('[')) {
    t = ranged[1] ?? '';
    bounds = [ranged[2] ?? '', ranged[3] ?? ''];
  }
  let fallback: string | undefined;
  const defaulted = /^(str|int|bool|number|obj)=(.+)$/.exec(t);
  if (defaulted) {
    t = defaulted[1] ?? '';
    fallback = defaulted[2];
  }
  let schema: Schema;
  if (t === 'str') schema = { type: 'string' };
  else if (t === 'int') schema = { type: 'integer' };
  else if (t === 'number') schema = { type: 'number' };
  else if (t === 'bool') schema = { type: 'boolean' };
  else if (t === 'obj') schema = { type: 'object' };
  else if (t.startsWith('enum(')) schema = { type: 'string', enum: t.slice(5, -1).split('|') };
  else if (t.startsWith('[') && t.endsWith(']')) schema = { type: 'array', items: parseType(t.slice(1, -1)) };
  else if (t.startsWith('{') && t.endsWith('}')) schema = parseParams(t.slice(1, -1), false);
  else throw new Error(`unknown type in reference signature: ${t}`);
  if (fallback !== undefined) {
    schema['default'] = schema['type'] === 'boolean' ? fallback === 'true' : schema['type'] === 'string' ? fallback : Number(fallback);
  }
  if (bounds?.[0]) schema['minimum'] = Number(bounds[0]);
  if (bounds?.[1]) schema['maximum'] = Number(bounds[1]);
  return schema;
}

function parseParams(text: string, closed: boolean): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const parameter of splitTop(text, ',')) {
    const colon = parameter.indexOf(':');
    let name = parameter.slice(0, colon);
    const optional = name.endsWith('?');
    if (optional) name = name.slice(0, -1);
    else required.push(name);
    properties[name] = parseType(parameter.slice(colon + 1));
  }
  const schema: Schema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  if (closed) schema['additionalProperties'] = false;
  return schema;
}

export interface ReferenceTool {
  name: string;
  handledAtHead: boolean;
  closed: boolean;
  parameters: Schema;
}

export function deepseekReferenceTools(signaturesMd: string): ReferenceTool[] {
  const block = /```text\n([\s\S]*?)\n```/.exec(readFileSync(signaturesMd, 'utf8'))?.[1];
  if (!block) throw new Error(`no signature block in ${signaturesMd}`);
  return splitTop(block.replace(/\n/g, ' '), ';').map((signature) => {
    const match = /^(\*?)([A-Za-z0-9_-]+)(°?)\(([\s\S]*)\)$/.exec(signature);
    if (!match) throw new Error(`cannot read signature: ${signature}`);
    return { name: match[2] ?? '', handledAtHead: match[1] === '*', closed: match[3] === '°', parameters: parseParams(match[4] ?? '', match[3] === '°') };
  });
}
