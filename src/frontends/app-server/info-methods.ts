// model/list, config/read, and rig's extensions: harness and wire selection, and what a thread
// runs with (rig/thread/start, rig/thread/info, rig/thread/harness/set, rig/harness/list).
import { resolve as resolvePath } from 'node:path';
import { readEffectiveConfig } from '../../core/config-read.js';
import { listHarnesses, profileSearch } from '../../core/harness-catalog.js';
import { listModels } from '../../core/model-list.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import { loadConfig } from '../../core/config-files.js';
import type { ParamsOf, ResultOf } from '../../protocol/app-server/index.js';
import { RpcError } from './connection.js';
import { threadRequest } from './params.js';
import type { MethodHandler } from './server.js';
import { clientError } from './thread-methods.js';
import { loadResult } from './thread-view.js';

const EFFORTS = ['low', 'medium', 'high'] as const;

function rigInfo(handle: ThreadHandle): ResultOf<'rig/thread/info'> {
  const settings = handle.settings;
  return {
    threadId: handle.id,
    harness: settings.harness,
    wire: handle.info.wire,
    modelProvider: handle.info.provider.id,
    modelProviderName: handle.info.provider.name,
    model: settings.model,
    approvalPolicy: settings.approval_policy,
    sandbox: settings.sandbox_mode,
  };
}

export const INFO_METHODS: Record<string, MethodHandler> = {
  'model/list': (params: ParamsOf<'model/list'>, context): ResultOf<'model/list'> => {
    let models;
    try {
      models = listModels({ env: context.env, cwd: context.cwd, home: context.engine.home });
    } catch (error) {
      throw clientError(error);
    }
    const offset = params.cursor ? Number.parseInt(params.cursor, 10) || 0 : 0;
    const limit = params.limit ?? models.length;
    const page = models.slice(offset, offset + limit).map((model) => ({
      id: model.id,
      model: model.id,
      upgrade: null,
      upgradeInfo: null,
      availabilityNux: null,
      displayName: model.id,
      description: `${model.providerName}; context window ${model.contextWindow.toLocaleString('en-US')} tokens`,
      modelSpecialty: null,
      hidden: false,
      supportedReasoningEfforts: EFFORTS.map((effort) => ({ reasoningEffort: effort, description: `${effort} reasoning effort` })),
      defaultReasoningEffort: model.reasoningEffort ?? 'medium',
      inputModalities: ['text', 'image'] as ('text' | 'image')[],
      supportsPersonality: false,
      multiAgentVersion: null,
      additionalSpeedTiers: [],
      serviceTiers: [],
      defaultServiceTier: null,
      availableAccessPrograms: null,
      isDefault: model.isDefault,
    }));
    return { data: page, nextCursor: offset + limit < models.length ? String(offset + limit) : null };
  },

  'config/read': (params: ParamsOf<'config/read'>, context): ResultOf<'config/read'> => {
    let effective;
    try {
      effective = readEffectiveConfig({ env: context.env, cwd: params.cwd ? resolvePath(context.cwd, params.cwd) : context.cwd, home: context.engine.home });
    } catch (error) {
      throw clientError(error);
    }
    const layers = effective.layers.map((layer) => ({
      name: layer.kind === 'user' ? { type: 'user' as const, file: layer.file, profile: null } : { type: 'project' as const, dotCodexFolder: resolvePath(layer.file, '..') },
      version: '1',
      config: layer.values ?? null,
      disabledReason: layer.values === undefined ? 'the file does not parse as TOML' : null,
    }));
    return { config: effective.config, origins: {}, layers: params.includeLayers ? layers : null };
  },

  'rig/thread/start': async (params: ParamsOf<'rig/thread/start'>, context): Promise<ResultOf<'rig/thread/start'>> => {
    const extra: string[] = [];
    if (params.harness) extra.push(`harness=${JSON.stringify(params.harness)}`);
    if (params.wire) {
      // The wire belongs to the provider: the thread's provider is spoken over the chosen one.
      let provider = params.modelProvider ?? undefined;
      if (!provider) {
        try {
          provider = loadConfig({ home: context.engine.home, cwd: params.cwd ? resolvePath(context.cwd, params.cwd) : context.cwd, env: context.env }).config.model_provider;
        } catch (error) {
          throw clientError(error);
        }
      }
      extra.push(`model_providers.${provider}.wire_api=${JSON.stringify(params.wire)}`);
    }
    let handle: ThreadHandle;
    try {
      handle = await context.engine.startThread(threadRequest(params, context, extra));
    } catch (error) {
      throw clientError(error);
    }
    context.noteLoaded(handle, '');
    return { ...loadResult(handle, context.threadOf(handle)), rig: rigInfo(handle) };
  },

  'rig/thread/info': (params: ParamsOf<'rig/thread/info'>, context): ResultOf<'rig/thread/info'> => rigInfo(context.loaded(params.threadId)),

  'rig/thread/harness/set': async (params: ParamsOf<'rig/thread/harness/set'>, context): Promise<ResultOf<'rig/thread/harness/set'>> => {
    const handle = context.loaded(params.threadId);
    try {
      await handle.updateSettings({ harness: params.harness });
    } catch (error) {
      throw new RpcError(-32602, error instanceof Error ? error.message : String(error));
    }
    return rigInfo(handle);
  },

  'rig/harness/list': (params: ParamsOf<'rig/harness/list'>, context): ResultOf<'rig/harness/list'> => {
    const cwd = params.cwd ? resolvePath(context.cwd, params.cwd) : context.cwd;
    return {
      data: listHarnesses(profileSearch({ env: context.env, cwd })).map((entry) => ({
        id: entry.id,
        description: entry.description ?? null,
        wires: entry.wires ?? [],
        origin: entry.origin,
        error: entry.error ?? null,
      })),
    };
  },
};
