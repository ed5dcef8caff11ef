// What the sessions commands read and write, injectable so tests can drive them in-process.
export interface SessionsIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Terminal width when stdout is a terminal. */
  columns?: number;
  /** Asks a yes/no question on the terminal; undefined when there is no terminal to ask on. */
  confirm?: (question: string) => Promise<boolean>;
}

async function askOnTerminal(question: string): Promise<boolean> {
  const readline = await import('node:readline/promises');
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function defaultSessionsIo(): SessionsIo {
  const tty = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdout.isTTY && process.stdout.columns ? { columns: process.stdout.columns } : {}),
    ...(tty ? { confirm: askOnTerminal } : {}),
  };
}
