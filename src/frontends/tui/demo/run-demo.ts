// `rig tui-demo`: the TUI over the scripted port.
import { runTui } from '../run.js';
import { ScriptedPort } from './scripted-port.js';

export async function runTuiDemo(options: { speed: number }): Promise<number> {
  if (!(options.speed > 0)) {
    process.stderr.write(`rig tui-demo: --speed must be a positive number (got ${options.speed}), e.g. --speed 2\n`);
    return 2;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('rig tui-demo: needs a terminal on stdin and stdout (in tmux: tmux new "rig tui-demo")\n');
    return 1;
  }
  return runTui({ port: new ScriptedPort(options.speed), cwd: process.cwd() });
}
