// The orchestrator as the engine sees it: a factory of tool capabilities for each turn.
import type { CapabilitiesFactory } from '../spec.js';
import { ExecOrchestrator } from './exec.js';
import { FileChangeOrchestrator } from './files.js';
import type { OrchestratorOptions } from './options.js';

export type { OrchestratorOptions } from './options.js';
export { USER_DECLINED_EXEC } from './exec.js';
export { USER_DECLINED_PATCH } from './files.js';

export function createOrchestrator(options: OrchestratorOptions): CapabilitiesFactory {
  return (services) => {
    const exec = new ExecOrchestrator(options, services);
    const files = new FileChangeOrchestrator(options, services);
    return {
      exec: (request) => exec.exec(request),
      writeStdin: (sessionId, chars, yieldTimeMs) => exec.writeStdin(sessionId, chars, yieldTimeMs),
      applyChanges: (edits) => files.applyChanges(edits),
      canWrite: (path) => files.canWrite(path),
    };
  };
}
