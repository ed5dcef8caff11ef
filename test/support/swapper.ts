// A symlink-race attacker for tests: a tiny C program that swaps a directory with each of several
// symlinks (renameat2 RENAME_EXCHANGE, atomically) in a tight loop, the way a model-started
// background command would to redirect rig's in-process writes. Compiled with gcc into the test's
// temp directory; it runs inside the sandbox like any model command.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = String.raw`
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
/* usage: swapper SECONDS DIR LINK... ; prints "swapping" once it started, stops when DIR/../stop exists */
int main(int argc, char **argv) {
  if (argc < 4) return 2;
  time_t end = time(NULL) + atoi(argv[1]);
  long swaps = 0;
  printf("swapping\n");
  fflush(stdout);
  while (time(NULL) < end && access("stop", F_OK) != 0) {
    for (int i = 3; i < argc; i++) {
      if (syscall(SYS_renameat2, AT_FDCWD, argv[2], AT_FDCWD, argv[i], RENAME_EXCHANGE) == 0) swaps++;
      if (syscall(SYS_renameat2, AT_FDCWD, argv[2], AT_FDCWD, argv[i], RENAME_EXCHANGE) == 0) swaps++;
    }
  }
  printf("swaps %ld\n", swaps);
  return 0;
}
`;

/** Compiles the swapper into `dir`; returns the path of the binary. */
export function buildSwapper(dir: string): string {
  const source = join(dir, 'swapper.c');
  const binary = join(dir, 'swapper');
  writeFileSync(source, SOURCE);
  execFileSync('gcc', ['-O2', '-o', binary, source], { stdio: 'pipe' });
  return binary;
}
