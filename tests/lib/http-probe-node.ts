// A real node booted with the test bundle plus the http-probe service (privileged, serving its
// own subdomain: tests/integration/services/http-probe.as.ts), for the HTTP serving tests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledEntry } from '../unit/services-wasm/program.js';
import { startNode, type RunningNode } from './node-process.js';
import { testBundle } from './test-bundle.js';

/** Boots the node in `<dir>/node` (bundle written to `<dir>`), producing 5 blocks a second. */
export async function startHttpProbeNode(dir: string): Promise<RunningNode> {
  const probe = await compiledEntry('tests/integration/services/http-probe.as.ts');
  const bundle = join(dir, 'test.bundle');
  writeFileSync(bundle, await testBundle([
    { account: 'probe', flags: 1n, code: probe.binary, genesis: false, server: 'probe', initActions: [], files: [] },
  ]));
  return startNode(join(dir, 'node'), ['-p', 'prod', '--boot', bundle, '--block-interval', '200']);
}
