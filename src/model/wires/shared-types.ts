// Re-exports so wire files import neutral types from one place.
export type {
  ContentPart,
  ConversationItem,
  CustomToolDefinition,
  FunctionToolDefinition,
  JsonSchema,
  ModelEvent,
  ReasoningItem,
  StopReason,
  TokenUsage,
  ToolDefinition,
  ToolOutput,
  WebSearchAction,
  WebSearchCallItem,
  WebSearchHit,
} from '../../protocol/index.js';
export type { ModelRequest } from '../types.js';
