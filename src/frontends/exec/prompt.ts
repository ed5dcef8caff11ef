// Where `rig exec` gets its prompt: the argument, or stdin when the argument is "-" or absent.
// Like `codex exec`, piped stdin next to an argument is appended as a <stdin> block.
import { fstatSync, readFileSync } from 'node:fs';
import { inputLengthProblem } from '../../core/input-limit.js';

export class PromptError extends Error {}

/** More stdin than this is refused unread: it is far past the prompt limit either way. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

async function readStdin(): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readAllStdin();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No stdin at all (closed descriptor) reads as empty.
    if (code === 'EOF' || code === 'EBADF') return '';
    throw error;
  }
  return decodeStdin(bytes);
}

/**
 * Files and devices are read at once. A pipe is read as a stream: its descriptor may be
 * non-blocking, and a synchronous read would then stop at the first empty moment (EAGAIN) and
 * lose the rest of a large input.
 */
async function readAllStdin(): Promise<Buffer> {
  const stat = fstatSync(0);
  if (!stat.isFIFO() && !stat.isSocket()) return readFileSync(0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += buffer.length;
    if (total > MAX_STDIN_BYTES) {
      process.stdin.destroy();
      throw new PromptError(
        `stdin holds more than ${MAX_STDIN_BYTES / 1024 / 1024} MiB, far past the prompt limit of 1048576 characters: put the material in a file in the workspace and ask the agent to read the parts it needs`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** UTF-8 (a BOM is dropped), or UTF-16 announced by its BOM, as editors on Windows write it. */
export function decodeStdin(bytes: Uint8Array): string {
  const startsWith = (...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
  try {
    if (startsWith(0xff, 0xfe) && !startsWith(0xff, 0xfe, 0, 0)) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    if (startsWith(0xfe, 0xff)) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
  } catch {
    throw new PromptError('stdin starts with a UTF-16 byte-order mark but is not valid UTF-16: convert it to UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)');
  }
  if (startsWith(0xff, 0xfe, 0, 0) || startsWith(0, 0, 0xfe, 0xff)) {
    throw new PromptError('stdin is UTF-32: convert it to UTF-8 (e.g. `iconv -f UTF-32 -t UTF-8`)');
  }
  try {
    // ignoreBOM: false (the default) drops a leading UTF-8 BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PromptError('stdin is not valid UTF-8: convert it first (e.g. `iconv -f LATIN1 -t UTF-8 prompt.txt | rig exec -`)');
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
export async function resolvePrompt(argument: string | undefined, stdinIsTty: boolean, notice: (line: string) => void = () => {}): Promise<string> {
  const prompt = await readPrompt(argument, stdinIsTty, notice);
  // Refused before anything is sent or written (Codex's limit and message).
  const what = argument === undefined || argument === '-' ? 'the prompt read from stdin' : stdinIsTty ? 'the prompt' : 'the prompt with stdin appended';
  const problem = inputLengthProblem(prompt, what);
  if (problem) throw new PromptError(problem);
  return prompt;
}

async function readPrompt(argument: string | undefined, stdinIsTty: boolean, notice: (line: string) => void): Promise<string> {
  if (argument === undefined || argument === '-') {
    if (stdinIsTty && argument === undefined) {
      throw new PromptError('no prompt given: pass it as an argument, or pipe it on stdin (e.g. `echo "fix the tests" | rig exec`)');
    }
    if (argument === undefined && stdinCanBlock()) notice('reading the prompt from stdin (end it with Ctrl-D, or pass the prompt as an argument)');
    const text = await readStdin();
    if (text.trim() === '') throw new PromptError('the prompt read from stdin is empty: pass a prompt as an argument or pipe one in');
    return text;
  }
  if (stdinIsTty) return argument;
  if (stdinCanBlock()) notice('reading stdin to append to the prompt (redirect it from /dev/null to skip this)');
  const piped = await readStdin();
  // Whitespace alone adds nothing the model could use.
  if (piped.trim() === '') return argument;
  return `${argument}\n\n<stdin>\n${piped}${piped.endsWith('\n') ? '' : '\n'}</stdin>`;
}
