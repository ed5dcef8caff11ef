// Whether a thread started with this request could call its provider: the provider needs no key,
// or its key is set. `rig` with no subcommand uses it to fall back to the offline demo.
import { loadConfig, resolveRigHome } from '../config/index.js';
import { providerAuth, resolveProvider, type ProviderInfo } from '../model/index.js';
import type { ThreadStartRequest } from './engine.js';
import { REPLAY_PROVIDER_ID } from './replay-provider.js';

export type Readiness = { ready: true } | { ready: false; missingKey: string; providerName: string };

export function providerReadiness(request: ThreadStartRequest, env: NodeJS.ProcessEnv): Readiness {
  const overrides = request.overrides ?? {};
  if (overrides.replayFile) return { ready: true };
  const loaded = loadConfig({
    home: resolveRigHome(env),
    cwd: request.cwd,
    ...(request.profile ? { profile: request.profile } : {}),
    overrides: request.config ?? [],
    flags: overrides.provider ? { provider: overrides.provider } : {},
    env,
    ...(request.ignoreUserConfig ? { ignoreUserConfig: true } : {}),
  });
  const id = loaded.config.model_provider;
  if (id === REPLAY_PROVIDER_ID) return { ready: true };
  const provider = resolveProvider(id, loaded.config.model_providers as Record<string, Partial<ProviderInfo>>, env);
  try {
    providerAuth(provider, env);
    return { ready: true };
  } catch {
    return { ready: false, missingKey: provider.env_key ?? 'an API key', providerName: provider.name };
  }
}

/** RIG_HOME for this environment (for messages). */
export { resolveRigHome as rigHomeOf } from '../config/index.js';
