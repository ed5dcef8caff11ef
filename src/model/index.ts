// The model room's public surface. Wire adapters are deliberately not re-exported: they load on
// demand inside createModelClient so startup never pays for them.
export type { HostedWebSearch, ModelClient, ModelRequest, WireApi, WireShape } from './types.js';
export { BUILTIN_COMPAT, COMPAT_FLAGS, resolveCompat, type ProviderCompat, type ResolvedCompat } from './compat.js';
export { ModelSetupError } from './errors.js';
export {
  BUILTIN_PROVIDERS,
  CODEX_DEFAULT_MODEL,
  DEFAULT_REQUEST_MAX_RETRIES,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_STREAM_MAX_RETRIES,
  providerAuth,
  resolveProvider,
  type Env,
  type ProviderInfo,
} from './providers.js';
export { createModelClient, endpointUrl, providerHeaders, providerSecrets, type CreateModelClientOptions } from './create-client.js';
export { displayUrl, scrubSecrets } from './url.js';
export { OUTPUT_LIMIT_NOTICE } from './wires/output-limit.js';
export type { RetryClock } from './transport/retry.js';
export { checkReachability, REACHABILITY_TIMEOUT_MS, type Reachability } from './reachability.js';
export { listProviderModels, MODEL_LIST_TIMEOUT_MS } from './model-list.js';
export { useBaselineWasmCompiler } from './transport/wasm-baseline.js';
