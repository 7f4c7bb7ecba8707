// Which module bin/tsibase.js runs (docs/design.md, decision 11): a node's process (the
// supervised child of `tsibase node` and `tsibase dev`) loads the CLI bundled into one file
// rather than ~385 modules one by one. Every other process (the supervisor, which only forks;
// the client commands) loads just the modules it uses, as they are.
import { statSync } from 'node:fs';
import { SUPERVISED_ENV } from './supervisor.js';

/** Set (to anything) in the environment: a node's process loads the modules as they are, not the bundle. */
export const UNBUNDLED_ENV = 'TSIBASE_UNBUNDLED';

/** The CLI as its modules: what `npx tsc` writes. */
export const CLI_MODULE = new URL('./main.js', import.meta.url);
/** The CLI as one file: what scripts/build-node-bundle.js (make all) makes of CLI_MODULE's build. */
export const CLI_BUNDLE = new URL('./main.bundle.js', import.meta.url);

function modifiedMs(url: URL): number | undefined {
  return statSync(url, { throwIfNoEntry: false })?.mtimeMs;
}

/**
 * The module to run: the bundle in a node's process when it is at least as new as the modules
 * (tsc rewrites main.js at every build, so a bundle older than it is of an older build and is
 * not run), else the modules.
 */
export function cliModule(env: NodeJS.ProcessEnv = process.env): URL {
  if (!env[SUPERVISED_ENV] || env[UNBUNDLED_ENV]) return CLI_MODULE;
  const bundled = modifiedMs(CLI_BUNDLE);
  const built = modifiedMs(CLI_MODULE);
  return bundled !== undefined && built !== undefined && bundled >= built ? CLI_BUNDLE : CLI_MODULE;
}
