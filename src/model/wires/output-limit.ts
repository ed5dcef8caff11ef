// A reply cut at the model's output limit (Chat `finish_reason: "length"`, Messages
// `stop_reason: "max_tokens"`, a Responses `incomplete` status). Finished text and finished tool
// calls stand: the turn goes on and the user is told. A tool call the cut left unfinished is never
// run — half the arguments of an edit or a command are not what the model meant — so the stream
// fails instead, saying why.
import { WireStreamError } from '../transport/wire-adapter.js';

/** The notice a front end shows when a reply stopped at the output limit and the turn went on. */
export const OUTPUT_LIMIT_NOTICE =
  "the model's reply was cut off at its output token limit, so it may be incomplete: ask it to continue, or to answer in smaller steps";

/** True when `text` is one whole JSON value (a tool call's arguments that the cut spared). */
export function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The stream's failure for a tool call cut off by the output limit (`what` names the signal). */
export function cutToolCallFailure(toolName: string, what: string): WireStreamError {
  return new WireStreamError({
    kind: 'bad_request',
    retryable: false,
    final: true,
    message:
      `the model's reply hit its output token limit (${what}) in the middle of a call to \`${toolName}\`; ` +
      'the incomplete call was not run. Ask for smaller steps (e.g. write a large file in parts)',
  });
}
