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
  /** Extra per-tool JSON fields a harness sends (e.g. `defer_loading`); wires merge them into the tool object. */
  extras?: Record<string, unknown>;
}

export interface CustomToolDefinition {
  kind: 'custom';
  name: string;
  description: string;
  /** Freeform input constrained by a grammar (Responses `custom` tools). */
  format?: { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string } | { type: 'text' };
  /** Extra per-tool JSON fields a harness sends; wires merge them into the tool object. */
  extras?: Record<string, unknown>;
}

export type ToolDefinition = FunctionToolDefinition | CustomToolDefinition;
