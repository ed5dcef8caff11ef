// Where the Codex binary for `--vs codex` comes from: CODEX_BIN, else the platform binary the
// dev dependency @openai/codex-sdk brings (node_modules/@openai/codex-<platform>-<arch>/vendor/...).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type CodexLookup = { path: string; version: string } | { missing: string };

function vendorBinaries(packageDir: string): string[] {
  const vendor = join(packageDir, 'vendor');
  if (!existsSync(vendor)) return [];
  // Layouts seen: vendor/<triple>/bin/codex (0.16x) and vendor/<triple>/codex/codex (older).
  return readdirSync(vendor).flatMap((triple) => [join(vendor, triple, 'bin', 'codex'), join(vendor, triple, 'codex', 'codex')]).filter((file) => existsSync(file));
}

function packagedCodex(repoRoot: string): string | undefined {
  const scope = join(repoRoot, 'node_modules', '@openai');
  if (!existsSync(scope)) return undefined;
  const platformPackage = `codex-${process.platform}-${process.arch}`;
  const candidates = [join(scope, platformPackage), join(scope, 'codex', 'node_modules', '@openai', platformPackage)];
  for (const candidate of candidates) {
    const found = vendorBinaries(candidate)[0];
    if (found) return found;
  }
  return undefined;
}

export function findCodex(repoRoot: string): CodexLookup {
  const fromEnv = process.env['CODEX_BIN'];
  const path = fromEnv && fromEnv.trim() !== '' ? fromEnv : packagedCodex(repoRoot);
  const how =
    'set CODEX_BIN=/path/to/codex (a Codex CLI binary, e.g. from `npm install -g @openai/codex`), or run `npm ci` in this checkout: ' +
    `the dev dependency @openai/codex-sdk brings @openai/codex-${process.platform}-${process.arch} with the binary under node_modules/@openai/`;
  if (!path) return { missing: `no Codex binary found: ${how}` };
  if (!existsSync(path)) return { missing: `CODEX_BIN=${path} does not exist: ${how}` };
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) return { missing: `${path} --version failed (${(probe.stderr || probe.error?.message || '').trim().slice(0, 300)}): ${how}` };
  return { path, version: probe.stdout.trim() };
}
