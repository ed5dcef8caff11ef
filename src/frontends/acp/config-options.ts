// ACP session config options (session/new's and session/load's `configOptions`, changed with
// session/set_config_option): the thread's model, reasoning effort, harness and approval mode
// (Codex's presets, the same as the session modes). A change applies from the next turn, through
// the engine's updateSettings. A setting the thread has from config but no option names (an
// unlisted model, no effort set, a custom approval policy) is shown as its own extra option.
import { RequestError, type SessionConfigOption, type SessionConfigSelectOption } from '@agentclientprotocol/sdk';
import { listHarnesses, profileSearch } from '../../core/harness-catalog.js';
import { listModels } from '../../core/model-list.js';
import type { ThreadHandle } from '../../core/thread-handle.js';
import type { SettingsUpdate } from '../../protocol/index.js';
import { currentModeId, modeState, presetOf } from './modes.js';

/** Codex's reasoning efforts. */
const EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const DEFAULT_EFFORT = 'default';

export interface ConfigOptionContext {
  env: NodeJS.ProcessEnv;
  home: string;
}

function withCurrent(options: SessionConfigSelectOption[], current: string, name: string = current): SessionConfigSelectOption[] {
  return options.some((option) => option.value === current) ? options : [...options, { value: current, name }];
}

export function configOptions(handle: ThreadHandle, context: ConfigOptionContext): SessionConfigOption[] {
  const settings = handle.settings;
  let models: SessionConfigSelectOption[] = [];
  try {
    models = listModels({ env: context.env, cwd: settings.cwd, home: context.home }).map((model) => ({ value: model.id, name: model.id, description: model.providerName }));
  } catch {
    // A config that cannot list models still lets the current one show.
  }
  const harnesses = listHarnesses(profileSearch({ env: { ...context.env, RIG_HOME: context.home }, cwd: settings.cwd }))
    .filter((entry) => !entry.error)
    .map((entry) => ({ value: entry.id, name: entry.id, ...(entry.description ? { description: entry.description } : {}) }));
  const efforts: SessionConfigSelectOption[] = EFFORTS.map((effort) => ({ value: effort, name: effort }));
  const modes = modeState(settings);
  return [
    { type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: settings.model, options: withCurrent(models, settings.model) },
    {
      type: 'select',
      id: 'reasoning_effort',
      name: 'Reasoning effort',
      category: 'thought_level',
      currentValue: settings.reasoning_effort ?? DEFAULT_EFFORT,
      options: settings.reasoning_effort ? withCurrent(efforts, settings.reasoning_effort) : [{ value: DEFAULT_EFFORT, name: "The model's default" }, ...efforts],
    },
    { type: 'select', id: 'harness', name: 'Harness', description: 'The agent whose tools and prompt the model sees', currentValue: settings.harness, options: withCurrent(harnesses, settings.harness) },
    {
      type: 'select',
      id: 'mode',
      name: 'Approval mode',
      category: 'mode',
      currentValue: currentModeId(settings),
      options: modes.availableModes.map((mode) => ({ value: mode.id, name: mode.name, ...(mode.description ? { description: mode.description } : {}) })),
    },
  ];
}

/** The settings change a chosen value makes; an unknown option or value is the client's error, named. */
export function settingsFor(handle: ThreadHandle, configId: string, value: string | boolean, context: ConfigOptionContext): SettingsUpdate {
  const option = configOptions(handle, context).find((candidate) => candidate.id === configId);
  if (!option) throw RequestError.invalidParams(undefined, `unknown config option "${configId}"; rig's are model, reasoning_effort, harness and mode`);
  if (typeof value !== 'string' || option.type !== 'select') throw RequestError.invalidParams(undefined, `config option "${configId}" takes one of its listed values, not ${JSON.stringify(value)}`);
  const values = option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry])).map((entry) => entry.value);
  // A model rig does not list may still be one the provider serves: it is the client's to name.
  if (configId !== 'model' && !values.includes(value)) {
    throw RequestError.invalidParams(undefined, `"${value}" is not a value of config option "${configId}"; choose one of ${values.join(', ')}`);
  }
  switch (configId) {
    case 'model':
      return { model: value };
    case 'reasoning_effort':
      if (value === DEFAULT_EFFORT) throw RequestError.invalidParams(undefined, `reasoning effort "${DEFAULT_EFFORT}" cannot be chosen once an effort is set; choose one of ${EFFORTS.join(', ')}`);
      return { reasoning_effort: value };
    case 'harness':
      return { harness: value };
    default: {
      const preset = presetOf(value);
      if (!preset) throw RequestError.invalidParams(undefined, `mode "${value}" is how the thread is configured, not a preset to choose; choose read-only, auto or full-access`);
      return { approval_policy: preset.approval_policy, sandbox_mode: preset.sandbox_mode };
    }
  }
}
