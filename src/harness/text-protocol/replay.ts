// Replaying a text-protocol session. The recording already holds the synthesized tool calls (and
// mini-swe-agent's local ending), so the driver must not run again. But the requests the replay
// sees are shaped: the calls went back to the model as text and are gone from them, while the
// replay checks that the calls sent back match the recording. This wrapper hands the replay the
// calls it served (and the loop ran) in place of the ones shaping removed.
import type { ConversationItem, ModelEvent } from '../../protocol/index.js';
import type { ModelClient, ModelRequest, WireApi } from '../../model/types.js';

const isCall = (item: ConversationItem): boolean => item.type === 'function_call' || item.type === 'custom_tool_call';

export class ReplayedCallsClient implements ModelClient {
  readonly wire: WireApi;
  private readonly served: ConversationItem[] = [];

  constructor(private readonly replay: ModelClient) {
    this.wire = replay.wire;
  }

  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.replay.buildBody(request);
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelEvent> {
    const input = [...request.input.filter((item) => !isCall(item)), ...this.served];
    for await (const event of this.replay.stream({ ...request, input }, signal)) {
      if (event.type === 'item_done' && isCall(event.item)) this.served.push(event.item);
      yield event;
    }
  }
}
