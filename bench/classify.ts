// Command classification per call, as the orchestrator runs it before every command: the
// dangerous/known-safe verdict for `bash -c <script>` with the command's directory, no terminal
// and the sandbox's write check. One-line plain scripts are read by the cheap reader (no
// tree-sitter); the same scripts forced through tree-sitter show what that pre-screen saves; scripts
// with quotes, redirects or heredocs need tree-sitter. Also the one-time cost of loading the parser.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { canWritePath, resolveSandboxPolicy } from '../src/exec/sandbox/index.js';
import { classifyArgv, loadBashParser, scriptReader, type ClassifyOptions } from '../src/policy/index.js';
import { median } from './measure.js';
import type { Metric } from './report.js';

const PLAIN = ['ls -la', 'git status', 'cat README.md | head -n 20', 'rg -n TODO src', 'sed -n 1,40p README.md', 'npm test', 'rm -rf build', 'git push origin main'];
const COMPLEX = [
  'grep -rn "fn main" . 2>/dev/null | head',
  "python3 - <<'EOF'\nprint(1)\nEOF",
  'for f in src/*.ts; do wc -l "$f"; done',
  "echo 'rm -rf x' | sh",
  'cd src && git diff --stat > /tmp/x',
];

export async function benchClassify(): Promise<Metric[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rig-bench-classify-'));
  try {
    execFileSync('git', ['init', '-q', dir]);
    writeFileSync(join(dir, 'README.md'), 'hello\n');
    const policy = resolveSandboxPolicy({ mode: 'workspace-write', cwd: dir });
    // A plain PATH: `npm run bench` puts several node_modules/.bin directories first, and each
    // directory searched before a program is found is checked against the sandbox.
    const env = { ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin' };
    const site: ClassifyOptions = { cwd: dir, tty: false, env, canWrite: (p) => canWritePath(p, policy), trustedShells: ['/bin/bash'] };

    const loadStart = performance.now();
    const bash = await loadBashParser();
    const loadMs = performance.now() - loadStart;

    // Microseconds per classification: each script many times, median of the per-script means.
    const perCall = (scripts: readonly string[], reader: () => ReturnType<typeof scriptReader>): number => {
      const means = scripts.map((script) => {
        const rounds = 400;
        for (let i = 0; i < 50; i++) classifyArgv(['/bin/bash', '-c', script], reader(), site);
        const start = performance.now();
        for (let i = 0; i < rounds; i++) classifyArgv(['/bin/bash', '-c', script], reader(), site);
        return ((performance.now() - start) / rounds) * 1000;
      });
      return median(means);
    };
    const cheap = perCall(PLAIN, () => scriptReader(null));
    const forced = perCall(PLAIN, () => scriptReader(bash, { cheapFirst: false }));
    const complex = perCall(COMPLEX, () => scriptReader(bash));
    return [
      { key: 'classify.plain_us', label: 'classify a plain one-line command (cheap reader, no tree-sitter)', value: cheap, unit: 'µs', target: 1000 },
      { key: 'classify.plain_treesitter_us', label: 'the same commands read by tree-sitter', value: forced, unit: 'µs' },
      { key: 'classify.complex_us', label: 'classify a script that needs tree-sitter', value: complex, unit: 'µs', target: 2000 },
      { key: 'classify.parser_load_ms', label: 'load the tree-sitter bash parser (once per process, lazily)', value: loadMs, unit: 'ms' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
