// --output-schema FILE: the schema is sent as the wire's structured-output format, the final agent
// message is the JSON answer, and an unusable file is refused before any request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, tempRigHome } from '../../support/workspace.js';

const SCHEMA = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };

let mock: MockProvider;
let repo: string;
let scratch: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  scratch = tempDir('schema');
  writeFileSync(join(scratch, 'schema.json'), JSON.stringify(SCHEMA));
  writeFileSync(join(scratch, 'broken.json'), '{"type": "object",');
  writeFileSync(join(scratch, 'list.json'), '[1, 2]');
});

afterAll(async () => {
  await mock.close();
  for (const dir of [repo, scratch, ...homes]) removeDir(dir);
});

function home(wire: MockWire = 'responses'): string {
  const dir = tempRigHome({ url: mock.url, wire });
  homes.push(dir);
  return dir;
}

describe.each<[MockWire, (body: any) => unknown, unknown]>([
  ['responses', (body) => body.text, { format: { type: 'json_schema', name: 'codex_output_schema', schema: SCHEMA, strict: true } }],
  ['chat', (body) => body.response_format, { type: 'json_schema', json_schema: { name: 'codex_output_schema', schema: SCHEMA, strict: true } }],
])('on the %s wire', (wire, formatOf, expected) => {
  test('the schema is the response format and the answer is the final message', async () => {
    mock.enqueue({ text: '{"answer":42}' });
    const out = join(scratch, `${wire}-last.txt`);

    const run = await runRig(['exec', '--json', '--output-schema', join(scratch, 'schema.json'), '-o', out, 'the answer?'], { cwd: repo, home: home(wire) });

    expect(run.code).toBe(0);
    expect(formatOf(mock.requests.at(-1)!.body)).toEqual(expected);
    expect(jsonLines(run.stdout).find((e) => e.type === 'item.completed')).toEqual({
      type: 'item.completed',
      item: { id: 'item_0', type: 'agent_message', text: '{"answer":42}' },
    });
  });
});

describe('an unusable schema file', () => {
  test.each([
    ['missing.json', /^cannot read the file \(ENOENT\)$/],
    // Newer Node versions add "(line 1 column 19)" to JSON.parse messages.
    ['broken.json', /^not a JSON Schema object \(Expected double-quoted property name in JSON at position 18( \(line 1 column 19\))?\)$/],
    ['list.json', /^not a JSON Schema object \(not a JSON object\)$/],
  ])('%s is refused with the reason', async (name, reason) => {
    const before = mock.requests.length;
    const path = join(scratch, name);
    const run = await runRig(['exec', '--output-schema', path, 'hi'], { cwd: repo, home: home() });
    expect(run.code).toBe(1);
    const prefix = `rig: --output-schema ${path}: `;
    expect(run.stderr.startsWith(prefix)).toBe(true);
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.slice(prefix.length, -1)).toMatch(reason);
    expect(mock.requests.length).toBe(before);
  });
});
