// The tool surface each profile shows the model, checked against the captures of the real agents
// (test/fixtures/harness-tools) and against facts transcribed from the harness reference
// (test/fixtures/reference). See test/fixtures/SOURCES.md.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfileDir, readProfileFile } from '../../src/harness/loader.js';
import type { HarnessProfile } from '../../src/harness/profile.js';
import { deepseekReferenceTools } from './reference-signatures.js';

const CAPTURES = resolve(import.meta.dirname, '../fixtures/harness-tools');
const REFERENCE = resolve(import.meta.dirname, '../fixtures/reference/deepseek-tui-signatures.md');

function profile(id: string): HarnessProfile {
  return readProfileFile(join(builtinProfileDir(), `${id}.json`), 'builtin');
}

function advertised(p: HarnessProfile): HarnessProfile['tools'] {
  return p.tools.filter((tool) => tool.exposure === 'advertised');
}

type Schema = Record<string, unknown>;

/** What a model relies on: types, enums, property names, required fields, recursively. */
function skeleton(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema ?? null;
  const s = schema as Schema;
  const out: Schema = {};
  if (s['type'] !== undefined) out['type'] = s['type'];
  if (s['enum'] !== undefined) out['enum'] = s['enum'];
  if (s['required'] !== undefined) out['required'] = [...(s['required'] as string[])].sort();
  // `properties: {}` and no `properties` mean the same to a model (the responses wire adds the former).
  if (s['properties'] !== undefined && Object.keys(s['properties'] as object).length > 0) {
    const props = s['properties'] as Record<string, unknown>;
    out['properties'] = Object.fromEntries(Object.keys(props).sort().map((key) => [key, skeleton(props[key])]));
  }
  if (s['items'] !== undefined) out['items'] = skeleton(s['items']);
  for (const key of ['anyOf', 'oneOf']) if (s[key] !== undefined) out[key] = (s[key] as unknown[]).map(skeleton);
  return out;
}

interface CapturedTool {
  name: string;
  parameters: Schema | null;
}

function captured(file: string): CapturedTool[] {
  return (JSON.parse(readFileSync(join(CAPTURES, file), 'utf8')) as { tools: CapturedTool[] }).tools;
}

const CAPTURE_FOR: [string, string][] = [
  ['claude-code.anthropic.json', 'claude-code'],
  ['claude-code-sonnet-4-6.anthropic.json', 'claude-code'],
  ['qwen-code.chat.json', 'qwen-code'],
  ['qwen-code.responses.json', 'qwen-code'],
  ['qwen-code.anthropic.json', 'qwen-code'],
  ['opencode.chat.json', 'opencode'],
  ['opencode.anthropic.json', 'opencode'],
  ['pi.chat.json', 'pi'],
  ['pi.responses.json', 'pi'],
  ['pi.anthropic.json', 'pi'],
];

describe('profiles match the captured tool surfaces', () => {
  it.each(CAPTURE_FOR)('%s -> %s: same tool names in the same order', (file, id) => {
    expect(advertised(profile(id)).map((tool) => tool.name)).toEqual(captured(file).map((tool) => tool.name));
  });

  it.each(CAPTURE_FOR)('%s -> %s: same parameter names, types, required fields and enums', (file, id) => {
    const ours = new Map(profile(id).tools.map((tool) => [tool.name, tool.parameters]));
    for (const tool of captured(file)) {
      if (tool.parameters === null) continue;
      expect({ tool: tool.name, schema: skeleton(ours.get(tool.name)) }).toEqual({
        tool: tool.name,
        schema: skeleton(tool.parameters),
      });
    }
  });

  it('claude-code offers the deferred tools the capture names for ToolSearch, where schemas are known', () => {
    const file = JSON.parse(readFileSync(join(CAPTURES, 'claude-code.anthropic.json'), 'utf8')) as {
      tools_announced_in_prompt_text: { deferred_via_ToolSearch: string[] };
    };
    const deferred = profile('claude-code')
      .tools.filter((tool) => tool.exposure === 'deferred')
      .map((tool) => tool.name);
    const unknownSchemas = ['Monitor', 'SendMessage'];
    expect(deferred.sort()).toEqual(
      file.tools_announced_in_prompt_text.deferred_via_ToolSearch.filter((name) => !unknownSchemas.includes(name)).sort(),
    );
  });
});

