import { beforeAll, describe, expect, it } from 'vitest';
import { DANGEROUS_REASONS, dangerousCommandReason, isDangerousCommand, loadBashParser, type BashParser } from '../../src/policy/index.js';

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

const DANGEROUS: Array<[string[], string]> = [
  [['rm', '-rf', '/'], DANGEROUS_REASONS.rmForce],
  [['rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['rm', '-r', '-f', 'target'], DANGEROUS_REASONS.rmForce],
  [['/bin/rm', '-fr', 'target'], DANGEROUS_REASONS.rmForce],
  [['rm', '--force', 'target'], DANGEROUS_REASONS.rmForce],
  [['rm', '-vRf', '~'], DANGEROUS_REASONS.rmForce],
  [['sudo', 'rm', '-rf', '/'], DANGEROUS_REASONS.rmForce],
  [['sudo', '-u', 'root', '/bin/rm', '--force', 'target'], DANGEROUS_REASONS.rmForce],
  [['sudo', '--preserve-env', 'sudo', '-n', 'rm', '-rf', 'target'], DANGEROUS_REASONS.rmForce],
  [['sudo', '-nu', 'root', 'rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['sudo', '-uroot', 'rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['sudo', '--', 'rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['env', 'A=1', '-i', 'rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['env', '-u', 'HOME', 'rm', '-f', 'x'], DANGEROUS_REASONS.rmForce],
  [['trap', 'rm -rf /tmp/x', 'EXIT'], DANGEROUS_REASONS.rmForce],
  [['bash', '-lc', 'ls && rm -rf build'], DANGEROUS_REASONS.rmForce],
  [['bash', '-c', 'if true; then (rm -rf "$DIR"); fi'], DANGEROUS_REASONS.rmForce],
  [['sh', '-c', 'echo $(rm -f x)'], DANGEROUS_REASONS.rmForce],
  [['bash', '-lc', "sudo env A=1 bash -c 'rm -rf /'"], DANGEROUS_REASONS.rmForce],
  [['bash', '-lc', "trap 'rm -f lock' EXIT; ls"], DANGEROUS_REASONS.rmForce],
  [['git', 'push', '--force'], DANGEROUS_REASONS.forcePush],
  [['git', 'push', '-f', 'origin', 'main'], DANGEROUS_REASONS.forcePush],
  [['git', '-C', 'repo', 'push', '--force-with-lease'], DANGEROUS_REASONS.forcePush],
  [['git', 'push', 'origin', '+main'], DANGEROUS_REASONS.forcePush],
  [['bash', '-lc', 'git push -uf origin HEAD'], DANGEROUS_REASONS.forcePush],
  [['mkfs.ext4', '/dev/sda1'], DANGEROUS_REASONS.formatFilesystem],
  [['sudo', 'mkfs', '/dev/sdb'], DANGEROUS_REASONS.formatFilesystem],
  [['wipefs', '-a', '/dev/sdb'], DANGEROUS_REASONS.formatFilesystem],
  [['dd', 'if=/dev/zero', 'of=/dev/sda'], DANGEROUS_REASONS.rawDeviceWrite],
  [['bash', '-c', ':(){ :|:& };:'], DANGEROUS_REASONS.forkBomb],
  [['bash', '-c', 'bomb() { bomb | bomb & }; bomb'], DANGEROUS_REASONS.forkBomb],
  // Recursive deletion without -f deletes as much (nothing asks when stdin is not a terminal).
  [['rm', '-r', 'build'], DANGEROUS_REASONS.rmRecursive],
  [['rm', '-r', '--', '-f'], DANGEROUS_REASONS.rmRecursive],
  [['rm', '--recursive', 'build'], DANGEROUS_REASONS.rmRecursive],
  [['rm', '--f', 'x'], DANGEROUS_REASONS.rmForce],
  [['find', '.', '-name', '*.o', '-delete'], DANGEROUS_REASONS.findDelete],
  [['git', 'push', 'origin', ':old'], DANGEROUS_REASONS.remoteRefDelete],
  [['git', 'push', '-d', 'origin', 'old'], DANGEROUS_REASONS.remoteRefDelete],
  [['git', 'clean', '-fd'], DANGEROUS_REASONS.gitClean],
  [['bash', '-lc', 'cat job.sh | bash'], DANGEROUS_REASONS.unknownCode],
  [['bash', '-lc', '"$CMD" -rf x'], DANGEROUS_REASONS.unknownProgram],
];

const NOT_DANGEROUS: string[][] = [
  ['rm', 'x'], ['rm', '--', '-f'], ['rm', '-i', 'x'], ['rm', './"$f"'], ['rmdir', 'x'], ['ls', '-f'],
  ['sudo', 'ls'], ['sudo'], ['sudo', '-u', 'rm', 'ls'], ['env'], ['env', 'A=1'], ['env', 'A=1', 'ls', '-f'],
  ['trap', '-l'], ['trap', 'echo bye', 'EXIT'], ['bash', '-lc', 'ls && echo -f'],
  ['git', 'push'], ['git', 'push', 'origin', 'main'], ['git', 'push', '--follow-tags'], ['git', 'push', '--dry-run', 'origin'],
  ['git', 'commit', '-f'], ['git', 'fetch', '-f'], ['git', 'clean', '-n', '-d'], ['git', '-c', 'alias.st=status', 'st'],
  ['dd', 'if=/dev/zero', 'of=/dev/null'], ['dd', 'if=a', 'of=b.img'], ['echo', 'mkfs'], ['echo', 'rm', '-rf', 'x'],
  ['bash', '-lc', "echo 'rm -rf /tmp/example'"], ['bash', '-lc', 'grep -rn "rm -rf" .'], ['bash', '-lc', 'for f in *.txt; do echo "$f"; done'],
  ['bash', '-lc', 'cat > notes.md <<EOF\nrm -rf build\nEOF'], ['bash', '-lc', 'bash build.sh'], ['bash', '-lc', 'python3 -c "print(1)"'],
];

describe('dangerous commands', () => {
  it.each(DANGEROUS)('%j is dangerous', (argv, reason) => {
    expect(dangerousCommandReason(argv, bash)).toBe(reason);
    expect(isDangerousCommand(argv, bash)).toBe(true);
  });
  it.each(NOT_DANGEROUS.map((argv) => [argv]))('%j is not dangerous', (argv) => {
    expect(isDangerousCommand(argv, bash)).toBe(false);
  });
  it('reads through 8 levels of wrappers; deeper nesting counts as dangerous too', () => {
    const wrapped = (levels: number) => [...Array.from({ length: levels }, () => 'sudo'), 'ls'];
    expect(dangerousCommandReason([...wrapped(8).slice(0, -1), 'rm', '-f', 'x'], bash)).toBe(DANGEROUS_REASONS.rmForce);
    expect(isDangerousCommand(wrapped(8), bash)).toBe(false);
    expect(dangerousCommandReason(wrapped(9), bash)).toBe(DANGEROUS_REASONS.tooDeep);
  });
  it('without a parser reads plain one-line scripts itself, and calls the others dangerous', () => {
    expect(isDangerousCommand(['rm', '-rf', '/'], null)).toBe(true);
    expect(isDangerousCommand(['bash', '-c', ':(){ :|:& };:'], null)).toBe(true);
    expect(isDangerousCommand(['bash', '-lc', 'rm -rf /'], null)).toBe(true);
    expect(isDangerousCommand(['bash', '-lc', 'ls && pwd'], null)).toBe(false);
    expect(isDangerousCommand(['bash', '-lc', 'ls "a b"'], null)).toBe(true);
  });
});
