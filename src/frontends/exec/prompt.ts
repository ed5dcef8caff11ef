// Where `rig exec` gets its prompt: the argument, or stdin when the argument is "-" or absent.
// Like `codex exec`, piped stdin next to an argument is appended as a <stdin> block.
import { fstatSync, readFileSync } from 'node:fs';

export class PromptError extends Error {}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No stdin at all (closed descriptor) reads as empty.
    if (code === 'EAGAIN' || code === 'EOF' || code === 'EBADF') return '';
    throw error;
  }
}

/** A pipe or socket can keep rig waiting until the writer closes it; files and /dev/null cannot. */
function stdinCanBlock(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * `notice` receives one line whenever rig is about to wait on a pipe, so a run whose stdin is an
 * open pipe nobody closes does not hang without a word.
 */
export function resolvePrompt(argument: string | undefined, stdinIsTty: boolean, notice: (line: string) => void = () => {}): string {
  if (argument === undefined || argument === '-') {
    if (stdinIsTty && argument === undefined) {
      throw new PromptError('no prompt given: pass it as an argument, or pipe it on stdin (e.g. `echo "fix the tests" | rig exec`)');
    }
    if (argument === undefined && stdinCanBlock()) notice('reading the prompt from stdin (end it with Ctrl-D, or pass the prompt as an argument)');
    const text = readStdin();
    if (text.trim() === '') throw new PromptError('the prompt read from stdin is empty: pass a prompt as an argument or pipe one in');
    return text;
  }
  if (stdinIsTty) return argument;
  if (stdinCanBlock()) notice('reading stdin to append to the prompt (redirect it from /dev/null to skip this)');
  const piped = readStdin();
  // Whitespace alone adds nothing the model could use.
  if (piped.trim() === '') return argument;
  return `${argument}\n\n<stdin>\n${piped}${piped.endsWith('\n') ? '' : '\n'}</stdin>`;
}
