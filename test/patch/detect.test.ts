import { describe, expect, it } from 'vitest';
import { IMPLICIT_PATCH_MESSAGE, detectApplyPatchInvocation, detectImplicitPatch } from '../../src/patch/detect.js';

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';

describe('detectApplyPatchInvocation', () => {
  it('recognises a heredoc script with any delimiter quoting', () => {
    for (const opener of ["<<'EOF'", '<<"EOF"', '<<EOF', "<< 'PATCH'", '<<\\EOF']) {
      const delimiter = opener.includes('PATCH') ? 'PATCH' : 'EOF';
      expect(detectApplyPatchInvocation(`apply_patch ${opener}\n${PATCH}\n${delimiter}\n`)).toEqual({ patch: PATCH });
    }
    expect(detectApplyPatchInvocation(`applypatch <<'EOF'\n${PATCH}\nEOF`)).toEqual({ patch: PATCH });
  });

  it('recognises cd <dir> && apply_patch with bare, single- and double-quoted dirs', () => {
    expect(detectApplyPatchInvocation(`cd src/app && apply_patch <<'EOF'\n${PATCH}\nEOF\n`)).toEqual({ patch: PATCH, workdir: 'src/app' });
    expect(detectApplyPatchInvocation(`cd 'my dir' && apply_patch <<EOF\n${PATCH}\nEOF`)).toEqual({ patch: PATCH, workdir: 'my dir' });
    expect(detectApplyPatchInvocation(`cd "/abs/x y" && apply_patch <<EOF\n${PATCH}\nEOF`)).toEqual({ patch: PATCH, workdir: '/abs/x y' });
  });

  it('recognises argv forms', () => {
    expect(detectApplyPatchInvocation(['apply_patch', PATCH])).toEqual({ patch: PATCH });
    expect(detectApplyPatchInvocation(['applypatch', PATCH])).toEqual({ patch: PATCH });
    const script = `apply_patch <<'EOF'\n${PATCH}\nEOF\n`;
    expect(detectApplyPatchInvocation(['bash', '-lc', script])).toEqual({ patch: PATCH });
    expect(detectApplyPatchInvocation(['/bin/zsh', '-c', script])).toEqual({ patch: PATCH });
    expect(detectApplyPatchInvocation(['sh', '-c', `cd x && ${script}`])).toEqual({ patch: PATCH, workdir: 'x' });
    expect(detectApplyPatchInvocation(['pwsh', '-NoProfile', '-Command', script])).toEqual({ patch: PATCH });
    expect(detectApplyPatchInvocation(['powershell.exe', '-command', script])).toEqual({ patch: PATCH });
    expect(detectApplyPatchInvocation(['cmd', '/c', script])).toEqual({ patch: PATCH });
  });

  it('strips leading tabs for <<- and drops trailing newlines of the body', () => {
    expect(detectApplyPatchInvocation(`apply_patch <<-EOF\n\t*** Begin Patch\n\t*** Delete File: x\n\t*** End Patch\n\n\tEOF\n`)).toEqual({
      patch: '*** Begin Patch\n*** Delete File: x\n*** End Patch',
    });
  });

  it.each([
    ['a command after the heredoc', `apply_patch <<'EOF'\n${PATCH}\nEOF\necho done`],
    ['a pipe', `cat x | apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['a command before', `echo hi; apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['|| instead of &&', `cd x || apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['; instead of &&', `cd x; apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['two cds', `cd a && cd b && apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['an argument to apply_patch', `apply_patch --x <<'EOF'\n${PATCH}\nEOF`],
    ['more on the heredoc line', `apply_patch <<'EOF' && echo ok\n${PATCH}\nEOF`],
    ['an expansion in the cd dir', `cd "$HOME" && apply_patch <<'EOF'\n${PATCH}\nEOF`],
    ['a different program', `git apply <<'EOF'\n${PATCH}\nEOF`],
  ])('does not intercept %s', (_label, script) => {
    expect(detectApplyPatchInvocation(script)).toBeNull();
    expect(detectApplyPatchInvocation(['bash', '-lc', script])).toBeNull();
  });

  it('does not intercept other argv shapes', () => {
    expect(detectApplyPatchInvocation(['apply_patch'])).toBeNull();
    expect(detectApplyPatchInvocation(['apply_patch', PATCH, 'extra'])).toBeNull();
    expect(detectApplyPatchInvocation(['bash', '-x', '-c', `apply_patch <<EOF\n${PATCH}\nEOF`])).toBeNull();
    expect(detectApplyPatchInvocation(['python', '-c', `apply_patch <<EOF\n${PATCH}\nEOF`])).toBeNull();
  });
});

describe('detectImplicitPatch', () => {
  it('flags a bare patch given as a command', () => {
    expect(detectImplicitPatch([PATCH])).toBe(IMPLICIT_PATCH_MESSAGE);
    expect(detectImplicitPatch(['bash', '-lc', PATCH])).toBe(IMPLICIT_PATCH_MESSAGE);
    expect(detectImplicitPatch(PATCH)).toBe(IMPLICIT_PATCH_MESSAGE);
    expect(detectImplicitPatch(['ls', '-la'])).toBeNull();
    expect(detectImplicitPatch('ls -la')).toBeNull();
    expect(IMPLICIT_PATCH_MESSAGE).toBe('patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]');
  });
});
