// rig doctor names the rg the search tools would run, and calls a `ripgrep` choice that cannot be
// used a problem (searches would still work, in-process and slower).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/frontends/safety/doctor.js';
import { bundledRipgrep, configureRipgrep, systemRipgrep } from '../../../src/tools/search/locate.js';
import { removeDir, tempDir, tempRigHome } from '../../support/workspace.js';

const home = tempRigHome({ url: 'http://127.0.0.1:9/v1' });
const bin = tempDir('doctor-rg');
afterAll(() => {
  removeDir(home);
  removeDir(bin);
});
afterEach(() => configureRipgrep(undefined));

async function doctor(config: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  let text = '';
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, RIG_HOME: home, MOCK_API_KEY: 'sk-mock', ...extraEnv };
  const code = await runDoctor({ env, cwd: bin, config, offline: true, stdout: (chunk) => (text += chunk) });
  return { code, text };
}

describe('rig doctor: search', () => {
  it.skipIf(!bundledRipgrep() && !systemRipgrep(process.env['PATH'] ?? ''))('names the rg in use and where it comes from', async () => {
    const { text } = await doctor([]);
    expect(text).toMatch(/^search: ripgrep \/\S+\/rg \((bundled|system)\)$/m);
  });

  it('a configured rg path is used; one that is not executable is a problem', async () => {
    const mine = join(bin, 'rg');
    writeFileSync(mine, '#!/bin/sh\n');
    chmodSync(mine, 0o755);
    expect((await doctor([`ripgrep="${mine}"`])).text).toContain(`search: ripgrep ${mine} (configured)`);
    const broken = await doctor([`ripgrep="${join(bin, 'missing')}"`]);
    expect(broken.code).toBe(1);
    expect(broken.text).toContain(`PROBLEM: search: ripgrep = "${join(bin, 'missing')}" in config, but that is not an executable file`);
  });

  it('RIG_RIPGREP overrides the config; a value that is no mode and no path is a located warning', async () => {
    const { text } = await doctor(['ripgrep="system"'], { RIG_RIPGREP: 'off' });
    expect(text).toContain('search: in-process, in a worker thread (RIG_RIPGREP=off)');
    const odd = await doctor(['ripgrep="rg"'], { RIG_RIPGREP: 'off' });
    expect(odd.text).toContain('warning: -c ripgrep="rg": ripgrep = "rg" is neither "auto", "bundled", "system", "off" nor an absolute path to an rg binary');
  });
});
