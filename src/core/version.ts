declare const RIG_VERSION: string;

/** The package version, inlined by the bundler; tests running from source read package.json. */
export function rigVersion(): string {
  return typeof RIG_VERSION === 'string' ? RIG_VERSION : '0.0.0-dev';
}
