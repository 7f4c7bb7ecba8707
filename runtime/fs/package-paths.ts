import { fileURLToPath } from 'node:url';

// Where the package's own files are, in the repository and in an installed package alike: this
// file is dist/runtime/fs/package-paths.js, so the package root is three folders up.

const PACKAGE_ROOT_URL = new URL('../../../', import.meta.url);

/** A path inside the package (`packagePath('admin')`, `packagePath('build', 'default.bundle')`). */
export function packagePath(...parts: string[]): string {
  return fileURLToPath(new URL(parts.join('/'), PACKAGE_ROOT_URL));
}

/** The package's root folder. */
export const PACKAGE_ROOT = packagePath('.');

/** The bundle `tsibase boot`, `tsibase dev` and the x-admin boot screen boot: TSIBASE_DEFAULT_BUNDLE, or the one `make services` builds. */
export function defaultBundlePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TSIBASE_DEFAULT_BUNDLE ?? packagePath('build', 'default.bundle');
}
