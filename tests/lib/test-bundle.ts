// A boot bundle of the system services (compiled from services-wasm/ by the tests themselves)
// plus sites, common-api, homepage and the example service, and any services a test adds, for
// tests that boot a chain.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packBundle, type BundleServiceInput, type SiteFile } from '../../host-api/index.js';
import { ROOT, compiledService } from '../unit/services-wasm/program.js';

/** The site files of a folder, as `make services` bundles them (scripts/build-bundle.js). */
async function filesUnder(folder: string): Promise<SiteFile[]> {
  const script = (await import(pathToFileURL(join(ROOT, 'scripts', 'build-bundle.js')).href)) as { filesUnder(dir: string): SiteFile[] };
  return script.filesUnder(join(ROOT, folder));
}

/** The system services and their flags (docs/system-services.md); all installed at genesis. */
export const SYSTEM_SERVICES = [
  ['transact', 1n], ['accounts', 1n], ['auth-any', 0n], ['auth-sig', 0n], ['verify-sig', 2n], ['setcode', 1n], ['producers', 1n], ['http', 1n],
] as const;

export async function testBundle(extra: readonly BundleServiceInput[] = []): Promise<Uint8Array> {
  const system = await Promise.all(SYSTEM_SERVICES.map(async ([account, flags]) => ({
    account, flags, code: (await compiledService(account)).binary, genesis: true, server: null, initActions: [], files: [],
  })));
  const service = async (account: string, server: string | null, files: SiteFile[] = []) => ({
    account, flags: 0n, code: (await compiledService(account)).binary, genesis: false, server, initActions: [], files,
  });
  const others = await Promise.all([
    service('sites', null), service('common-api', null, await filesUnder('services-wasm/common-api/files')),
    service('homepage', null), service('example', 'example'),
  ]);
  return packBundle({ services: [...system, ...others, ...extra] });
}
