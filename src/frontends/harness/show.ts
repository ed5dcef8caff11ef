// `rig harness show ID [--wire W] [--provider P] [--json]`: prints the first request body the
// engine builds for a sample prompt (core/harness-preview.ts). Nothing is sent.
import { buildFirstRequest, SAMPLE_PROMPT, type FirstRequest, type ShowFlags } from '../../core/harness-preview.js';
import { defaultHarnessIo, type HarnessIo } from './io.js';

export { redact } from '../../core/harness-preview.js';

export async function runHarnessShow(id: string, flags: ShowFlags, io: HarnessIo = defaultHarnessIo()): Promise<number> {
  let shown: FirstRequest;
  try {
    shown = await buildFirstRequest(id, flags, io);
  } catch (error) {
    io.stderr(`rig harness show: ${(error as Error).message}\n`);
    return 1;
  }
  if (flags.json) {
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    io.stdout(`# harness ${shown.harness} · provider ${shown.provider} · wire ${shown.wire} · model ${shown.model}\n`);
    io.stdout(`# the first request body for the prompt ${JSON.stringify(flags.prompt ?? SAMPLE_PROMPT)}\n`);
    io.stdout(`${JSON.stringify(shown.body, null, 2)}\n`);
    if (shown.omitted.length > 0) {
      io.stdout(`# ${shown.omitted.length} tool${shown.omitted.length === 1 ? '' : 's'} of the original left out of the request:\n`);
      for (const tool of shown.omitted) io.stdout(`#   ${tool.name}: ${tool.reason}\n`);
    }
  }
  return 0;
}
