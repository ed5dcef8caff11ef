// Every harness profile rig can find (built-in, $RIG_HOME/harnesses/, trusted projects'
// .rig/harnesses/), with its wires, protocol and tools, for `rig harness list`. A profile that does
// not load or bind is listed with the reason, so a user can fix their file.
import { findProjectRoot, isProjectTrusted, loadConfig, resolveRigHome } from '../config/index.js';
import { listProfileLocations, readProfileFile, type ProfileSearchOptions } from '../harness/loader.js';
import type { ProfileOrigin } from '../harness/profile.js';
import { bindHarness } from '../tools/harness/registry.js';
import { nativeCapabilities } from '../tools/native/registry.js';

export type { ProfileSearchOptions } from '../harness/loader.js';

export interface HarnessListEntry {
  id: string;
  origin: ProfileOrigin;
  file: string;
  description?: string;
  wires?: string[];
  protocol?: string;
  tools?: { name: string; capability: string; exposure: string }[];
  /** Tools without a handler: always 0 for a profile that loads (one that has any fails to load, naming it). */
  unbound?: number;
  /** Tools of the original rig leaves out of its requests, with why. */
  omitted?: { name: string; reason: string }[];
  /** Why the profile does not load (`<file>: <field>: <problem>`). */
  error?: string;
}

/** Where profiles are searched for this user in this directory. */
export function profileSearch(io: { env: NodeJS.ProcessEnv; cwd: string }): ProfileSearchOptions {
  const home = resolveRigHome(io.env);
  let trusted: string[] = [];
  let userDir: string | undefined;
  try {
    const { config, cwd } = loadConfig({ home, cwd: io.cwd, env: io.env });
    if (isProjectTrusted(config, cwd)) trusted = [findProjectRoot(cwd, config.project_root_markers) ?? cwd];
    userDir = config.harnesses_dir;
  } catch {
    // A broken config.toml only hides project profiles here; `rig exec` reports it properly.
  }
  return { rigHome: home, trustedProjectRoots: trusted, ...(userDir ? { userDir } : {}) };
}

export function listHarnesses(search: ProfileSearchOptions): HarnessListEntry[] {
  return listProfileLocations(search).map((location): HarnessListEntry => {
    try {
      const profile = readProfileFile(location.file, location.origin);
      // Binding checks every capability id and option, as a session would: an unbound tool throws.
      const bound = bindHarness(profile, nativeCapabilities({ wire: profile.wires[0] ?? 'responses', modelAcceptsImages: true }));
      return {
        ...location,
        description: profile.description,
        wires: profile.wires,
        protocol: profile.protocol,
        tools: profile.tools.filter((tool) => bound.byName.has(tool.name)).map((tool) => ({ name: tool.name, capability: tool.capability, exposure: tool.exposure })),
        unbound: profile.tools.filter((tool) => !bound.byName.has(tool.name) && !bound.omitted.some((o) => o.name === tool.name)).length,
        omitted: bound.omitted,
      };
    } catch (error) {
      return { ...location, error: (error as Error).message };
    }
  });
}