// Facts transcribed from reference/harnesses.md for harnesses without a capture.
describe('profiles match the reference tables', () => {
  it('zcode: the 14 tools of §5.3, closed, draft 2020-12', () => {
    const p = profile('zcode');
    expect(advertised(p).map((tool) => tool.name)).toEqual([
      'Agent', 'AskUserQuestion', 'Bash', 'Edit', 'EnterPlanMode', 'ExitPlanMode', 'Read', 'Skill',
      'TodoRead', 'TodoWrite', 'WebFetch', 'Write', 'SendMessage', 'ReadSessionContext',
    ]);
    const byName = new Map(p.tools.map((tool) => [tool.name, tool.parameters as Schema]));
    expect(skeleton(byName.get('TodoWrite'))).toEqual(
      skeleton({
        type: 'object',
        properties: {
          todos: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                content: { type: 'string' },
                status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
                priority: { type: 'string', enum: ['high', 'medium', 'low'] },
              },
              required: ['content', 'status', 'priority'],
            },
          },
        },
        required: ['todos'],
      }),
    );
    expect(byName.get('ExitPlanMode')?.['additionalProperties']).toBeUndefined();
    expect(byName.get('Read')?.['additionalProperties']).toBe(false);
    expect(byName.get('Read')?.['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('kimi-code: the 25 tools of §5.4 with their key parameters', () => {
    const p = profile('kimi-code');
    expect(advertised(p).map((tool) => tool.name)).toEqual([
      'Agent', 'AgentSwarm', 'AskUserQuestion', 'Bash', 'CreateGoal', 'CronCreate', 'CronDelete', 'CronList',
      'Edit', 'EnterPlanMode', 'ExitPlanMode', 'FetchURL', 'GetGoal', 'Glob', 'Grep', 'Read', 'ReadMediaFile',
      'SetGoalBudget', 'Skill', 'TaskList', 'TaskOutput', 'TaskStop', 'TodoList', 'UpdateGoal', 'Write',
    ]);
    const byName = new Map(p.tools.map((tool) => [tool.name, tool.parameters as Schema]));
    const props = (name: string): Record<string, Schema> => byName.get(name)?.['properties'] as Record<string, Schema>;
    expect(byName.get('Bash')?.['required']).toEqual(['command']);
    expect(props('Bash')['timeout']).toMatchObject({ type: 'integer', default: 60 });
    expect(Object.keys(props('Read'))).toEqual(['path', 'line_offset', 'n_lines']);
    expect(props('Grep')['output_mode']?.['enum']).toEqual(['content', 'files_with_matches', 'count_matches']);
    expect(props('TodoList')['todos']).toMatchObject({ items: { properties: { status: { enum: ['pending', 'in_progress', 'done'] } } } });
    expect(props('TaskOutput')['timeout']).toMatchObject({ default: 30, minimum: 0, maximum: 3600 });
    expect(props('UpdateGoal')['status']?.['enum']).toEqual(['active', 'complete', 'blocked']);
    for (const tool of p.tools) {
      expect((tool.parameters as Schema)['$schema']).toBe('http://json-schema.org/draft-07/schema#');
      expect((tool.parameters as Schema)['additionalProperties']).toBe(false);
    }
  });

  it('claude-code-bare: only Bash, Edit and Read', () => {
    expect(advertised(profile('claude-code-bare')).map((tool) => tool.name)).toEqual(['Bash', 'Edit', 'Read']);
  });

  it('deepseek-tui: all 84 tools of §5.6, first agent_close, last tool_search_tool_bm25', () => {
    const names = advertised(profile('deepseek-tui')).map((tool) => tool.name);
    expect(names).toHaveLength(84);
    expect(names[0]).toBe('agent_close');
    expect(names[names.length - 1]).toBe('tool_search_tool_bm25');
    const byName = new Map(profile('deepseek-tui').tools.map((tool) => [tool.name, tool]));
    expect(skeleton(byName.get('exec_shell')?.parameters)).toMatchObject({ required: ['command'] });
    expect(byName.get('git_blame')?.parameters).toMatchObject({
      additionalProperties: false,
      properties: { max_lines: { type: 'integer', default: 200, minimum: 1, maximum: 2000 } },
    });
    expect(byName.get('read_file')?.capability).toBe('fs.read');
  });

  it('little-coder: pi tools plus glob and the browser/evidence/shell-session tools of §5.10', () => {
    expect(advertised(profile('little-coder')).map((tool) => tool.name)).toEqual([
      'read', 'bash', 'edit', 'write', 'glob', 'BrowserNavigate', 'BrowserClick', 'BrowserType', 'BrowserScroll',
      'BrowserExtract', 'BrowserBack', 'BrowserHistory', 'EvidenceAdd', 'EvidenceGet', 'EvidenceList', 'webfetch',
      'websearch', 'ShellSession', 'ShellSessionCwd', 'ShellSessionReset',
    ]);
  });

  it('mini-swe-agent: one bash tool taking command', () => {
    const tools = advertised(profile('mini-swe-agent'));
    expect(tools.map((tool) => tool.name)).toEqual(['bash']);
    expect(tools[0]?.parameters).toMatchObject({ required: ['command'], properties: { command: { type: 'string' } } });
  });

  it('swe-agent-fc: SWE-agent config/default.yaml @ 3ea751c tools in its order (bash first, then the bundles)', () => {
    const tools = advertised(profile('swe-agent-fc'));
    expect(tools.map((tool) => tool.name)).toEqual(['bash', 'str_replace_editor', 'submit']);
    // sweagent/tools/commands.py BASH_COMMAND: one required string argument.
    expect(tools[0]?.parameters).toEqual({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] });
    // tools/edit_anthropic/config.yaml: argument order, types, the command enum, required command and path.
    const editor = tools[1]?.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(editor.properties)).toEqual(['command', 'path', 'file_text', 'old_str', 'new_str', 'insert_line', 'view_range']);
    expect(editor.properties['command']).toEqual({ type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] });
    expect(editor.properties['insert_line']).toEqual({ type: 'integer' });
    expect(editor.properties['view_range']).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(editor.required).toEqual(['command', 'path']);
    // A command without arguments gets `{"type": "object"}` (Command.get_function_calling_tool).
    expect(tools[2]?.parameters).toEqual({ type: 'object' });
  });

  it('text-protocol harnesses advertise no tools', () => {
    for (const id of ['swe-agent', 'terminus-2']) {
      const p = profile(id);
      expect(advertised(p)).toEqual([]);
      expect(p.protocol).not.toBe('tools');
    }
  });

  it('kimi-cli: the legacy tool names the reference says its prompt expects', () => {
    const names = advertised(profile('kimi-cli')).map((tool) => tool.name);
    for (const name of ['Shell', 'ReadFile', 'WriteFile', 'StrReplaceFile', 'SetTodoList']) expect(names).toContain(name);
  });

  it('time units follow each original: seconds for kimi, pi and mini-swe-agent; ms for Claude, opencode, qwen', () => {
    const unit = (id: string, name: string): unknown => profile(id).tools.find((tool) => tool.name === name)?.options['timeout_unit'];
    expect(unit('claude-code', 'Bash')).toBe('ms');
    expect(unit('opencode', 'bash')).toBe('ms');
    expect(unit('qwen-code', 'run_shell_command')).toBe('ms');
    expect(unit('kimi-code', 'Bash')).toBe('s');
    expect(unit('kimi-cli', 'Shell')).toBe('s');
    expect(unit('pi', 'bash')).toBe('s');
    expect(unit('mini-swe-agent', 'bash')).toBe('s');
  });
});

describe('deepseek-tui matches the signature list of reference §5.6', () => {
  it('every tool: same name, order, parameters, types, enums, defaults, bounds and closedness', () => {
    const ours = profile('deepseek-tui').tools;
    const reference = deepseekReferenceTools(REFERENCE);
    expect(ours.map((tool) => tool.name)).toEqual(reference.map((tool) => tool.name));
    reference.forEach((tool, index) => {
      expect({ tool: tool.name, parameters: ours[index]?.parameters }).toEqual({ tool: tool.name, parameters: tool.parameters });
    });
  });

  it('every tool the original handled is bound to a real capability here', () => {
    const ours = new Map(profile('deepseek-tui').tools.map((tool) => [tool.name, tool.capability]));
    const handled = deepseekReferenceTools(REFERENCE).filter((tool) => tool.handledAtHead && tool.name !== 'diagnostics' && tool.name !== 'request_user_input');
    for (const tool of handled) expect({ tool: tool.name, capability: ours.get(tool.name) }).not.toEqual({ tool: tool.name, capability: 'unavailable' });
  });
});
