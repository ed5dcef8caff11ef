// A Codex user's config.toml copied into RIG_HOME, through the built CLI: keys that mean nothing
// to rig load without a word; keys that would change what rig does warn once each, saying what
// they would have done.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startMockProvider, type MockProvider } from '../support/mock-provider/index.js';
import { jsonLines, removeDir, runRig, tempGitRepo, tempRigHome } from '../support/workspace.js';

let mock: MockProvider;
let repo: string;
let home: string;

beforeAll(async () => {
  mock = await startMockProvider();
  repo = tempGitRepo({ 'README.md': 'hello\n' });
  home = tempRigHome({ url: mock.url });
});

afterAll(async () => {
  await mock.close();
  removeDir(repo);
  removeDir(home);
});

// What Codex users commonly carry in ~/.codex/config.toml, beside the provider setup.
const CODEX_HABITS = `
disable_response_storage = true
preferred_auth_method = "apikey"
check_for_update_on_startup = false
web_search_request = true
file_opener = "vscode"
hide_agent_reasoning = false
show_raw_agent_reasoning = false
approvals_reviewer = "user"
forced_login_method = "api"
windows_wsl_setup_acknowledged = true

[analytics]
enabled = false

[notice]
hide_full_access_warning = true
`;

test('a Codex config.toml loads without warnings for keys that mean nothing to rig', async () => {
  const config = join(home, 'config.toml');
  // Top-level keys go before the provider table (TOML would put them inside it).
  writeFileSync(config, `${CODEX_HABITS.replace(/\n\[analytics\][\s\S]*/, '')}\n${readFileSync(config, 'utf8')}\n[analytics]\nenabled = false\n\n[notice]\nhide_full_access_warning = true\n`);
  mock.enqueue({ text: 'ok' });
  const run = await runRig(['exec', '--json', 'hi'], { cwd: repo, home });
  expect(run.code, run.stderr).toBe(0);
  expect(jsonLines(run.stdout).filter((e) => (e as { item?: { type: string } }).item?.type === 'error')).toEqual([]);
});

test('a key that would change behaviour warns once, naming what it would have done', async () => {
  const dir = tempRigHome({ url: mock.url });
  const config = join(dir, 'config.toml');
  writeFileSync(config, `personality = "pragmatic"\nservice_tier = "flex"\n${readFileSync(config, 'utf8')}\n[profiles.deep]\npersonality = "friendly"\n`);
  mock.enqueue({ text: 'ok' });
  const run = await runRig(['exec', '--json', 'hi'], { cwd: repo, home: dir });
  removeDir(dir);
  expect(run.code, run.stderr).toBe(0);
  const warnings = jsonLines(run.stdout).flatMap((e) => ((e as { item?: { type: string; message: string } }).item?.type === 'error' ? [(e as { item: { message: string } }).item.message] : []));
  expect(warnings).toEqual([
    `${config}:1: personality is a Codex setting rig does not implement yet; it would set the model's personality (friendly / pragmatic), so it has no effect here`,
    `${config}:2: service_tier is a Codex setting rig does not implement yet; it would request a service tier (e.g. priority or flex) from the provider, so it has no effect here`,
  ]);
});
