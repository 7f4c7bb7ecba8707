// A real node booted with the test bundle plus the http-probe service (privileged, serving its
// own subdomain: tests/integration/services/http-probe.as.ts), for the HTTP serving tests.
import { compiledEntry } from '../unit/services-wasm/program.js';
import { startBootedNode } from './booted-node.js';
import type { RunningNode } from './node-process.js';

/** Boots the node in `<dir>/node` (bundle written to `<dir>`), producing 5 blocks a second. */
export async function startHttpProbeNode(dir: string): Promise<RunningNode> {
  const probe = await compiledEntry('tests/integration/services/http-probe.as.ts');
  return startBootedNode(dir, { extra: [{ account: 'probe', flags: 1n, code: probe.binary, genesis: false, server: 'probe', initActions: [], files: [] }] });
}
