// A real node process booted with the test bundle: what most integration and e2e tests start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleServiceInput } from '../../host-api/index.js';
import { startNode, type RunningNode } from './node-process.js';
import { testBundle } from './test-bundle.js';

/** Where startBootedNode writes the bundle it boots. */
export function testBundleFile(dir: string): string {
  return join(dir, 'test.bundle');
}

/**
 * Writes the test bundle (the default bundle's services plus `extra`) to `<dir>/test.bundle`
 * and starts a node in `<dir>/<name>` that boots it, producing as `prod` five blocks a second.
 */
export async function startBootedNode(dir: string, options: { name?: string; extra?: readonly BundleServiceInput[] } = {}): Promise<RunningNode> {
  const bundle = testBundleFile(dir);
  writeFileSync(bundle, await testBundle(options.extra));
  return startNode(join(dir, options.name ?? 'node'), ['-p', 'prod', '--boot', bundle, '--block-interval', '200']);
}
