// mini-swe-agent ends when a command's output starts with the submit sentinel and exits 0; the
// rest of the output is the submission. Pure, for the turn loop to call after each bash result.

export const MINI_SWE_SENTINEL = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';

/** The submission text when this command result ends the task, else undefined. */
export function miniSweSubmission(output: string, exitCode: number | null): string | undefined {
  if (exitCode !== 0) return undefined;
  const lines = output.trimStart().split(/(?<=\n)/);
  if ((lines[0] ?? '').trim() !== MINI_SWE_SENTINEL) return undefined;
  return lines.slice(1).join('');
}

/** Sent when a reply has text but no bash call (our wording). */
export const MINI_SWE_FORMAT_ERROR =
  `Every reply must include at least one bash tool call. If the task is finished, call bash with \`echo ${MINI_SWE_SENTINEL}\` on its own.`;
