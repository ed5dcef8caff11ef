// What the user sends: a message that starts a turn, a steer delivered at the running turn's next
// tool boundary, a follow-up kept for after the turn, and taking a queued one back (Alt+Up). At a
// turn's end the next queued message goes out; after an interrupt they come back to the composer.
import type { UserInput } from '../../protocol/index.js';
import type { TuiApp } from './app.js';

let nextQueuedId = 1;

/** Starts a turn with `input` (printed at once). */
export function sendMessage(app: TuiApp, input: UserInput): void {
  app.state.echoUserMessage(input);
  app.state.turn ??= { startedAt: app.now() };
  app.port.submit(input).catch((error: unknown) => {
    // Nothing started: no turn to wait for.
    app.state.turn = undefined;
    app.failed('could not start the turn')(error);
  });
}

/** Enter while a turn runs: deliver at the next tool boundary. */
export function steerMessage(app: TuiApp, input: UserInput): void {
  const id = `steer-${nextQueuedId++}`;
  app.state.queue.push({ id, kind: 'steer', input });
  app.port.steer(id, input).catch((error: unknown) => {
    app.state.queue = app.state.queue.filter((queued) => queued.id !== id);
    app.failed('could not steer the turn')(error);
  });
}

/** Tab while a turn runs: sent when the turn ends. */
export function followUpMessage(app: TuiApp, input: UserInput): void {
  app.state.queue.push({ id: `later-${nextQueuedId++}`, kind: 'follow-up', input });
}

/** Alt+Up: the last queued message back into the composer. */
export function editQueuedMessage(app: TuiApp): void {
  const { state, composer } = app;
  const last = state.queue[state.queue.length - 1];
  if (!last) return;
  const load = () => {
    state.queue = state.queue.filter((queued) => queued !== last);
    if (!composer.isEmpty) composer.insertText('\n');
    composer.insertText(last.input.text);
    app.requestFrame();
  };
  if (last.kind === 'follow-up') return load();
  app.port.retractSteer(last.id).then((retracted) => {
    if (retracted) load();
    else {
      app.flash('that message was already delivered', 'warning');
      app.requestFrame();
    }
  }, app.failed('could not take the message back'));
}

/** A turn ended: tell an unfocused terminal, then send what was queued (or give it back after an interrupt). */
export function afterTurn(app: TuiApp, how: 'completed' | 'failed' | 'interrupted'): void {
  const { state, composer } = app;
  app.notify(how === 'completed' ? 'rig finished the turn' : how === 'failed' ? 'rig: the turn failed' : 'rig: turn interrupted');
  if (how === 'interrupted') {
    // Queued messages come back to the composer, where they can be sent or dropped.
    const texts = state.queue.map((queued) => queued.input.text);
    state.queue = [];
    if (texts.length > 0 && composer.isEmpty) composer.setText(texts.join('\n\n'));
    return;
  }
  // A steer the turn did not take, or a follow-up: the next one starts the next turn.
  const next = state.queue.shift();
  if (next) sendMessage(app, next.input);
}
