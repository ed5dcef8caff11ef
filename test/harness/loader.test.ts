import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  bindProfileTools,
  builtinProfileDir,
  findProfile,
  listProfileLocations,
  readProfileFile,
  type ProfileSearchOptions,
} from '../../src/harness/loader.js';
import { listHarnesses } from '../../src/core/harness-catalog.js';
import { CapabilityOptionError, HarnessProfileError, type ToolFactory } from '../../src/harness/profile.js';

const ALL_IDS = [
  'claude-code', 'claude-code-bare', 'deepseek-tui', 'kimi-cli', 'kimi-code', 'little-coder',
  'mini-swe-agent', 'minimal', 'native', 'opencode', 'pi', 'qwen-code', 'swe-agent', 'swe-agent-fc', 'terminus-2', 'zcode',
];

/** Profiles whose originals send the task in the first user message (an instance template). */
const INSTANCE_TEMPLATES = ['mini-swe-agent', 'swe-agent', 'swe-agent-fc', 'terminus-2'];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rig-harness-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function minimalProfile(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 1,
    id,
    description: 'test profile',
    wires: ['chat'],
    prompt_file: 'prompt.md',
    tools: [{ name: 'bash', capability: 'shell.bash', parameters: { type: 'object', properties: {} } }],
    ...extra,
  };
}

function writeProfile(dir: string, id: string, body: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'prompt.md'), 'You are a test.\n');
  const file = join(dir, `${id}.json`);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  return file;
}

const echoRegistry = new Map<string, ToolFactory<string>>([['shell.bash', (tool) => tool.name]]);

describe('built-in profiles', () => {
  it('ships one file per reference harness', () => {
    const ids = listProfileLocations({ builtinDir: builtinProfileDir() }).map((entry) => entry.id);
    expect(ids).toEqual(ALL_IDS);
  });

  it.each(ALL_IDS)('%s validates and resolves its prompt and instance template', (id) => {
    const profile = readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin');
    expect(profile.id).toBe(id);
    // Terminus 2 sends no system message at all: everything is in its first user message.
    if (id === 'terminus-2') expect(profile.prompt).toBe('');
    else expect(profile.prompt.length).toBeGreaterThan(20);
    if (INSTANCE_TEMPLATES.includes(id)) expect(profile.instanceTemplate).toContain('{{task}}');
    else expect(profile.instanceTemplate).toBeUndefined();
    expect(profile.wires.length).toBeGreaterThan(0);
  });

  it('an instance template file that cannot be read names the field', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'mine', minimalProfile('mine', { instance_template_file: 'missing.md' }));
    expect(() => readProfileFile(file, 'user')).toThrow(`${file}: instance_template_file: cannot read ${join(dir, 'missing.md')}: file not found`);
  });
});

/** The one locate -> read -> bind path, with a registry that names each tool's capability. */
function loadHarness<T>(id: string, registry: Map<string, ToolFactory<T>>, options: ProfileSearchOptions) {
  const profile = findProfile(id, options);
  return { profile, tools: bindProfileTools(profile, registry) };
}

describe('layers', () => {
  it('a RIG_HOME profile overrides the built-in one, and a trusted project overrides both', () => {
    const builtinDir = join(tempDir(), 'builtin');
    writeProfile(builtinDir, 'pi', minimalProfile('pi', { description: 'builtin' }));
    const rigHome = tempDir();
    writeProfile(join(rigHome, 'harnesses'), 'pi', minimalProfile('pi', { description: 'user' }));
    writeProfile(join(rigHome, 'harnesses'), 'mine', minimalProfile('mine'));
    const project = tempDir();
    const options = { builtinDir, rigHome, trustedProjectRoots: [project] };
    expect(loadHarness('pi', echoRegistry, options).profile.description).toBe('user');
    writeProfile(join(project, '.rig', 'harnesses'), 'pi', minimalProfile('pi', { description: 'project' }));
    const loaded = loadHarness('pi', echoRegistry, options);
    expect(loaded.profile.description).toBe('project');
    expect(loaded.profile.origin).toBe('project');
    expect(loaded.tools).toEqual(['bash']);
    expect(listProfileLocations(options).map((entry) => `${entry.id}:${entry.origin}`)).toEqual([
      'mine:user',
      'pi:project',
    ]);
  });

  it('harnesses_dir (userDir) replaces $RIG_HOME/harnesses as the user layer', () => {
    const builtinDir = join(tempDir(), 'builtin');
    writeProfile(builtinDir, 'pi', minimalProfile('pi', { description: 'builtin' }));
    const rigHome = tempDir();
    writeProfile(join(rigHome, 'harnesses'), 'pi', minimalProfile('pi', { description: 'rig home' }));
    const userDir = join(tempDir(), 'my-harnesses');
    writeProfile(userDir, 'pi', minimalProfile('pi', { description: 'harnesses_dir' }));
    expect(loadHarness('pi', echoRegistry, { builtinDir, rigHome, userDir }).profile.description).toBe('harnesses_dir');
  });

  it('an unknown id names the available harnesses', () => {
    const builtinDir = join(tempDir(), 'builtin');
    writeProfile(builtinDir, 'pi', minimalProfile('pi'));
    expect(() => loadHarness('nope', echoRegistry, { builtinDir })).toThrow(
      'unknown harness "nope"; available harnesses (see `rig harness list`): pi',
    );
  });

  it('a prompt_file may point at the user\'s own file', () => {
    const dir = tempDir();
    const own = join(tempDir(), 'my-prompt.md');
    writeFileSync(own, 'My own prompt.');
    const file = writeProfile(dir, 'custom', minimalProfile('custom', { prompt_file: own }));
    expect(readProfileFile(file, 'user').prompt).toBe('My own prompt.');
  });
});

