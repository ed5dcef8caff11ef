// Where `rig exec` gets its prompt: the argument, or stdin when the argument is "-" or absent.
// Like `codex exec`, piped stdin next to an argument is appended as a <stdin> block.
import { readFileSync } from 'node:fs';

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

export function resolvePrompt(argument: string | undefined, stdinIsTty: boolean): string {
  if (argument === undefined || argument === '-') {
    if (stdinIsTty && argument === undefined) {
      throw new PromptError('no prompt given: pass it as an argument, or pipe it on stdin (e.g. `echo "fix the tests" | rig exec`)');
    }
    const text = readStdin();
    if (text.trim() === '') throw new PromptError('the prompt read from stdin is empty: pass a prompt as an argument or pipe one in');
    return text;
  }
  if (stdinIsTty) return argument;
  const piped = readStdin();
  if (piped === '') return argument;
  return `${argument}\n\n<stdin>\n${piped}${piped.endsWith('\n') ? '' : '\n'}</stdin>`;
}
