// Commands that always need a human (a prompt under every approval policy, `never` included; only
// --yolo skips it): forced removals per the reference (safety.md §6), and the families rig adds
// (danger-families.ts), looked for through wrappers and shells (verdict.ts).

import type { BashParser } from './bash.js';
import { commandVerdict } from './classify.js';


/** Why `argv` is dangerous, or undefined when it is not. Scripts that need the parser count as dangerous without one. */
export function dangerousCommandReason(argv: readonly string[], bash: BashParser | null): string | undefined {
  return commandVerdict(argv, bash, {}, false).danger;
}

export function isDangerousCommand(argv: readonly string[], bash: BashParser | null): boolean {
  return dangerousCommandReason(argv, bash) !== undefined;
}
