// The most text one user input may carry, as in Codex: 1,048,576 characters (Unicode scalar
// values). A bigger prompt cannot fit any model's window; refused at once, it cannot turn into
// hundreds of oversized requests and a rollout of gigabytes.

export const MAX_USER_INPUT_TEXT_CHARS = 1_048_576;

/** Codex's own wording, which SDK clients and scripts may match. */
export const INPUT_TOO_LARGE_MESSAGE = `Input exceeds the maximum length of ${MAX_USER_INPUT_TEXT_CHARS} characters.`;

/** Characters as Codex counts them (code points, not UTF-16 units). */
export function inputChars(text: string): number {
  // A string of at most N UTF-16 units has at most N code points.
  if (text.length <= MAX_USER_INPUT_TEXT_CHARS) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The refusal for a too-long input (`what` names it, e.g. "the prompt read from stdin"), or undefined. */
export function inputLengthProblem(text: string, what = 'the prompt'): string | undefined {
  const chars = inputChars(text);
  if (chars <= MAX_USER_INPUT_TEXT_CHARS) return undefined;
  return (
    `${INPUT_TOO_LARGE_MESSAGE} (${what} has ${chars.toLocaleString('en-US')}: ` +
    'put the material in a file in the workspace and ask the agent to read the parts it needs)'
  );
}
