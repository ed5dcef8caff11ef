// Neutral tool definitions: what the model is told it can call. Wire adapters translate them
// (Responses `function`/`custom`, Chat `tools[].function`, Anthropic `tools[].input_schema`).

export type JsonSchema = Record<string, unknown>;

export interface FunctionToolDefinition {
  kind: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Responses `strict`; Codex sends false. */
  strict?: boolean;
}

export interface CustomToolDefinition {
  kind: 'custom';
  name: string;
  description: string;
  /** Freeform input constrained by a grammar (Responses `custom` tools). */
  format?: { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string } | { type: 'text' };
}

export type ToolDefinition = FunctionToolDefinition | CustomToolDefinition;
