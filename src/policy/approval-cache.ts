// "Approve for the session": remembers approved command prefixes and patch
// paths so identical requests do not ask again.

export class ApprovalCache {
  private readonly prefixes: string[][] = [];
  private readonly paths = new Set<string>();
  private readonly hosts = new Set<string>();

  /** Remembers an exact argv prefix; any later command starting with it counts as approved. */
  approveCommandPrefix(prefix: readonly string[]): void {
    if (prefix.length === 0) return;
    if (!this.prefixes.some((known) => sameWords(known, prefix))) this.prefixes.push([...prefix]);
  }

  isCommandApproved(argv: readonly string[]): boolean {
    return this.prefixes.some((prefix) => prefix.length <= argv.length && prefix.every((word, i) => word === argv[i]));
  }

  approvePaths(paths: Iterable<string>): void {
    for (const path of paths) this.paths.add(path);
  }

  /** True when every path was approved before (and there is at least one). */
  arePathsApproved(paths: readonly string[]): boolean {
    return paths.length > 0 && paths.every((path) => this.paths.has(path));
  }

  /** A host the user allowed network requests to (web_fetch, a search backend) for the session. */
  approveHost(host: string): void {
    this.hosts.add(host.toLowerCase());
  }

  isHostApproved(host: string): boolean {
    return this.hosts.has(host.toLowerCase());
  }

  clear(): void {
    this.prefixes.length = 0;
    this.paths.clear();
    this.hosts.clear();
  }
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}
