// Property tests of the classifier (issue 9, hole 6): every way of writing a dangerous command
// that the transformation generator knows (quoting x wrapper x shell, each word in turn) is
// dangerous, never safe; every unknown-making rewrite of a safe command is not safe; and the safe
// corpus stays safe. The generator itself is checked first on a harmless printf: bash must print
// the same words whichever way they are written, or the property would prove nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dangerousCommandReason, isKnownSafeCommand, loadBashParser, type BashParser, type ClassifyOptions } from '../../src/policy/index.js';
import { FORCE_PUSHES, NOT_SAFE, OTHER_DANGEROUS, RM_VARIANTS, SAFE_COMMANDS, fill } from './classifier-corpus.js';
import { CONSTRUCTS, QUOTINGS, SHELLS, WRAPPERS, build, describe as describeCombination, sq, type Combination } from './transformations.js';

let bash: BashParser;
let repo = '';
let site: ClassifyOptions;
let attempts = 0;
let blocked = 0;

beforeAll(async () => {
  bash = await loadBashParser();
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rig-classifier-')));
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
  // What the orchestrator knows: the command's directory, no terminal, nothing writable, bash.
  site = { cwd: repo, tty: false, canWrite: () => false, trustedShells: ['/bin/bash'], platform: 'linux', env: { HOME: path.join(repo, 'home'), PATH: '/usr/bin:/bin' } };
});

afterAll(() => {
  if (repo) fs.rmSync(repo, { recursive: true, force: true });
  console.log(`safety classification suite (generated transformations): ${attempts} attempts, ${blocked} blocked`);
  expect(attempts).toBeGreaterThanOrEqual(60);
  expect(blocked).toBe(attempts);
});

// Through the long-standing entry points (so the same test runs against older classifiers).
const classify = (argv: readonly string[]) => ({ safe: isKnownSafeCommand(argv, bash, site), danger: dangerousCommandReason(argv, bash) });
const verdict = (script: string) => classify(['bash', '-lc', script]);

/** Dangerous commands as words, one per family and spelling, for the generator. */
const DANGEROUS_WORDS: readonly string[][] = [
  ['rm', '-rf', 'victim'],
  ['rm', '-r', '-f', 'victim'],
  ['rm', '--recursive', '--force', 'victim'],
  ['rm', '--rec', '--fo', 'victim'],
  ['rm', 'victim', '-fr'],
  ['rm', '-R', 'victim'],
  ['find', 'victim', '-delete'],
  ['find', 'victim', '-exec', 'rm', '-rf', '{}', '+'],
  ['git', 'push', '--force', 'origin', 'main'],
  ['git', 'push', '-f', 'origin', 'main'],
  ['git', 'push', '--fo', 'origin', 'main'],
  ['git', 'push', '--force-w', 'origin', 'main'],
  ['git', 'push', 'origin', '+main'],
  ['git', 'push', 'origin', ':main'],
  ['git', 'push', '--mirror', 'origin'],
  ['git', 'push', 'origin', '--delete', 'main'],
  ['git', '-c', 'alias.yeet=push --force', 'yeet', 'origin'],
  ['git', '-c', 'remote.origin.push=+refs/heads/main', 'push', 'origin'],
  ['git', 'send-pack', '--force', 'origin', 'main'],
  ['git', 'clean', '-fdx'],
  ['dd', 'if=/dev/zero', 'of=/dev/sda'],
  ['mkfs.ext4', '/dev/sda1'],
];

describe('the transformation generator preserves what bash runs', () => {
  it('every quoting with every wrapper and every shell prints the same words (one bash runs them all)', () => {
    const words = ['printf', '[%s]', 'a b', '-rf', 'x'];
    const expected = '[a b][-rf][x]';
    const available = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
    const combos: Combination[] = [];
    for (const quoting of QUOTINGS) {
      for (const wrapper of WRAPPERS) combos.push({ words, quoting, slot: -1, wrapper, shell: SHELLS[0]! });
      for (const shell of SHELLS) combos.push({ words, quoting, slot: 0, wrapper: WRAPPERS[0]!, shell });
    }
    const runnable = combos.filter((combo) => {
      if (combo.wrapper.name === 'sudo' || (combo.wrapper.needs !== undefined && !available(combo.wrapper.needs))) return false;
      // bash-only quoting under a POSIX sh is a different command (which is why rig calls it unknown).
      return !(combo.quoting.bashOnly && combo.shell.posix) && build(combo) !== null;
    });
    const master = runnable.map((combo) => `bash -c ${sq(build(combo)!)} </dev/null 2>/dev/null; printf '\\n@@\\n'`).join('\n');
    const run = spawnSync('bash', ['-c', master], { cwd: repo, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: repo }, maxBuffer: 1 << 24 });
    const outputs = run.stdout.split('\n@@\n');
    const wrong = runnable.filter((combo, i) => outputs[i]?.trim() !== expected).map(describeCombination);
    expect(wrong).toEqual([]);
    expect(runnable.length).toBeGreaterThan(400);
  });
});

