// Sandboxes for the next commands are started while rig waits on the model. After a sandboxed
// command finishes, the process layer asks for copies of its sandbox (exec/warm-sandbox.ts); they
// start when the next model request has gone out, the one moment of a step when the main thread
// has nothing to do, instead of blocking it for a fork while the command's output is turned into
// that request. One subscription per process: every thread's requests publish on the same channel.
import { subscribe } from 'node:diagnostics_channel';
import { startWantedWarmSandboxes } from '../exec/warm-sandbox.js';
import { MODEL_REQUEST_SENT_CHANNEL } from '../model/transport/request-sent.js';

let subscribed = false;

export function refillSandboxesWhileWaiting(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe(MODEL_REQUEST_SENT_CHANNEL, startWantedWarmSandboxes);
}
