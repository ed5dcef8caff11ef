// turn/* methods: start (with per-turn setting overrides that stay for later turns), steer,
// interrupt.
import { resolve as resolvePath } from 'node:path';
import { ERROR_CODES, type ParamsOf, type ResultOf } from '../../protocol/app-server/index.js';
import type { JsonSchema } from '../../protocol/index.js';
import { RpcError } from './connection.js';
import { engineInput, turnSettings } from './params.js';
import type { MethodHandler } from './server.js';
import { liveTurn } from './thread-view.js';
import { clientError } from './thread-methods.js';

export const TURN_METHODS: Record<string, MethodHandler> = {
  'turn/start': async (params: ParamsOf<'turn/start'>, context): Promise<ResultOf<'turn/start'>> => {
    const handle = context.loaded(params.threadId);
    if (handle.isRunning) {
      throw new RpcError(ERROR_CODES.invalidRequest, `thread ${handle.id} is running ${handle.currentTurnId}; add input with turn/steer or stop it with turn/interrupt`);
    }
    if (params.cwd && resolvePath(context.cwd, params.cwd) !== handle.settings.cwd) {
      throw new RpcError(ERROR_CODES.invalidParams, `cwd: rig keeps a thread in the directory it started in (${handle.settings.cwd}); start a new thread with cwd ${params.cwd}`);
    }
    const input = engineInput(params.input);
    const update = turnSettings(params);
    if (Object.keys(update).length > 0) {
      try {
        await handle.updateSettings(update);
      } catch (error) {
        throw new RpcError(ERROR_CODES.invalidParams, error instanceof Error ? error.message : String(error));
      }
    }
    const schema = params.outputSchema;
    if (schema !== undefined && schema !== null && (typeof schema !== 'object' || Array.isArray(schema))) {
      throw new RpcError(ERROR_CODES.invalidParams, 'outputSchema: must be a JSON Schema object');
    }
    if (params.clientUserMessageId) context.bridge.expectClientMessageId(handle.id, params.clientUserMessageId);
    let started;
    try {
      started = handle.startTurn(input, schema ? { outputSchema: schema as JsonSchema } : {});
    } catch (error) {
      throw clientError(error);
    }
    context.noteLoaded(handle, input.text);
    return { turn: liveTurn(started.turnId, 'inProgress', { startedAtMs: Date.now() }) };
  },

  'turn/steer': (params: ParamsOf<'turn/steer'>, context): ResultOf<'turn/steer'> => {
    const handle = context.loaded(params.threadId);
    try {
      return { turnId: handle.steer(engineInput(params.input), params.expectedTurnId) };
    } catch (error) {
      throw clientError(error);
    }
  },

  'turn/interrupt': (params: ParamsOf<'turn/interrupt'>, context): ResultOf<'turn/interrupt'> => {
    const handle = context.loaded(params.threadId);
    if (handle.currentTurnId !== params.turnId) {
      throw new RpcError(ERROR_CODES.invalidRequest, `turn ${params.turnId} is not running on thread ${handle.id} (running: ${handle.currentTurnId ?? 'none'})`);
    }
    // The turn ends with turn/completed (status interrupted) once its commands are stopped.
    void handle.interrupt();
    return {};
  },
};
