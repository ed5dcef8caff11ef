// The `replay` provider: answers each request with the model response recorded at the same step of
// a rollout, so a session can be re-run offline (demos, regression tests of prompts and harnesses).
// Tool outputs may differ from the recording; the sequence of tool calls the agent sends back may
// not, and running past the recording is a divergence too. Both fail loudly, naming the step.
import { readFileSync } from 'node:fs';
import type { ConversationItem, ModelEvent } from '../protocol/index.js';
import type { ModelClient, ModelRequest, WireApi } from './types.js';

interface RecordedStep {
  events: ModelEvent[];
  /** Where the step was recorded (1-based line of the rollout). */
  line: number;
}

export class ReplayDivergenceError extends Error {}

function readRecordedSteps(file: string): RecordedStep[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReplayDivergenceError(`cannot read replay file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const steps: RecordedStep[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!line.includes('"model_response"')) return;
    try {
      const record = JSON.parse(line) as { type?: string; payload?: { events?: ModelEvent[] } };
      if (record.type === 'model_response' && Array.isArray(record.payload?.events)) {
        steps.push({ events: record.payload.events, line: index + 1 });
      }
    } catch {
      // A torn last line (the recording was cut off) holds no usable response.
    }
  });
  if (steps.length === 0) {
    throw new ReplayDivergenceError(`${file} holds no recorded model responses; record a session first (any rig exec run writes one under $RIG_HOME/sessions)`);
  }
  return steps;
}

/** The tool calls (name + arguments) in an item list, as comparable text. */
function callSignatures(items: readonly ConversationItem[]): string[] {
  const calls: string[] = [];
  for (const item of items) {
    if (item.type === 'function_call') calls.push(`${item.name}(${item.arguments})`);
    else if (item.type === 'custom_tool_call') calls.push(`${item.name}<<${item.input}>>`);
  }
  return calls;
}

function describeDiff(expected: string[], actual: string[]): string {
  const lines: string[] = [];
  const length = Math.max(expected.length, actual.length);
  for (let i = 0; i < length; i++) {
    if (expected[i] === actual[i]) continue;
    if (expected[i] !== undefined) lines.push(`- ${clip(expected[i]!)}`);
    if (actual[i] !== undefined) lines.push(`+ ${clip(actual[i]!)}`);
  }
  return lines.join('\n');
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

export class ReplayClient implements ModelClient {
  readonly wire: WireApi = 'responses';
  private next = 0;
  private readonly steps: RecordedStep[];

  constructor(private readonly file: string) {
    this.steps = readRecordedSteps(file);
  }

  /** Requests answered so far, and how many the recording holds. */
  get progress(): { served: number; recorded: number } {
    return { served: this.next, recorded: this.steps.length };
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    return { model: request.model, replay: this.file, step: this.next + 1 };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const stepNumber = this.next + 1;
    const step = this.steps[this.next];
    if (!step) {
      yield this.divergence(`the agent made request #${stepNumber}, but ${this.file} records only ${this.steps.length} model responses`);
      return;
    }
    const expected = this.steps.slice(0, this.next).flatMap((recorded) =>
      callSignatures(recorded.events.flatMap((event) => (event.type === 'item_done' ? [event.item] : []))),
    );
    const actual = callSignatures(request.input);
    // A resumed thread may carry calls from before the recording; compare the recorded tail.
    const tail = actual.slice(Math.max(0, actual.length - expected.length));
    if (tail.length !== expected.length || tail.some((call, i) => call !== expected[i])) {
      yield this.divergence(
        `request #${stepNumber} diverges from the recording (${this.file}, line ${step.line}): the tool calls sent back differ\n${describeDiff(expected, tail)}`,
      );
      return;
    }
    this.next += 1;
    for (const event of step.events) {
      if (event.type === 'item_done' && event.item.type === 'message' && event.item.role === 'assistant') {
        // Re-derive the streamed text so front ends show the answer as it was written.
        for (const part of event.item.content) if (part.type === 'output_text') yield { type: 'text_delta', delta: part.text };
      }
      yield event;
    }
  }

  private divergence(message: string): ModelEvent {
    return { type: 'error', error: { kind: 'bad_request', message: `replay: ${message}` } };
  }
}
