// Public surface of the hooks room (see docs/extensibility.md for how the engine calls it).
export { loadHooks } from './discovery.js';
export type { HookListEntry, HookStatus, LoadedHooks, LoadHooksOptions } from './discovery.js';
export { hookHash, parseHookEvents } from './config.js';
export type { HookLocator, HookSourceInput, ParsedHooks } from './config.js';
export { runHooks, selectHandlers } from './dispatch.js';
export {
  DEFAULT_HOOK_TIMEOUT_SEC,
  eventKeyLabel,
  eventScope,
  eventUsesMatcher,
  eventWireName,
  FOREIGN_HOOK_EVENTS,
  HOOK_EVENTS,
  isHookEvent,
  MATCHER_INPUT,
} from './events.js';
export type { HookEventName } from './events.js';
export { matcherMatches, matcherProblem } from './matcher.js';
export { notifyPayload, runNotify } from './notify.js';
export type { NotifyResult, TurnCompleteNotification } from './notify.js';
export { hookToolIdentity, matcherInputsFor } from './tool-names.js';
export type { HookToolIdentity } from './tool-names.js';
export { confirmHooks, hookTrustPath, readHookTrust } from './trust.js';
export type * from './types.js';
