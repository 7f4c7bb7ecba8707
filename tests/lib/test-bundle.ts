// Boot bundles for tests and benchmarks that boot a chain: the services of the default bundle
// (services-wasm/bundle.json, as scripts/build-bundle.js reads it) plus any a caller adds.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packBundle, type BundleServiceInput } from '../../host-api/index.js';
import { ROOT, compiledService } from '../unit/services-wasm/program.js';

interface BundleScript {
  bundleServices(codeOf: (account: string) => Uint8Array | Promise<Uint8Array>): Promise<BundleServiceInput[]>;
  builtCode(account: string): Uint8Array;
}

/** The bundle script, loaded at run time (it is plain JS outside the TypeScript project). */
export async function bundleScript(): Promise<BundleScript> {
  return (await import(pathToFileURL(join(ROOT, 'scripts', 'build-bundle.js')).href)) as BundleScript;
}

async function packTestBundle(extra: readonly BundleServiceInput[]): Promise<Uint8Array> {
  const services = await (await bundleScript()).bundleServices(async (account) => (await compiledService(account)).binary);
  return packBundle({ services: [...services, ...extra] });
}

let plain: Promise<Uint8Array> | undefined;

/**
 * The default bundle's services compiled from services-wasm/ by the tests themselves, plus `extra`;
 * without extras, packed once per process (each caller gets its own copy).
 */
export async function testBundle(extra: readonly BundleServiceInput[] = []): Promise<Uint8Array> {
  if (extra.length > 0) return packTestBundle(extra);
  plain ??= packTestBundle([]);
  return (await plain).slice();
}

/** The same from the services `make services` built (build/services), plus `extra`. */
export async function builtBundle(extra: readonly BundleServiceInput[] = []): Promise<Uint8Array> {
  const script = await bundleScript();
  return packBundle({ services: [...await script.bundleServices(script.builtCode), ...extra] });
}
