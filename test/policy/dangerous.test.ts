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
];

const NOT_DANGEROUS: string[][] = [
  ['rm', 'x'], ['rm', '-r', 'build'], ['rm', '--', '-f'], ['rm', '-r', '--', '-f'], ['rmdir', 'x'], ['ls', '-f'],
  ['sudo', 'ls'], ['sudo'], ['sudo', '-u', 'rm', 'ls'], ['env'], ['env', 'A=1'], ['env', 'A=1', 'ls', '-f'],
  ['trap', '-l'], ['trap', 'echo bye', 'EXIT'], ['bash', '-lc', 'ls && echo -f'],
  ['git', 'push'], ['git', 'push', 'origin', 'main'], ['git', 'push', '--follow-tags'], ['git', 'commit', '-f'], ['git', 'fetch', '-f'],
  ['dd', 'if=/dev/zero', 'of=/dev/null'], ['dd', 'if=a', 'of=b.img'], ['echo', 'mkfs'],
];

describe('dangerous commands', () => {
  it.each(DANGEROUS)('%j is dangerous', (argv, reason) => {
    expect(dangerousCommandReason(argv, bash)).toBe(reason);
    expect(isDangerousCommand(argv, bash)).toBe(true);
  });
  it.each(NOT_DANGEROUS.map((argv) => [argv]))('%j is not dangerous', (argv) => {
    expect(isDangerousCommand(argv, bash)).toBe(false);
  });
  it('stops looking through wrappers after 8 levels', () => {
    const wrapped = (levels: number) => [...Array.from({ length: levels }, () => 'sudo'), 'rm', '-f', 'x'];
    expect(isDangerousCommand(wrapped(8), bash)).toBe(true);
    expect(isDangerousCommand(wrapped(9), bash)).toBe(false);
  });
  it('without a parser still sees direct argv and fork bombs, not commands inside scripts', () => {
    expect(isDangerousCommand(['rm', '-rf', '/'], null)).toBe(true);
    expect(isDangerousCommand(['bash', '-c', ':(){ :|:& };:'], null)).toBe(true);
    expect(isDangerousCommand(['bash', '-lc', 'rm -rf /'], null)).toBe(false);
  });
});
