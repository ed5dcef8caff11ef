// Codex's approval decision order for MCP tool calls, by approval_mode and annotations.
import { describe, expect, it } from 'vitest';
import {
  approvalModeFor,
  decideMcpApproval,
  MCP_APPROVAL_NEVER_MESSAGE,
  persistentApprovalEdit,
  requiresApprovalByAnnotations,
  requiresApprovalForMode,
  type McpApprovalInput,
} from '../../src/mcp/index.js';

const readOnly = { readOnlyHint: true };
const destructive = { readOnlyHint: false, destructiveHint: true };
const safeWrite = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const base: McpApprovalInput = { mode: 'auto', approvalPolicy: 'on-request', sandboxMode: 'workspace-write' };
const ask = { action: 'ask', allowSessionRemember: true, allowPersistent: true };
const askNoRemember = { action: 'ask', allowSessionRemember: false, allowPersistent: false };

describe('annotations (auto mode)', () => {
  it('destructive asks, read-only runs, missing hints count as destructive and open-world', () => {
    expect(requiresApprovalByAnnotations(undefined)).toBe(true);
    expect(requiresApprovalByAnnotations({})).toBe(true);
    expect(requiresApprovalByAnnotations(readOnly)).toBe(false);
    expect(requiresApprovalByAnnotations({ readOnlyHint: true, destructiveHint: true })).toBe(true);
    expect(requiresApprovalByAnnotations(safeWrite)).toBe(false);
    expect(requiresApprovalByAnnotations({ destructiveHint: false })).toBe(true); // open world unknown
    expect(requiresApprovalByAnnotations({ destructiveHint: false, openWorldHint: true })).toBe(true);
  });

  it('per mode: prompt always, writes unless read-only (even if destructive), approve never', () => {
    expect(requiresApprovalForMode(readOnly, 'prompt')).toBe(true);
    expect(requiresApprovalForMode({ readOnlyHint: true, destructiveHint: true }, 'writes')).toBe(false);
    expect(requiresApprovalForMode(undefined, 'writes')).toBe(true);
    expect(requiresApprovalForMode(safeWrite, 'writes')).toBe(true);
    expect(requiresApprovalForMode(destructive, 'approve')).toBe(false);
  });
});

describe('decision order', () => {
  it('1. approve mode runs, even under approval policy never', () => {
    expect(decideMcpApproval({ ...base, mode: 'approve', annotations: destructive, approvalPolicy: 'never' })).toEqual({ action: 'run', reason: 'approve_mode' });
  });

  it('2. never + danger-full-access runs; never in a sandbox refuses with Codex\'s message', () => {
    expect(decideMcpApproval({ ...base, annotations: destructive, approvalPolicy: 'never', sandboxMode: 'danger-full-access' })).toEqual({ action: 'run', reason: 'full_access' });
    expect(decideMcpApproval({ ...base, mode: 'prompt', annotations: destructive, approvalPolicy: 'never' })).toEqual({ action: 'deny', message: MCP_APPROVAL_NEVER_MESSAGE });
  });

  it('3. no approval needed by the mode runs without asking', () => {
    expect(decideMcpApproval({ ...base, annotations: readOnly })).toEqual({ action: 'run', reason: 'not_required' });
    expect(decideMcpApproval({ ...base, annotations: readOnly, approvalPolicy: 'never' })).toEqual({ action: 'run', reason: 'not_required' });
  });

  it('4. a session approval is remembered in auto mode only', () => {
    expect(decideMcpApproval({ ...base, annotations: destructive, rememberedForSession: true })).toEqual({ action: 'run', reason: 'remembered' });
    expect(decideMcpApproval({ ...base, mode: 'prompt', annotations: destructive, rememberedForSession: true })).toEqual(askNoRemember);
    expect(decideMcpApproval({ ...base, mode: 'writes', annotations: destructive, rememberedForSession: true })).toEqual(askNoRemember);
  });

  it('otherwise it asks; auto offers "for this session" and "don\'t ask again", prompt and writes do not', () => {
    expect(decideMcpApproval({ ...base, annotations: destructive })).toEqual(ask);
    expect(decideMcpApproval({ ...base, annotations: undefined })).toEqual(ask);
    expect(decideMcpApproval({ ...base, mode: 'prompt', annotations: readOnly })).toEqual(askNoRemember);
    expect(decideMcpApproval({ ...base, mode: 'writes', annotations: safeWrite, approvalPolicy: 'untrusted' })).toEqual(askNoRemember);
  });

  it('the mode comes from the tool, then the server default, then auto; "don\'t ask again" persists approve', () => {
    const server = { default_tools_approval_mode: 'writes' as const, tools: { search: { approval_mode: 'approve' as const } } };
    expect(approvalModeFor(server, 'search')).toBe('approve');
    expect(approvalModeFor(server, 'write')).toBe('writes');
    expect(approvalModeFor({ tools: {} }, 'x')).toBe('auto');
    expect(persistentApprovalEdit('docs', 'search')).toEqual({ path: ['mcp_servers', 'docs', 'tools', 'search'], value: { approval_mode: 'approve' } });
  });
});
