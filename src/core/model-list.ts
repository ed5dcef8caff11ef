// The models a front end can offer (app-server's model/list): the configured model of the
// provider a thread would start with, then the models the config's profiles name for that same
// provider. rig keeps no remote catalog, so a model that is neither configured nor the provider's
// default is not listed (it can still be named with `model` on thread/start or turn/start).
import { loadConfig, resolveRigHome } from '../config/index.js';
import { contextWindowFor } from '../context/index.js';
import { CODEX_DEFAULT_MODEL, resolveProvider, type ProviderInfo } from '../model/index.js';

export interface ModelListing {
  id: string;
  provider: string;
  providerName: string;
  isDefault: boolean;
  /** The configured effort for this model, if any (model_reasoning_effort). */
  reasoningEffort?: string;
  contextWindow: number;
}

export function listModels(io: { env: NodeJS.ProcessEnv; cwd: string; home?: string }): ModelListing[] {
  const { config } = loadConfig({ home: io.home ?? resolveRigHome(io.env), cwd: io.cwd, env: io.env });
  const providers = config.model_providers as Record<string, Partial<ProviderInfo>>;
  const provider = resolveProvider(config.model_provider, providers, io.env);
  const models: ModelListing[] = [];
  const add = (id: string | undefined, effort: string | undefined) => {
    if (!id || models.some((m) => m.id === id)) return;
    models.push({
      id,
      provider: provider.id,
      providerName: provider.name,
      isDefault: models.length === 0,
      ...(effort ? { reasoningEffort: effort } : {}),
      contextWindow: contextWindowFor(id, config.model_context_window),
    });
  };
  add(config.model ?? provider.default_model ?? CODEX_DEFAULT_MODEL, config.model_reasoning_effort);
  for (const profile of Object.values(config.profiles)) {
    const sameProvider = (profile.model_provider ?? config.model_provider) === provider.id;
    if (sameProvider) add(profile.model, profile.model_reasoning_effort);
  }
  return models;
}
