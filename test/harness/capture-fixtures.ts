// The capture files of test/fixtures/harness-tools/ as request summaries (src/harness/capture/
// summary.ts), and rig's own first request for the same harness, wire and model.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PRESENCE_FIELDS, type ContentSummary, type MessageSummary, type RequestSummary } from '../../src/harness/capture/summary.js';
import { buildFirstRequest } from '../../src/core/harness-preview.js';
import type { WireApi } from '../../src/model/types.js';
import { REPO_ROOT, removeDir, tempDir, tempGitRepo, tempRigHome } from '../support/workspace.js';

export const FIXTURE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'harness-tools');
const CONTENT = new Set(['model', 'messages', 'input', 'instructions', 'system', 'tools']);
const AGENT_PROFILE: Record<string, string> = { 'claude-code': 'claude-code', 'qwen-code': 'qwen-code', opencode: 'opencode', pi: 'pi', codex: 'native' };
const WIRE: Record<string, WireApi> = { anthropic: 'messages', chat: 'chat', responses: 'responses' };

export interface CaptureCase {
  /** File name without `.json`, e.g. `pi.chat`: the `capture` of an accepted difference. */
  name: string;
  profile: string;
  wire: WireApi;
  model: string;
  summary: RequestSummary;
}

type Fixture = {
  agent: string;
  wire: string;
  capture: { model_sent: string };
  request: Record<string, unknown> & { fields: string[]; system_placement: string; message_roles: string[]; messages: Record<string, unknown>[]; cache_control: { at: string }[] };
  tools: Record<string, unknown>[];
};

function contentOf(content: unknown): Pick<MessageSummary, 'content' | 'prompt'> {
  if (Array.isArray(content)) {
    return {
      content: content.map((part: Record<string, unknown>) => {
        const out: ContentSummary = { type: String(part['type']) };
        if (part['prompt'] !== undefined) out.prompt = part['prompt'] as ContentSummary['prompt'];
        else if (part['leading_tag'] !== undefined) out.leading_tag = String(part['leading_tag']);
        if (part['cache_control'] !== undefined) out.cache_control = part['cache_control'];
        return out;
      }),
    };
  }
  const prompt = (content as Record<string, unknown> | undefined)?.['prompt'];
  return { content: 'string', ...(prompt !== undefined ? { prompt: prompt as MessageSummary['prompt'] } : {}) };
}

export function fixtureSummary(fixture: Fixture): RequestSummary {
  const request = fixture.request;
  const settings: Record<string, unknown> = {};
  const present: string[] = [];
  for (const key of request.fields) {
    if (CONTENT.has(key)) continue;
    if (PRESENCE_FIELDS.has(key)) present.push(key);
    else settings[key] = request[key];
  }
  return {
    fields: request.fields,
    settings,
    present: present.sort(),
    system_placement: request.system_placement,
    message_roles: request.message_roles,
    messages: request.messages.map((message) => {
      const other = Object.keys((message['other_fields'] ?? {}) as object).filter((key) => key !== 'id');
      return {
        role: String(message['role'] ?? message['item']),
        ...contentOf(message['content']),
        ...(other.length > 0 ? { other_fields: other } : {}),
      };
    }),
    cache_control: request.cache_control.map((entry) => entry.at).sort(),
    tools: fixture.tools.map((tool) => {
      const { name, kind, parameters, description_bytes: _b, namespace: _n, sent_in: _s, format: _f, ...extras } = tool;
      return { name: String(name), kind: String(kind), parameters: parameters ?? null, extras };
    }),
  };
}

export function captureCases(): CaptureCase[] {
  return readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => {
      const fixture = JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8')) as Fixture;
      return {
        name: file.slice(0, -'.json'.length),
        profile: AGENT_PROFILE[fixture.agent]!,
        wire: WIRE[fixture.wire]!,
        model: fixture.capture.model_sent,
        summary: fixtureSummary(fixture),
      };
    });
}

export const SAMPLE = 'Fix the greeting in app.js and run it.';

/** rig's first request body for a built-in harness on a wire and model (nothing is sent). */
export async function rigFirstRequest(profile: string, wire: WireApi, model: string, prompt = SAMPLE): Promise<Record<string, unknown>> {
  const repo = tempGitRepo({ 'app.js': "console.log('hi');\n" });
  const home = tempRigHome({ url: 'http://127.0.0.1:9/v1', wire, model });
  const userHome = tempDir('user-home');
  try {
    const env = { RIG_HOME: home, HOME: userHome, PATH: process.env['PATH'] ?? '/usr/bin:/bin', SHELL: '/bin/bash', TZ: 'UTC' };
    const shown = await buildFirstRequest(profile, { prompt, model, provider: 'mock' }, { env, cwd: repo });
    return shown.body;
  } finally {
    removeDir(repo);
    removeDir(home);
    removeDir(userHome);
  }
}
