import { describe, expect, it } from 'vitest';
import { buildShellArgv, detectUserShell, shellFromPath, shellKind } from '../../src/exec/shell.js';

describe('shell detection', () => {
  it('uses $SHELL when it is bash, zsh or sh and executable', () => {
    expect(detectUserShell({ SHELL: '/bin/bash' })).toEqual({ path: '/bin/bash', kind: 'bash' });
    expect(detectUserShell({ SHELL: '/bin/sh' })).toEqual({ path: '/bin/sh', kind: 'sh' });
  });

  it('falls back to /bin/bash for other or missing shells', () => {
    expect(detectUserShell({ SHELL: '/usr/bin/fish' })).toEqual({ path: '/bin/bash', kind: 'bash' });
    expect(detectUserShell({ SHELL: '/nonexistent/zsh' })).toEqual({ path: '/bin/bash', kind: 'bash' });
    expect(detectUserShell({})).toEqual({ path: '/bin/bash', kind: 'bash' });
  });

  it('caches the detection for the real environment', () => {
    expect(detectUserShell()).toBe(detectUserShell());
  });

  it('classifies shells by name', () => {
    expect(shellKind('/usr/local/bin/zsh')).toBe('zsh');
    expect(shellKind('dash')).toBe('sh');
    expect(shellKind('/usr/bin/fish')).toBeUndefined();
    expect(shellFromPath('/opt/bin/bash')).toEqual({ path: '/opt/bin/bash', kind: 'bash' });
  });

  it('builds -c and -lc argv', () => {
    const bash = { path: '/bin/bash', kind: 'bash' as const };
    expect(buildShellArgv(bash, 'echo hi', false)).toEqual(['/bin/bash', '-c', 'echo hi']);
    expect(buildShellArgv(bash, 'echo hi', true)).toEqual(['/bin/bash', '-lc', 'echo hi']);
  });
});
