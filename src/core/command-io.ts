// Where a command run through a core service reads its environment and writes its output (the
// CLI passes the process's; tests pass buffers).
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export function defaultCommandIo(): CommandIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}
