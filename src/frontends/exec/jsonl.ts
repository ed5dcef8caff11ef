// `rig exec --json`: exactly Codex's exec event stream, one JSON object per line on stdout.
import { isExecEvent, type ThreadEvent } from '../../protocol/index.js';

export function createJsonlRenderer(write: (line: string) => void): (event: ThreadEvent) => void {
  return (event) => {
    if (isExecEvent(event)) write(`${JSON.stringify(event)}\n`);
  };
}
