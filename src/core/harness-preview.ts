// The exact body of the first request rig would send with a harness for a sample prompt (`rig
// harness show`), built by the real path: an engine thread -> harness setup -> request shaping ->
// text-protocol driver -> the wire adapter's buildBody. Nothing is sent: the client only records
// the body. It is built with a dummy key, and anything that looks like a credential is redacted.
import { loadConfig, resolveRigHome } from '../config/index.js';
import { createModelClient, resolveProvider, type ProviderInfo } from '../model/index.js';
import type { ModelClient, ModelRequest, WireApi } from '../model/types.js';
import type { ModelEvent } from '../protocol/index.js';
import { findProfile } from '../harness/loader.js';
import { omittedTools } from '../tools/harness/registry.js';
import { profileSearch } from './harness-catalog.js';
import { Engine } from './engine.js';
import { EXEC_NO_TIMERS } from './timers/reasons.js';

/** Where the preview reads its environment. */
export interface PreviewIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const SAMPLE_PROMPT = 'List the files in this directory.';
const DUMMY_KEY = 'rig-harness-show-dummy-key';
const SECRET_FIELD = /^(authorization|x-api-key|api[-_]?key|.*[-_]token|.*secret.*)$/i;
const WIRES: readonly WireApi[] = ['responses', 'chat', 'messages'];

export interface ShowFlags {
  wire?: string;
  provider?: string;
  model?: string;
  json?: boolean;
  prompt?: string;
  /** -c key=value overrides and -p profile, as every command takes them. */
  config?: string[];
  profile?: string;
}

export interface FirstRequest {
  harness: string;
  provider: string;
  wire: WireApi;
  model: string;
  body: Record<string, unknown>;
  /** Tools of the original left out of the request, with why. */
  omitted: { name: string; reason: string }[];
}

/** Records the body the wrapped client would send and ends the turn without a network call. */
class RecordingClient implements ModelClient {
  readonly wire: WireApi;
  body: Record<string, unknown> | undefined;

  constructor(private readonly real: ModelClient) {
    this.wire = real.wire;
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.real.buildBody(request);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    this.body ??= this.real.buildBody(request);
    yield { type: 'completed', stop_reason: 'end_turn' };
  }
}

/** Replaces credentials (by field name, or any string holding `secrets`) with "[redacted]". */
export function redact(value: unknown, secrets: readonly string[], key = ''): unknown {
  if (typeof value === 'string') {
    if (SECRET_FIELD.test(key) || secrets.some((secret) => secret !== '' && value.includes(secret))) return '[redacted]';
    return value;
  }
  if (Array.isArray(value)) return value.map((entry) => redact(entry, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, redact(entry, secrets, name)]));
  }
  return value;
}

function resolveShowProvider(flags: ShowFlags, io: PreviewIo): { provider: ProviderInfo; model: string } {
  const home = resolveRigHome(io.env);
  const { config } = loadConfig({
    home,
    cwd: io.cwd,
    env: io.env,
    overrides: flags.config ?? [],
    ...(flags.profile ? { profile: flags.profile } : {}),
    flags: flags.provider ? { provider: flags.provider } : {},
  });
  const id = flags.provider ?? config.model_provider;
  if (id === 'replay') throw new Error('rig harness show needs a provider with a wire; pass --provider ID (e.g. --provider openai)');
  let provider = resolveProvider(id, config.model_providers as Record<string, Partial<ProviderInfo>>, io.env);
  if (flags.wire !== undefined) {
    if (!WIRES.includes(flags.wire as WireApi)) throw new Error(`--wire must be one of ${WIRES.join(', ')}; got "${flags.wire}"`);
    provider = { ...provider, wire_api: flags.wire as WireApi };
  }
  const model = flags.model ?? config.model ?? provider.default_model ?? 'sample-model';
  return { provider, model };
}

export async function buildFirstRequest(id: string, flags: ShowFlags, io: PreviewIo): Promise<FirstRequest> {
  const { provider, model } = resolveShowProvider(flags, io);
  // Only the dummy key is visible to the client: a real key cannot end up in what we print.
  const real = await createModelClient(provider, { env: provider.env_key ? { [provider.env_key]: DUMMY_KEY } : {} });
  const recorder = new RecordingClient(real);
  const engine = new Engine({ env: io.env, modelClient: () => recorder });
  const thread = await engine.startThread({
    cwd: io.cwd,
    overrides: { harness: id, model, ...(flags.provider ? { provider: flags.provider } : {}), approvalPolicy: 'never' },
    ...(flags.config ? { config: flags.config } : {}),
    ...(flags.profile ? { profile: flags.profile } : {}),
    ephemeral: true,
    // The request `rig exec` sends: nobody to approve, and no timers (exec ends with its turn).
    canAskApproval: false,
    noTimers: EXEC_NO_TIMERS,
  });
  try {
    const result = await thread.startTurn({ text: flags.prompt ?? SAMPLE_PROMPT }).done;
    if (result.status !== 'completed' || !recorder.body) throw new Error(result.error ?? 'no request was built');
    const secrets = [DUMMY_KEY, ...(provider.env_key && io.env[provider.env_key] ? [io.env[provider.env_key] as string] : [])];
    const harness = thread.settings.harness;
    const omitted = omittedTools(findProfile(harness, profileSearch(io)));
    return { harness, provider: provider.id, wire: recorder.wire, model, body: redact(recorder.body, secrets) as Record<string, unknown>, omitted };
  } finally {
    await engine.close();
  }
}
