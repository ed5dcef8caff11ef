// A command that floods the tracker's folder watches: a child renaming one file back and forth
// as fast as it can (it also writes written.txt first, a change the tracker must still report).
import { spawn } from 'node:child_process';

const RENAME_LOOP = `
const fs = require('node:fs');
fs.writeFileSync('written.txt', 'by the command');
const end = Date.now() + 20000;
// A loop killed earlier may have left the file under either name.
let [from, to] = fs.existsSync('sub/a') ? ['sub/a', 'sub/b'] : ['sub/b', 'sub/a'];
while (Date.now() < end) { fs.renameSync(from, to); [from, to] = [to, from]; }
`;

/**
 * Runs the loop in `ws` (which holds sub/a or sub/b) until `over()` says the flood did its work,
 * or 15 s, then kills it and waits for it to exit. Each poll is a timer: it runs only while the
 * flood leaves the event loop free.
 */
export async function floodUntil(ws: string, over: () => boolean): Promise<void> {
  const child = spawn(process.execPath, ['-e', RENAME_LOOP], { cwd: ws, stdio: 'ignore' });
  // Listened for at once: the child may end on its own (after 20 s) before the wait below is over.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const started = Date.now();
    while (!over() && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}
