// Bad configuration reaches the user as one exact line naming the file, line and key, before any
// request is made; an unknown key is only a warning (an error with --strict-config).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempDir, tempGitRepo, progress } from '../../support/workspace.js';

let mock: MockProvider;
let repo: string;
const homes: string[] = [];

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  for (const home of homes) removeDir(home);
});

/** A home whose config.toml is `top` lines, then the mock provider table, then `provider` lines. */
function homeWith(top: string[], provider: string[] = []): { home: string; file: string } {
  const home = tempDir('home');
  homes.push(home);
  const file = join(home, 'config.toml');
  writeFileSync(
    file,
    [
      ...top,
      'model_provider = "mock"',
      'model = "mock-model"',
      '[model_providers.mock]',
      `base_url = "${mock.url}"`,
      'env_key = "MOCK_API_KEY"',
      ...provider,
      '',
    ].join('\n'),
  );
  return { home, file };
}

async function expectNoRequest(run: () => Promise<void>): Promise<void> {
  const before = mock.requests.length;
  await run();
  expect(mock.requests.length).toBe(before);
}

describe('config.toml problems stop the run with the file and line', () => {
  test('a TOML syntax error shows the line and a caret', async () => {
    const { home, file } = homeWith(['model_verbosity = low']);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(progress(run.stderr)).toBe(
        `rig: ${file}:1:19: invalid TOML: invalid value\n1:  model_verbosity = low\n${' '.repeat(22)}^\n2:  model_provider = "mock"\n`,
      );
    });
  });

  test('a value of the wrong type names the key and what was expected', async () => {
    const { home, file } = homeWith([], ['request_max_retries = "many"']);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(progress(run.stderr)).toBe(
        `rig: ${file}:6: invalid type for model_providers.mock.request_max_retries: found "many", expected an integer from 0 to 100\n`,
      );
    });
  });

  test('a value outside an enum lists the accepted values', async () => {
    const { home, file } = homeWith(['sandbox_mode = "sometimes"']);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', '--json', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      const message = `${file}:1: invalid value for sandbox_mode: found "sometimes", expected one of "read-only", "workspace-write", "danger-full-access"`;
      expect(progress(run.stderr)).toBe(`rig: ${message}\n`);
      expect(jsonLines(run.stdout)).toEqual([{ type: 'error', message }]);
    });
  });
});

describe('unknown keys', () => {
  test('an unknown key is a warning and the run goes on', async () => {
    const { home, file } = homeWith(['frobnicate = 1']);
    mock.enqueue({ text: 'ran' });

    const human = await runRig(['exec', 'hi'], { cwd: repo, home });

    expect(human.code).toBe(0);
    expect(human.stdout).toBe('ran\n');
    expect(progress(human.stderr)).toBe(`warning: ${file}:1: unknown config key "frobnicate" (ignored)\nran\n`);
  });

  test('in --json the warning is an error item right after thread.started', async () => {
    const { home, file } = homeWith(['frobnicate = 1']);
    mock.enqueue({ text: 'ran' });

    const run = await runRig(['exec', '--json', 'hi'], { cwd: repo, home });

    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events[0]).toMatchObject({ type: 'thread.started' });
    expect(events.slice(1, 4)).toEqual([
      { type: 'item.completed', item: { id: 'item_0', type: 'error', message: `${file}:1: unknown config key "frobnicate" (ignored)` } },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'ran' } },
    ]);
  });

  test('--strict-config makes an unknown key an error', async () => {
    const { home, file } = homeWith(['frobnicate = 1']);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', '--strict-config', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(progress(run.stderr)).toBe(`rig: ${file}:1: unknown config key "frobnicate"\n`);
    });
  });
});

describe('bad -c overrides', () => {
  test('an override without "=" is refused', async () => {
    const { home } = homeWith([]);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', '-c', 'model', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(progress(run.stderr)).toBe("rig: Invalid override (missing '='): model\n");
    });
  });

  test('an override with a bad value names the override', async () => {
    const { home } = homeWith([]);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', '-c', 'sandbox_mode=nope', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(progress(run.stderr)).toBe('rig: -c sandbox_mode=nope: invalid value for sandbox_mode: found "nope", expected one of "read-only", "workspace-write", "danger-full-access"\n');
    });
  });

  test('an override of the wrong type names the override and the type', async () => {
    const { home } = homeWith([]);
    await expectNoRequest(async () => {
      const run = await runRig(['exec', '-c', 'model_providers.mock.request_max_retries=true', 'hi'], { cwd: repo, home });
      expect(run.code).toBe(1);
      expect(progress(run.stderr)).toBe('rig: -c model_providers.mock.request_max_retries=true: invalid type for model_providers.mock.request_max_retries: found true, expected an integer from 0 to 100\n');
    });
  });

  test('a flag value outside its choices is a usage error (exit 2)', async () => {
    const { home } = homeWith([]);
    const run = await runRig(['exec', '--sandbox', 'nope', 'hi'], { cwd: repo, home });
    expect(run.code).toBe(2);
    expect(progress(run.stderr)).toBe(
      "error: option '-s, --sandbox <mode>' argument 'nope' is invalid. Allowed choices are read-only, workspace-write, danger-full-access.\n(run with --help for usage)\n",
    );
  });
});
