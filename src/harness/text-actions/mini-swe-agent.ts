// mini-swe-agent ends when a command's output starts with the submit sentinel and exits 0; the
// rest of the output is the submission. Pure, for the text-protocol driver to call on tool results.

export const MINI_SWE_SENTINEL = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';

/** The submission text when this command result ends the task, else undefined. */
export function miniSweSubmission(output: string, exitCode: number | null, sentinel = MINI_SWE_SENTINEL): string | undefined {
  if (exitCode !== 0) return undefined;
  const lines = output.trimStart().split(/(?<=\n)/);
  if ((lines[0] ?? '').trim() !== sentinel) return undefined;
  return lines.slice(1).join('');
}

/**
 * The submission in a rendered tool result: mini-swe-agent's `<returncode>N</returncode>` +
 * `<output>` observation, or (another shell style) a plain output whose first line is the sentinel.
 */
export function submissionFromObservation(observation: string, sentinel = MINI_SWE_SENTINEL): string | undefined {
  const rendered = /^<returncode>(-?\d+)<\/returncode>\n<output>\n([\s\S]*)<\/output>$/.exec(observation);
  if (rendered) return miniSweSubmission(rendered[2] ?? '', Number(rendered[1]), sentinel);
  return miniSweSubmission(observation, 0, sentinel);
}

/** Sent when a reply has text but no tool call (our wording). */
export function sentinelFormatError(sentinel = MINI_SWE_SENTINEL): string {
  return `Every reply must include at least one bash tool call. If the task is finished, call bash with \`echo ${sentinel}\` on its own.`;
}

export const MINI_SWE_FORMAT_ERROR = sentinelFormatError(MINI_SWE_SENTINEL);