describe('load errors name the file and the field', () => {
  it('broken JSON gives the line and column', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'broken', '{\n "format": 1,\n}');
    expect(() => readProfileFile(file, 'user')).toThrow(
      `${file}: line 3, column 1: invalid JSON: Expected double-quoted property name in JSON at position 16`,
    );
  });

  it('a wrong field type names the field path', () => {
    const dir = tempDir();
    const body = minimalProfile('bad');
    (body['tools'] as Record<string, unknown>[])[0]!['exposure'] = 'sometimes';
    const file = writeProfile(dir, 'bad', body);
    let caught: unknown;
    try {
      readProfileFile(file, 'user');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessProfileError);
    expect((caught as HarnessProfileError).field).toBe('tools[0].exposure');
    expect((caught as Error).message).toMatch(new RegExp(`^${file}: tools\\[0\\]\\.exposure: `));
  });

  it('an unknown field is rejected by name', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'extra', minimalProfile('extra', { wire: 'chat' }));
    expect(() => readProfileFile(file, 'user')).toThrow(
      `${file}: wire: unknown field (allowed fields are listed in src/harness/profile-schema.ts)`,
    );
  });

  it('an unsupported wire is rejected', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'wires', minimalProfile('wires', { wires: ['grpc'] }));
    expect(() => readProfileFile(file, 'user')).toThrow(`${file}: wires[0]: `);
  });

  it('the id must match the file name', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'one', minimalProfile('two'));
    expect(() => readProfileFile(file, 'user')).toThrow(
      `${file}: id: is "two" but the file is named one.json; they must match`,
    );
  });

  it('a missing prompt file is named', () => {
    const dir = tempDir();
    const file = writeProfile(dir, 'noprompt', minimalProfile('noprompt', { prompt_file: 'missing.md' }));
    expect(() => readProfileFile(file, 'user')).toThrow(
      `${file}: prompt_file: cannot read ${join(dir, 'missing.md')}: file not found`,
    );
  });

  it('duplicate tool names are rejected', () => {
    const dir = tempDir();
    const tool = { name: 'bash', capability: 'shell.bash' };
    const file = writeProfile(dir, 'dup', minimalProfile('dup', { tools: [tool, tool] }));
    expect(() => readProfileFile(file, 'user')).toThrow(`${file}: tools[1].name: duplicate tool name "bash"`);
  });

  it('an advertised tool without a handler fails to load', () => {
    const dir = tempDir();
    const tools = [
      { name: 'bash', capability: 'shell.bash' },
      { name: 'fly', capability: 'magic.fly' },
    ];
    const file = writeProfile(dir, 'nohandler', minimalProfile('nohandler', { tools }));
    const profile = readProfileFile(file, 'user');
    expect(() => bindProfileTools(profile, echoRegistry)).toThrow(
      `${file}: tools[1].capability: unknown capability "magic.fly" for tool "fly"; known capabilities: shell.bash`,
    );
  });

  it('a capability that rejects an option names the option field', () => {
    const dir = tempDir();
    const tools = [{ name: 'bash', capability: 'shell.bash', options: { timeout_unit: 'fortnights' } }];
    const file = writeProfile(dir, 'badopt', minimalProfile('badopt', { tools }));
    const strict = new Map<string, ToolFactory<string>>([
      [
        'shell.bash',
        (tool) => {
          if (tool.options['timeout_unit'] !== 'ms') throw new CapabilityOptionError('options.timeout_unit', 'must be "ms" or "s"');
          return tool.name;
        },
      ],
    ]);
    expect(() => bindProfileTools(readProfileFile(file, 'user'), strict)).toThrow(
      `${file}: tools[0].options.timeout_unit: must be "ms" or "s"`,
    );
  });

  it('profile alias rules reach each tool as options, overridden by the tool\'s own', () => {
    const dir = tempDir();
    const tools = [{ name: 'bash', capability: 'shell.bash', options: { line_numbers: 'none' } }];
    const file = writeProfile(dir, 'alias', minimalProfile('alias', { tools, aliases: { read_before_edit: true } }));
    const tool = readProfileFile(file, 'user').tools[0]!;
    expect(tool.options['read_before_edit']).toBe(true);
    expect(tool.options['line_numbers']).toBe('none');
  });
});

describe('listHarnesses', () => {
  it('summarises good profiles and reports broken ones without throwing', () => {
    const builtinDir = join(tempDir(), 'builtin');
    writeProfile(builtinDir, 'good', minimalProfile('good', { description: 'fine' }));
    const broken = writeProfile(builtinDir, 'worse', '{');
    const list = listHarnesses({ builtinDir });
    expect(list[0]).toMatchObject({ id: 'good', description: 'fine', wires: ['chat'], origin: 'builtin' });
    expect(list[1]?.error).toMatch(new RegExp(`^${broken}: `));
  });
});
