// `rig harness list` and `rig harness show` through the built CLI. `show` must print exactly the
// body `rig exec` sends (checked against what the mock received), and never a key.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockWire } from '../support/mock-provider/index.js';
import { removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';
import { requestSnapshot } from './normalize.js';
import { APP_BEFORE, PROMPT } from './scenario.js';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});

describe('rig harness list', () => {
  it('lists built-ins and user profiles, and reports a broken user profile with its error', async () => {
    const repo = tempGitRepo({});
    const home = tempRigHome({ url: mock.url });
    mkdirSync(join(home, 'harnesses'));
    writeFileSync(join(home, 'harnesses', 'mine.json'), JSON.stringify({
      format: 1, id: 'mine', description: 'My harness', wires: ['chat'], prompt_file: 'mine.md',
      tools: [{ name: 'sh', capability: 'shell.bash' }, { name: 'cat', capability: 'fs.read', exposure: 'hidden' }],
    }));
    writeFileSync(join(home, 'harnesses', 'mine.md'), 'You are mine.\n');
    writeFileSync(join(home, 'harnesses', 'broken.json'), JSON.stringify({
      format: 1, id: 'broken', description: 'x', wires: ['chat'], prompt_file: 'mine.md', tools: [{ name: 'x', capability: 'fs.nope' }],
    }));
    try {
      const json = await runRig(['harness', 'list', '--json'], { cwd: repo, home });
      expect(json.code).toBe(0);
      const entries = JSON.parse(json.stdout) as { id: string; origin: string; protocol?: string; wires?: string[]; tools?: { name: string }[]; error?: string }[];
      expect(entries.map((entry) => entry.id)).toContain('terminus-2');
      expect(entries.find((entry) => entry.id === 'mine')).toMatchObject({
        origin: 'user', protocol: 'tools', wires: ['chat'],
        tools: [{ name: 'sh', capability: 'shell.bash', exposure: 'advertised' }, { name: 'cat', capability: 'fs.read', exposure: 'hidden' }],
      });
      expect(entries.find((entry) => entry.id === 'swe-agent')).toMatchObject({ protocol: 'swe-agent-text' });
      expect(entries.find((entry) => entry.id === 'swe-agent-fc')).toMatchObject({
        protocol: 'swe-agent-tools',
        tools: [{ name: 'bash' }, { name: 'str_replace_editor' }, { name: 'submit', capability: 'swe.submit', exposure: 'advertised' }],
      });
      const broken = entries.find((entry) => entry.id === 'broken');
      expect(broken?.error).toBe(`${join(home, 'harnesses', 'broken.json')}: tools[0].capability: unknown capability "fs.nope" for tool "x"; known capabilities: ${broken?.error?.split('known capabilities: ')[1]}`);
      expect(broken?.error).toContain('fs.read, ');

      const text = await runRig(['harness', 'list'], { cwd: repo, home });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^mine +user +tools +wires: chat\n +My harness\n +tools: sh, cat \(hidden\)$/m);
      expect(text.stdout).toMatch(/^broken +user +BROKEN: .*unknown capability "fs\.nope"/m);
    } finally {
      removeDir(repo);
      removeDir(home);
    }
  });
});

describe('rig harness show', () => {
  const cases: { id: string; wire: MockWire; provider: string }[] = [
    { id: 'claude-code', wire: 'messages', provider: 'anthropic' },
    { id: 'kimi-code', wire: 'chat', provider: 'moonshot' },
    { id: 'swe-agent', wire: 'responses', provider: 'mock' },
  ];
  for (const { id, wire, provider } of cases) {
    it(`${id} on ${wire}: the body rig exec sends, without keys`, async () => {
      const repo = tempGitRepo({ 'app.js': APP_BEFORE });
      const home = tempRigHome({ url: mock.url, wire });
      writeFileSync(join(home, 'config.toml'), [
        'model_provider = "mock"',
        'model = "mock-model"',
        'sandbox_mode = "workspace-write"',
        '[model_providers.mock]',
        `base_url = "${mock.url}"`,
        `wire_api = "${wire}"`,
        'env_key = "MOCK_API_KEY"',
        ...(provider === 'mock' ? [] : [`[model_providers.${provider}]`, `base_url = "${mock.url}"`, `wire_api = "${wire}"`, 'env_key = "MOCK_API_KEY"']),
        '',
      ].join('\n'));
      try {
        const shown = await runRig(['harness', 'show', id, '--provider', provider, '--wire', wire, '--prompt', PROMPT, '--json'], { cwd: repo, home });
        expect(shown.stderr).toBe('');
        expect(shown.code).toBe(0);
        expect(shown.stdout).not.toContain('sk-mock-secret');
        const printed = JSON.parse(shown.stdout) as { harness: string; wire: string; body: unknown };
        expect(printed).toMatchObject({ harness: id, wire, provider });

        const before = mock.requests.length;
        // A reply that ends the task at once under each protocol (SWE-agent submits twice: review, then submission).
        const submit = { text: 'DISCUSSION\nNothing to do.\n\n```\nsubmit\n```' };
        if (id === 'swe-agent') mock.enqueue(submit, submit);
        else mock.enqueue({ text: 'ok' });
        const run = await runRig(['exec', '--harness', id, '--provider', provider, PROMPT], { cwd: repo, home });
        expect(run.code).toBe(0);
        const sent = mock.requests[before]!;
        const now = new Date();
        const normal = (body: unknown) => JSON.parse(requestSnapshot({ path: '', headers: {}, body }, { repo, home, now })).body;
        expect(normal(printed.body)).toEqual(normal(sent.body));
      } finally {
        removeDir(repo);
        removeDir(home);
      }
    });
  }
});

describe('redact', () => {
  it('hides credential fields and any string holding a secret, leaving the rest', async () => {
    const { redact } = await import('../../src/frontends/harness/show.js');
    expect(redact({ model: 'm', api_key: 'abc', headers: { Authorization: 'Bearer x' }, note: 'key sk-1 here', max_tokens: 5 }, ['sk-1'])).toEqual({
      model: 'm', api_key: '[redacted]', headers: { Authorization: '[redacted]' }, note: '[redacted]', max_tokens: 5,
    });
  });
});
