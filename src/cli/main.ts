// Placeholder entry so the build has a target; replaced by the CLI wiring.
declare const RIG_VERSION: string;
console.log(RIG_VERSION);
