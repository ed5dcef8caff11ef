// Parallel-safe calls of one step run together; any other call runs alone. A readers-writer gate:
// parallel-safe calls share it, exclusive calls wait for everything before them and block what
// follows. Results are still returned in call order by the caller.
export class ToolGate {
  private tail: Promise<void> = Promise.resolve();
  private readers: Promise<void>[] = [];

  run<T>(parallelSafe: boolean, task: () => Promise<T>): Promise<T> {
    if (parallelSafe) {
      const start = this.tail;
      const result = start.then(task);
      this.readers.push(result.then(noop, noop));
      return result;
    }
    const waitFor = Promise.all([this.tail, ...this.readers]);
    this.readers = [];
    const result = waitFor.then(task);
    this.tail = result.then(noop, noop);
    return result;
  }
}

function noop(): void {}
