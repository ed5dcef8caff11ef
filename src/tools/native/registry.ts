// The native capabilities a harness profile can bind (`native.*`). Each factory builds the tool the
// Codex way, under the name the profile gives it; a profile may override the description.
import type { ResolvedTool, ToolFactory } from '../../harness/profile.js';
import type { WireApi } from '../../model/types.js';
import type { ToolSpec } from '../spec.js';
import { applyPatchFreeformTool, applyPatchJsonTool } from './apply-patch.js';
import { execCommandTool } from './exec-command.js';
import { shellCommandTool, shellTool } from './shell.js';
import { updatePlanTool } from './update-plan.js';
import { viewImageTool } from './view-image.js';
import { writeStdinTool } from './write-stdin.js';

export interface NativeCapabilityOptions {
  wire: WireApi;
  modelAcceptsImages: boolean;
  /** Upper bound of an empty write_stdin poll (config `background_terminal_max_timeout`). */
  backgroundMaxMs?: number;
}

/** The native tool under the profile's name; the profile may replace its description and schema. */
function named(build: () => ToolSpec): ToolFactory<ToolSpec> {
  return (tool: ResolvedTool) => {
    const spec = build();
    return {
      ...spec,
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      ...(spec.kind === 'function' && tool.parameters ? { parameters: tool.parameters } : {}),
    };
  };
}

export function nativeCapabilities(options: NativeCapabilityOptions): Map<string, ToolFactory<ToolSpec>> {
  // Only the Responses wire has freeform tools; elsewhere apply_patch takes {"input": patch}.
  const applyPatch = options.wire === 'responses' ? applyPatchFreeformTool : applyPatchJsonTool;
  return new Map<string, ToolFactory<ToolSpec>>([
    ['native.exec_command', named(execCommandTool)],
    ['native.write_stdin', named(() => writeStdinTool(options.backgroundMaxMs ? { backgroundMaxMs: options.backgroundMaxMs } : {}))],
    ['native.shell', named(shellTool)],
    ['native.shell_command', named(shellCommandTool)],
    ['native.apply_patch', named(applyPatch)],
    ['native.update_plan', named(updatePlanTool)],
    ['native.view_image', named(() => viewImageTool({ modelAcceptsImages: options.modelAcceptsImages }))],
  ]);
}
