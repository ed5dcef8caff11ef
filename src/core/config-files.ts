// rig's config for front ends that read it without starting a thread (`rig eval`'s prices and
// defaults), and the helpers that make errors in config-like TOML files (eval task files) read
// like config errors: the line of a key, the key path, what was found there.
export { loadConfig, resolveRigHome } from '../config/index.js';
export { findKeyLine } from '../config/locate.js';
export { loadZod } from '../config/lazy-zod.js';
export { describeFound, formatKeyPath } from '../config/errors.js';
