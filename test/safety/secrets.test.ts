// Configured secrets never reach model-run commands, disk or output, through the real CLI: provider
// key variables of built-in providers other than the active one, header, env-header and query
// values, and the password of a user:pass@ base URL. The model prints them with `env` and `echo`;
// neither the --json stream, stderr, nor the rollout may carry them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider, type MockRequest } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let repo = '';
let home = '';

const SECRETS = {
  openai: 'sk-openai-key-should-not-leak-111',
  anthropic: 'sk-ant-key-should-not-leak-222',
  header: 'hdr-secret-value-333',
  envHeader: 'env-header-secret-444',
  query: 'query-secret-value-555',
  password: 'base-url-pa55word-666',
};

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({
    url: mock.url,
    extra: [
      `http_headers = { "x-team-secret" = "${SECRETS.header}" }`,
      'env_http_headers = { "x-env-secret" = "TEAM_HEADER_VALUE" }',
      `query_params = { "token" = "${SECRETS.query}" }`,
      '',
      '[model_providers.internal]',
      'name = "Internal gateway"',
      `base_url = "https://svc:${SECRETS.password}@gateway.example.invalid/v1"`,
      'env_key = "INTERNAL_KEY"',
    ].join('\n'),
  });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

function toolOutputs(request: MockRequest): string {
  return (request.body.input as { type: string; output?: unknown }[])
    .filter((item) => item.type.endsWith('call_output'))
    .map((item) => String(item.output))
    .join('\n');
}

function rolloutText(): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.jsonl')) found.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(home, 'sessions'));
  return found.join('\n');
}

describe('configured secrets', () => {
  it('are not in commands\' environment, nor in --json output, stderr or the rollout', { timeout: 60_000 }, async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: 'env | sort' } }] },
      { toolCalls: [{ name: 'exec_command', arguments: { cmd: `echo ${Object.values(SECRETS).join(' ')} >&2; echo ${SECRETS.header}` } }] },
      { text: `the header is ${SECRETS.header} and the password ${SECRETS.password}` },
    );
    const run = await runRig(['exec', '--json', '-s', 'workspace-write', 'show me'], {
      cwd: repo,
      home,
      env: { OPENAI_API_KEY: SECRETS.openai, ANTHROPIC_API_KEY: SECRETS.anthropic, TEAM_HEADER_VALUE: SECRETS.envHeader, INTERNAL_KEY: 'internal-key-777' },
    });
    expect(run.code, run.stderr).toBe(0);
    // What the provider got is the user's business (its own headers); commands' output is not.
    const [, afterEnv] = mock.requests.slice(-3);
    const envOutput = toolOutputs(afterEnv!);
    expect(envOutput).toMatch(/^PATH=/m);
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'MOCK_API_KEY', 'TEAM_HEADER_VALUE', 'INTERNAL_KEY', 'RIG_HOME']) {
      expect(envOutput).not.toMatch(new RegExp(`^${name}=`, 'm'));
    }
    const written = [run.stdout, run.stderr, rolloutText()].join('\n');
    expect(jsonLines(run.stdout).length).toBeGreaterThan(3);
    expect(written).toContain('[redacted]');
    for (const [what, value] of Object.entries(SECRETS)) expect(written, what).not.toContain(value);
  });
});
