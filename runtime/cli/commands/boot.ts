import { readFileSync } from 'node:fs';
import { TsibaseError } from '../../../host-api/errors.js';
import { bootTransactionCount, bootTransactions, runBoot, unpackBundle, type KeyPair } from '../../../host-api/index.js';
import { sha256 } from '../../crypto/sha256.js';
import { importKeyRequest } from '../../keys/requests.js';
import { defaultBundlePath } from '../../fs/package-paths.js';
import { option, parseArgs, UsageError } from '../args.js';
import { DEFAULT_API } from '../chain-client.js';
import { httpRequest, serviceUrl } from '../client.js';
import { bootKeys } from './boot-key-files.js';
import { BOOT_KEY_OPTIONS, bootKeyUsage } from './boot-keys.js';

export const BOOT_USAGE = `usage: tsibase boot [bundle] [options]

Boots a chain on a node that has none: push_boot, then the remaining boot transactions.

options:
  -a, --api <url>          the node (default ${DEFAULT_API})
  -p, --producer <name>    the producer of the new chain (default prod)
${bootKeyUsage(27)}`;

/** Gives the node the block key's private key (the admin API), so it can sign from the first block on. */
async function storeBlockKey(api: string, pair: KeyPair): Promise<void> {
  const r = await httpRequest(new URL('/native/admin/keys', api).toString(), {
    method: 'POST',
    body: new TextEncoder().encode(JSON.stringify(importKeyRequest(pair))),
    headers: { 'content-type': 'application/json' },
  });
  if (r.status !== 200) throw new TsibaseError('BOOT_FAILED', `storing the block key on the node: ${r.status} ${r.text()}`);
}

export async function bootCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'api', short: 'a' }, { name: 'producer', short: 'p' }, ...BOOT_KEY_OPTIONS]);
  if (args.positional.length > 1) throw new UsageError(`unexpected argument '${args.positional[1]}'\n\n${BOOT_USAGE}`);
  const api = option(args, 'api') ?? DEFAULT_API;
  const { accountKey, blockKey } = bootKeys(args); // key mistakes are reported before the bundle is read
  const bundle = unpackBundle(readFileSync(args.positional[0] ?? defaultBundlePath()));
  const boot = bootTransactions(bundle, { producer: option(args, 'producer') ?? 'prod', accountKey, blockKey: blockKey?.publicKey, sha256 });
  if (blockKey?.pair) await storeBlockKey(api, blockKey.pair);

  // Each POST answers with a trace; a non-200 reply carries its reason as text.
  const post = async (url: string, body: Uint8Array) => {
    const r = await httpRequest(url, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    return r.status === 200 ? (r.json() as { error: string | null }) : { error: `${r.status} ${r.text()}` };
  };
  await runBoot(boot, {
    pushBoot: (body) => post(new URL('/native/admin/push_boot', api).toString(), body),
    push: (t) => post(`${serviceUrl(api, 'transact', '/push_transaction')}?wait_for=applied`, t),
  }, (applied, total) => console.log(`boot: ${applied} of ${total} transactions applied`));
  console.log(`booted: ${bundle.services.length} services, ${bootTransactionCount(boot)} boot transactions`);
  if (!accountKey) console.log('a development chain (no --account-key): anyone may act as root and every system account');
  return 0;
}
