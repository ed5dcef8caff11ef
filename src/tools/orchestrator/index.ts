// The orchestrator as the engine sees it: a factory of tool capabilities for each turn. Every
// capability that acts on the machine goes through the one pipeline (pipeline.ts) with its runtime.
import type { CapabilitiesFactory } from '../spec.js';
import { readSession, runCommand, writeToSession } from './command.js';
import { applyFileChanges, canWriteFor } from './file-change.js';
import { readClientText } from './file-read.js';
import { fetchUrl, searchWeb } from './network.js';
import type { OrchestratorOptions } from './options.js';
import { callMcpTool } from './mcp-call.js';
import { askUserQuestions } from './user-input.js';

export type { OrchestratorOptions } from './options.js';
export { USER_DECLINED_EXEC } from './command.js';
export { USER_DECLINED_PATCH } from './file-change.js';
export { USER_DECLINED_MCP } from './mcp-call.js';
export { USER_DECLINED_NETWORK } from './network.js';
export type { UserInputOutcome, UserInputQuestionRequest } from './user-input.js';
export { declinedWithFeedback, noApproverMessage } from './pipeline.js';

export function createOrchestrator(options: OrchestratorOptions): CapabilitiesFactory {
  return (services) => ({
    exec: (request) => runCommand(request, options, services),
    writeStdin: (sessionId, chars, yieldTimeMs) => writeToSession(sessionId, chars, yieldTimeMs, options, services),
    applyChanges: (edits) => applyFileChanges(edits, options, services),
    canWrite: (path) => canWriteFor(options, path),
    readClientText: (path) => readClientText(path, options, services),
    ...mcpCapability(options, services),
    fetchUrl: (request) => fetchUrl(request, options, services),
    ...(options.webSearch ? { webSearch: (query: string, opts?: { maxResults?: number }) => searchWeb(query, options.webSearch!, opts?.maxResults, options, services) } : {}),
    readSession: (sessionId, read) => readSession(sessionId, read, options, services),
    closeSession: (sessionId) => options.unifiedExec.closeSession(sessionId),
    askUser: (request) => askUserQuestions(request, services),
  });
}

function mcpCapability(options: OrchestratorOptions, services: Parameters<CapabilitiesFactory>[0]): Pick<ReturnType<CapabilitiesFactory>, 'callMcp'> {
  const mcp = options.mcp;
  return mcp ? { callMcp: (request) => callMcpTool(request, mcp, options, services) } : {};
}
