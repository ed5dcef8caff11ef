// A loaded harness profile: the validated file plus everything it points at (prompt text,
// description files) resolved, so nothing later needs the filesystem.
import type { WireApi } from '../model/types.js';
import type { AliasRules, ProfileFile, Protocol, ProfileToolDecl, RequestShape } from './profile-schema.js';

export type ProfileOrigin = 'builtin' | 'user' | 'project';

export interface ResolvedTool extends Omit<ProfileToolDecl, 'description_file' | 'options'> {
  /** Inline or file description; undefined = use the capability's own. */
  description?: string;
  /** The profile's alias rules overlaid by the tool's own options. */
  options: Record<string, unknown>;
  /** Field path of this tool in its file (`tools[3]`), for error messages. */
  at: string;
}

export interface HarnessProfile {
  id: string;
  description: string;
  wires: WireApi[];
  protocol: Protocol;
  /** See profile-schema.ts: the output line that ends the turn (mini-swe-agent). */
  submitSentinel?: string;
  /** System prompt text (a template: see request-shape.ts for its slots). */
  prompt: string;
  promptFile: string;
  /** Template of the first user message (see profile-schema.ts instance_template_file). */
  instanceTemplate?: string;
  tools: ResolvedTool[];
  request: RequestShape;
  aliases: AliasRules;
  sources: string[];
  notes: string[];
  /** Accepted differences from the captured original (profile-schema.ts). */
  fidelity?: NonNullable<ProfileFile['fidelity']>;
  /** Set on profiles written by `rig harness capture`. */
  capture?: Record<string, unknown>;
  /** Absolute path of the profile file. */
  file: string;
  origin: ProfileOrigin;
}

/** A profile failed to load. The message is `<file>: <field path>: <problem>`. */
export class HarnessProfileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
    this.name = 'HarnessProfileError';
  }
}

/**
 * Turns a tool declaration into whatever the caller runs (a ToolSpec in the tool layer). Throw
 * CapabilityOptionError for a bad option so the load error names the field.
 */
export type ToolFactory<T> = (tool: ResolvedTool, profile: HarnessProfile) => T;

export type CapabilityRegistry<T> = ReadonlyMap<string, ToolFactory<T>>;

/** Thrown by a ToolFactory: `field` is relative to the tool (e.g. `options.timeout_unit`). */
export class CapabilityOptionError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'CapabilityOptionError';
  }
}
