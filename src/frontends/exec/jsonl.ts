// `rig exec --json`: exactly Codex's exec event stream, one JSON object per line on stdout.
import { isExecEvent, type ThreadEvent } from '../../protocol/index.js';

export function createJsonlRenderer(write: (line: string) => void): (event: ThreadEvent) => void {
  const emit = (event: ThreadEvent) => write(`${JSON.stringify(event)}\n`);
  return (event) => {
    if (!isExecEvent(event)) return;
    // Codex reports the error that ends a turn twice: as a top-level `error` event when it happens,
    // then as the reason in `turn.failed`. Stream readers that watch for `error` rely on the first.
    if (event.type === 'turn.failed') emit({ type: 'error', message: event.error.message });
    emit(event);
  };
}
