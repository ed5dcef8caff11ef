// The in-process half of the sandbox: apply_patch and every harness edit tool write files from
// rig's own process, where no bubblewrap or Seatbelt applies. Before anything is written, the
// path is resolved the way the kernel would resolve it (each symlink followed, `..` taken after
// the symlink, the file itself possibly not existing yet) and the result is checked against the
// same writable roots and protected paths the platform sandbox enforces.
//
// Hard links: a regular file inside a root may share its inode with a file outside; no path check
// can see where the other name lives. We refuse to write an existing file with more than one link
// (unless the policy is danger-full-access). The file-change engine writes a temp file and renames
// it, which would replace the name rather than write through the shared inode, but refusing keeps
// the guarantee independent of how the writer writes. The user can approve the write or break the
// link (`cp --remove-destination f f.tmp && mv f.tmp f`).
import fs from 'node:fs';
import path from 'node:path';
import { PROTECTED_NAMES, isWithin, type SandboxPolicy } from './policy.js';

const MAX_SYMLINK_HOPS = 40;

export interface WriteCheckOptions {
  /**
   * Follow a symlink in the last component (writing content does; deleting or renaming the name
   * itself does not). Default true.
   */
  followFinalSymlink?: boolean;
}

export type WriteCheck =
  | { allowed: true; target: string }
  | { allowed: false; target: string | undefined; reason: string };

/**
 * Where a write to `requested` would physically land: the real path of the longest existing
 * prefix, following symlinks (including dangling ones, whose target would be created) and taking
 * `..` after each resolved symlink, with the non-existent rest appended. Undefined for symlink
 * loops and for names a write cannot resolve to a path.
 */
export function resolveWriteTarget(requested: string, options: WriteCheckOptions = {}): string | undefined {
  if (!path.isAbsolute(requested)) return undefined;
  return walk(requested, options.followFinalSymlink !== false, { hops: 0 });
}

function walk(absolute: string, followFinal: boolean, budget: { hops: number }): string | undefined {
  const parts = absolute.split('/').filter((part) => part !== '' && part !== '.');
  let current = '/';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${part}` : `${current}/${part}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(next);
    } catch {
      // Nothing exists from here on; directories created later are real, so `..` is lexical.
      return path.resolve(next, ...parts.slice(i + 1));
    }
    const isLast = i === parts.length - 1;
    if (stat.isSymbolicLink() && (followFinal || !isLast)) {
      if (++budget.hops > MAX_SYMLINK_HOPS) return undefined;
      const link = fs.readlinkSync(next);
      const target = path.isAbsolute(link) ? link : `${current}/${link}`;
      const resolved = walk(target, true, budget);
      if (resolved === undefined) return undefined;
      current = resolved;
    } else {
      current = next;
    }
  }
  return current;
}

/** Check a write (create, overwrite, delete, rename source or destination) of `requested`. */
export function checkWrite(requested: string, policy: SandboxPolicy, options: WriteCheckOptions = {}): WriteCheck {
  if (policy.mode === 'danger-full-access') return { allowed: true, target: requested };
  const absolute = path.isAbsolute(requested) ? requested : path.join(policy.cwd, requested);
  if (policy.mode === 'read-only') {
    return {
      allowed: false,
      target: undefined,
      reason: `${requested} cannot be written: the sandbox is read-only (sandbox_mode = "read-only").`,
    };
  }
  const target = resolveWriteTarget(absolute, options);
  if (target === undefined) {
    return {
      allowed: false,
      target,
      reason: `${requested} cannot be written: its path does not resolve to a file (symlink loop or a special link).`,
    };
  }
  const via = target === absolute ? '' : ` (it resolves to ${target})`;
  const containing = policy.writableRoots.filter((root) => isWithin(target, root.root));
  if (containing.length === 0) {
    return {
      allowed: false,
      target,
      reason:
        `${requested} is outside the writable roots${via}. Writable: ` +
        `${policy.writableRoots.map((r) => r.root).join(', ') || 'nothing'}. ` +
        'Add the directory with --add-dir or sandbox_workspace_write.writable_roots, or approve the write.',
    };
  }
  for (const root of policy.writableRoots) {
    const protectedPath = [...root.readOnlySubpaths, ...root.missingProtected].find((p) => isWithin(target, p));
    if (protectedPath !== undefined) return protectedDenial(requested, via, target, protectedPath);
  }
  for (const root of containing) {
    const first = target === root.root ? undefined : target.slice(root.root.length).split('/').find(Boolean);
    if (first !== undefined && PROTECTED_NAMES.includes(first)) {
      return protectedDenial(requested, via, target, path.join(root.root, first));
    }
  }
  const hardLinks = linkCount(target);
  if (hardLinks > 1) {
    return {
      allowed: false,
      target,
      reason:
        `${requested} has ${hardLinks} hard links${via}; another name for the same file may be outside ` +
        'the writable roots. Approve the write, or break the link first ' +
        '(cp --remove-destination <file> <file>.tmp && mv <file>.tmp <file>).',
    };
  }
  return { allowed: true, target };
}

function protectedDenial(requested: string, via: string, target: string, protectedPath: string): WriteCheck {
  return {
    allowed: false,
    target,
    reason:
      `${requested} is inside ${protectedPath}${via}, which stays read-only in the sandbox ` +
      `(${PROTECTED_NAMES.join(', ')} are protected in every writable root). Approve the write to proceed.`,
  };
}

function linkCount(target: string): number {
  try {
    const stat = fs.lstatSync(target);
    return stat.isFile() ? stat.nlink : 1;
  } catch {
    return 1;
  }
}

/** May `absPath` be written under `policy`? Resolves symlinks and `..` first. */
export function canWritePath(absPath: string, policy: SandboxPolicy, options: WriteCheckOptions = {}): boolean {
  return checkWrite(absPath, policy, options).allowed;
}

/** Why writing `absPath` is refused (for the model and the approval prompt); undefined if allowed. */
export function explainWriteDenied(
  absPath: string,
  policy: SandboxPolicy,
  options: WriteCheckOptions = {},
): string | undefined {
  const check = checkWrite(absPath, policy, options);
  return check.allowed ? undefined : check.reason;
}
