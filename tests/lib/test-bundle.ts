// A boot bundle of the system services (compiled from services-wasm/ by the tests themselves)
// plus the example service, for tests that boot a chain.
import { packBundle } from '../../host-api/index.js';
import { compiledService } from '../unit/services-wasm/program.js';

/** The system services and their flags (docs/system-services.md); all installed at genesis. */
export const SYSTEM_SERVICES = [
  ['transact', 1n], ['accounts', 1n], ['auth-any', 0n], ['auth-sig', 0n], ['verify-sig', 2n], ['setcode', 1n], ['producers', 1n], ['http', 1n],
] as const;

export async function testBundle(): Promise<Uint8Array> {
  const code = await Promise.all([...SYSTEM_SERVICES.map(([name]) => name), 'example'].map((name) => compiledService(name)));
  return packBundle({
    services: [
      ...SYSTEM_SERVICES.map(([account, flags], i) => ({ account, flags, code: code[i]!.binary, genesis: true, server: null, initActions: [], files: [] })),
      { account: 'example', flags: 0n, code: code[SYSTEM_SERVICES.length]!.binary, genesis: false, server: null, initActions: [], files: [] },
    ],
  });
}
