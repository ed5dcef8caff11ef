// Headless Chromium (Debian's /usr/bin/chromium) for looking at a report as a person would: the
// DOM after rendering, and a screenshot. Each call gets a fresh profile folder and no network.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { removeDir, tempDir } from '../../support/workspace.js';

const run = promisify(execFile);
export const CHROMIUM = '/usr/bin/chromium';

async function chromium(args: string[], page: string): Promise<string> {
  const profile = tempDir('chromium');
  try {
    const { stdout } = await run(
      CHROMIUM,
      ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, ...args, pathToFileURL(page).href],
      { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
    );
    return stdout;
  } finally {
    removeDir(profile);
  }
}

export function dumpDom(page: string): Promise<string> {
  return chromium(['--dump-dom'], page);
}

export async function screenshot(page: string, width = 1280, height = 1100): Promise<Buffer> {
  const dir = tempDir('shot');
  try {
    const file = join(dir, 'shot.png');
    await chromium(['--hide-scrollbars', `--window-size=${width},${height}`, `--screenshot=${file}`], page);
    return readFileSync(file);
  } finally {
    removeDir(dir);
  }
}
