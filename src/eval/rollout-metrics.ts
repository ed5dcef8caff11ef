// What a trial's rollout says about the agent's work: steps (model requests), tool calls and tool
// errors, token usage, and where the time went (waiting for the model, running tools, and the rest,
// which is the harness's own overhead). Records are flushed in order with millisecond timestamps,
// and a step's model_response is written when its stream ends, before its items and tool outputs.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseRollout, rolloutDayDir, threadIdTime, findRolloutFile, type RolloutRecord } from '../core/rollout-files.js';
import { addUsage, emptyUsage, type ModelEvent, type TokenUsage } from '../protocol/index.js';

export interface RolloutMetrics {
  steps: number;
  toolCalls: number;
  toolErrors: number;
  usage: TokenUsage;
  modelMs: number;
  toolMs: number;
}

function stepUsage(events: ModelEvent[]): TokenUsage | undefined {
  for (const event of events) if (event.type === 'completed' && event.usage) return event.usage;
  return undefined;
}

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
const CALL_TYPES = new Set(['function_call', 'custom_tool_call']);

export function rolloutMetrics(text: string): RolloutMetrics {
  const { records } = parseRollout(text);
  const metrics: RolloutMetrics = { steps: 0, toolCalls: 0, toolErrors: 0, usage: emptyUsage(), modelMs: 0, toolMs: 0 };
  const time = (record: RolloutRecord) => Date.parse(record.timestamp);
  let previousAt: number | undefined;
  let stepEndedAt: number | undefined;
  let lastOutputAt: number | undefined;
  const closeStep = () => {
    if (stepEndedAt !== undefined && lastOutputAt !== undefined && lastOutputAt > stepEndedAt) metrics.toolMs += lastOutputAt - stepEndedAt;
    stepEndedAt = undefined;
    lastOutputAt = undefined;
  };
  for (const record of records) {
    const at = time(record);
    if (record.type === 'model_response') {
      closeStep();
      metrics.steps += 1;
      const usage = stepUsage(record.payload.events ?? []);
      if (usage) metrics.usage = addUsage(metrics.usage, { ...emptyUsage(), ...usage });
      if (previousAt !== undefined && Number.isFinite(at)) metrics.modelMs += Math.max(0, at - previousAt);
      stepEndedAt = at;
    } else if (record.type === 'response_item') {
      const item = record.payload as { type: string; is_error?: boolean };
      if (CALL_TYPES.has(item.type)) metrics.toolCalls += 1;
      if (OUTPUT_TYPES.has(item.type)) {
        if (item.is_error) metrics.toolErrors += 1;
        lastOutputAt = at;
      }
    } else if (record.type === 'event_msg' && (record.payload as { type?: string }).type === 'turn_complete') {
      closeStep();
    }
    if (Number.isFinite(at)) previousAt = at;
  }
  closeStep();
  return metrics;
}

/**
 * Follows a rollout while it is written, for the token budget: each poll reads the complete lines
 * added since the last one and returns the running usage total.
 */
export class RolloutTail {
  private offset = 0;
  private partial = '';
  private total: TokenUsage = emptyUsage();

  constructor(readonly path: string) {}

  poll(): TokenUsage {
    if (!existsSync(this.path)) return this.total;
    const size = statSync(this.path).size;
    if (size <= this.offset) return this.total;
    const fd = openSync(this.path, 'r');
    try {
      const buffer = Buffer.alloc(size - this.offset);
      readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const text = this.partial + buffer.toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('"model_response"')) continue;
        try {
          const record = JSON.parse(line) as { type?: string; payload?: { events?: ModelEvent[] } };
          const usage = record.type === 'model_response' ? stepUsage(record.payload?.events ?? []) : undefined;
          if (usage) this.total = addUsage(this.total, { ...emptyUsage(), ...usage });
        } catch {
          // a torn line: the next poll sees it whole
        }
      }
    } finally {
      closeSync(fd);
    }
    return this.total;
  }
}

/** The rollout file of a thread under RIG_HOME: its day folder first (from the id's time), then a scan. */
export function findThreadRollout(home: string, threadId: string): string | undefined {
  const suffix = `-${threadId}.jsonl`;
  const createdAt = threadIdTime(threadId);
  if (createdAt !== undefined) {
    for (const shift of [0, -1, 1]) {
      const dir = rolloutDayDir(home, new Date(createdAt + shift * 86_400_000));
      if (!existsSync(dir)) continue;
      const name = readdirSync(dir).find((entry) => entry.endsWith(suffix));
      if (name) return join(dir, name);
    }
  }
  return findRolloutFile(home, threadId)?.path;
}