describe('dangerous commands stay dangerous however they are written', () => {
  const quotingSlots = (words: readonly string[]) => [-1, ...words.map((_, i) => i)];

  it('every written-out variant of the issue (39 rm -rf, 12 force pushes) through every shell', () => {
    for (const template of [...RM_VARIANTS, ...FORCE_PUSHES]) {
      for (const shell of SHELLS) {
        const script = shell.run(fill(template, 'victim'));
        if (script === null) continue;
        attempts++;
        const result = verdict(script);
        expect(result.safe, script).toBe(false);
        expect(result.danger, script).toBeDefined();
        blocked++;
      }
    }
  });

  it('each family word list x quoting (each word, and all) x wrapper x shell (fast-check)', () => {
    const combination = fc
      .record({
        words: fc.constantFrom(...DANGEROUS_WORDS),
        quoting: fc.constantFrom(...QUOTINGS),
        wrapper: fc.constantFrom(...WRAPPERS),
        shell: fc.constantFrom(...SHELLS),
        pick: fc.nat(),
      })
      .map(({ words, pick, ...rest }): Combination => {
        const slots = quotingSlots(words);
        return { words, slot: slots[pick % slots.length]!, ...rest };
      });
    fc.assert(
      fc.property(combination, (combo) => {
        const script = build(combo);
        if (script === null) return;
        attempts++;
        const result = verdict(script);
        if (result.safe || result.danger === undefined) throw new Error(`not dangerous: ${describeCombination(combo)}\n${script}`);
        blocked++;
      }),
      { numRuns: 2000, seed: 20240609 },
    );
  });

  it('the other families, directly and through every shell', () => {
    for (const argv of OTHER_DANGEROUS) {
      attempts++;
      expect(classify(argv).danger, JSON.stringify(argv)).toBeDefined();
      blocked++;
    }
  });
});

describe('whatever bash runs, the classifier has seen (differential check against bash itself)', () => {
  // bash runs each script with a harmless `rm` first on PATH that only records its arguments; every
  // script in which it ran as a recursive or forced removal must have been classified dangerous.
  // Constructs are nested two deep.
  it('nested constructs around rm -rf written several ways', () => {
    const bin = path.join(repo, 'fake-bin');
    const log = path.join(repo, 'rm-ran.log');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'rm'), '#!/bin/sh\necho "$CASE $*" >> "$RM_LOG"\necho RAN\n', { mode: 0o755 });
    const inners = ['rm -rf victim', 'F=f; rm -r$F victim', 'rm --rec --fo victim', 'O=-rf; command rm $O victim', 'r\\m -r\\f victim', 'echo victim | xargs rm -r'];
    const scripts: string[] = [];
    fc.assert(
      fc.property(fc.constantFrom(...CONSTRUCTS), fc.constantFrom(...CONSTRUCTS), fc.constantFrom(...inners), (outer, inner, command) => {
        scripts.push(outer.replace('X', inner.replace('X', command)));
      }),
      { numRuns: 200, seed: 424242 },
    );
    scripts.push(...CONSTRUCTS.map((construct) => construct.replace('X', 'rm -rf victim')));
    const master = scripts.map((script, i) => `CASE=${i} timeout 2 bash -c ${sq(script)} </dev/null >/dev/null 2>&1`).join('\n');
    spawnSync('bash', ['-c', master], { cwd: repo, env: { PATH: `${bin}:/usr/bin:/bin`, HOME: repo, RM_LOG: log }, maxBuffer: 1 << 24 });
    const removals = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    const ran = new Set(
      removals
        .map((line) => line.split(' '))
        .filter(([, ...args]) => args.includes('victim') && args.some((arg) => /^-[A-Za-z]*[rRf]/.test(arg)))
        .map(([id]) => Number(id)),
    );
    expect(ran.size).toBeGreaterThan(scripts.length / 2);
    const missed = [...ran].map((i) => scripts[i]!).filter((script) => verdict(script).danger === undefined);
    attempts += ran.size;
    blocked += ran.size - missed.length;
    expect(missed).toEqual([]);
  });
});

describe('"unknown" is never safe', () => {
  it('a safe command with any word made non-literal is not safe', () => {
    const unknownMaking = QUOTINGS.filter((quoting) => !quoting.literal);
    for (const command of SAFE_COMMANDS.filter((text) => !/[|&;'"]/.test(text))) {
      const words = command.split(' ');
      for (const quoting of unknownMaking) {
        for (let slot = 0; slot < words.length; slot++) {
          const script = build({ words, quoting, slot, wrapper: WRAPPERS[0]!, shell: SHELLS[0]! });
          if (script === null) continue;
          attempts++;
          expect(verdict(script).safe, script).toBe(false);
          blocked++;
        }
      }
    }
  });

  it.each(NOT_SAFE.map((argv) => [JSON.stringify(argv), argv] as const))('%s is not known safe', (_name, argv) => {
    attempts++;
    expect(classify(argv).safe).toBe(false);
    blocked++;
  });
});

describe('the safe corpus stays safe', () => {
  it.each(SAFE_COMMANDS)('%s', (command) => {
    expect(verdict(command)).toEqual({ safe: true, danger: undefined });
  });

  it('quoting a literal word differently keeps it safe', () => {
    const literalQuotings = QUOTINGS.filter((quoting) => quoting.literal);
    for (const command of SAFE_COMMANDS.filter((text) => !/[|&;'"]/.test(text))) {
      const words = command.split(' ');
      // (A quoted command name is not plain, as in Codex: `'git status'` would be one program name.)
      for (const quoting of literalQuotings) {
        for (let slot = 1; slot < words.length; slot++) {
          const script = build({ words, quoting, slot, wrapper: WRAPPERS[0]!, shell: SHELLS[0]! });
          if (script !== null) expect(verdict(script).safe, script).toBe(true);
        }
      }
    }
  });
});
