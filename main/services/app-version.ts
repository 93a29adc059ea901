/** The version of this Bindery, from package.json (inlined by the bundler in built hosts). */
import pkg from '../../package.json' with { type: 'json' };

/** The product version, e.g. `0.1.0`. */
export const APP_VERSION: string = pkg.version;
