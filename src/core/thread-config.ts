// The config a thread starts with: every layer (RIG_HOME, the project, the profile, `-c`, the
// front end's flags) read in the thread's directory, which for a resumed thread is the one it
// recorded unless the request names another. A start outside a git repository or trusted project
// is refused here when the front end asks for that (`rig exec` without --skip-git-repo-check).
import { isProjectTrusted, loadConfig, type LoadedConfig } from '../config/index.js';
import type { ThreadStartRequest } from './engine-types.js';
import { NOT_TRUSTED_MESSAGE, findGitRoot } from './git-check.js';
import { REPLAY_PROVIDER_ID } from './thread-settings.js';

export function loadThreadConfig(home: string, env: NodeJS.ProcessEnv, request: ThreadStartRequest, recordedCwd: string | undefined): LoadedConfig {
  const baseCwd = request.cd === undefined && recordedCwd ? recordedCwd : request.cwd;
  const overrides = request.overrides ?? {};
  const loaded = loadConfig({
    home,
    cwd: baseCwd,
    ...(request.profile ? { profile: request.profile } : {}),
    overrides: request.config ?? [],
    flags: {
      ...(overrides.model ? { model: overrides.model } : {}),
      ...(overrides.replayFile ? { provider: REPLAY_PROVIDER_ID } : overrides.provider ? { provider: overrides.provider } : {}),
      ...(request.cd ? { cwd: request.cd } : {}),
      ...(overrides.sandbox ? { sandbox: overrides.sandbox } : {}),
      ...(overrides.approvalPolicy ? { approval: overrides.approvalPolicy } : {}),
      ...(overrides.harness ? { harness: overrides.harness } : {}),
      ...(request.addDirs?.length ? { addDirs: request.addDirs } : {}),
    },
    env,
    ...(request.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
    ...(request.strictConfig ? { strict: true } : {}),
  });
  if (request.requireTrustedDirectory && !overrides.yolo && !findGitRoot(loaded.cwd) && !isProjectTrusted(loaded.config, loaded.cwd)) {
    throw new Error(NOT_TRUSTED_MESSAGE);
  }
  return loaded;
}
