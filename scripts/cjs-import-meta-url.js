// Injected into the CommonJS entries by scripts/build.mjs: import.meta.url as an ES module would see it.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
