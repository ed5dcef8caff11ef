// ACP session modes as Codex's approval presets: each names an approval policy and a sandbox, and
// `session/set_mode` applies both to the thread from its next turn. A thread configured otherwise
// (config.toml, -c) shows as the extra mode "custom" until a preset is chosen.
import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { SettingsUpdate, ThreadSettingsView } from '../../protocol/index.js';

export interface ApprovalPreset {
  id: 'read-only' | 'auto' | 'full-access';
  name: string;
  description: string;
  approval_policy: NonNullable<SettingsUpdate['approval_policy']>;
  sandbox_mode: NonNullable<SettingsUpdate['sandbox_mode']>;
}

export const PRESETS: readonly ApprovalPreset[] = [
  {
    id: 'read-only',
    name: 'Read Only',
    description: 'Reads files and runs read-only commands in the sandbox; asks before editing or going outside it.',
    approval_policy: 'on-request',
    sandbox_mode: 'read-only',
  },
  {
    id: 'auto',
    name: 'Auto',
    description: 'Reads, edits and runs commands in the workspace sandbox; asks before network access or leaving the workspace.',
    approval_policy: 'on-request',
    sandbox_mode: 'workspace-write',
  },
  {
    id: 'full-access',
    name: 'Full Access',
    description: 'No sandbox and no questions: edits anything and uses the network. Use with care.',
    approval_policy: 'never',
    sandbox_mode: 'danger-full-access',
  },
];

const CUSTOM: SessionMode = { id: 'custom', name: 'As configured', description: 'The approval policy and sandbox from config.toml and -c overrides.' };

export function presetOf(id: string): ApprovalPreset | undefined {
  return PRESETS.find((preset) => preset.id === id);
}

/** The preset a thread's settings match, or "custom". */
export function currentModeId(settings: ThreadSettingsView): string {
  if (settings.yolo) return 'full-access';
  return PRESETS.find((preset) => preset.approval_policy === settings.approval_policy && preset.sandbox_mode === settings.sandbox_mode)?.id ?? CUSTOM.id;
}

export function modeState(settings: ThreadSettingsView): SessionModeState {
  const current = currentModeId(settings);
  const modes: SessionMode[] = PRESETS.map(({ id, name, description }) => ({ id, name, description }));
  return { currentModeId: current, availableModes: current === CUSTOM.id ? [...modes, CUSTOM] : modes };
}
