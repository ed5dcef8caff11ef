// Errors raised before any request is sent (bad provider config, missing key). Stream-time failures
// never throw: they arrive as a terminal `error` ModelEvent.

export class ModelSetupError extends Error {
  override readonly name = 'ModelSetupError';
}
