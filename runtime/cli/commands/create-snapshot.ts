import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { createSnapshot } from '../../snapshot/create-snapshot.js';
import { parseArgs, UsageError } from '../args.js';
import { readPrivateKey } from '../key-arguments.js';

export const CREATE_SNAPSHOT_USAGE = `usage: tsibase create-snapshot [-z|--gzip] [-s|--sign KEY-FILE]... [-b|--blocks] <dir> <file>

Writes the newest snapshot of the node in <dir> whose state checksum enough block producers
signed (docs/p2p.md §7.3; snapshots are scheduled with transact::setSnapTime) to <file>, in
psibase's snapshot format; <file> '-' is stdout. Stop the node first.

  -z, --gzip            compress the file with gzip
  -s, --sign KEY-FILE   also sign it with this producer's private key (PKCS#8, PEM or DER)
  -b, --blocks          include the whole block log up to the snapshot block`;

export async function createSnapshotCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [
    { name: 'gzip', short: 'z', flag: true },
    { name: 'sign', short: 's', repeatable: true },
    { name: 'blocks', short: 'b', flag: true },
  ]);
  const [nodeDir, file, extra] = args.positional;
  if (nodeDir === undefined || file === undefined || extra !== undefined) throw new UsageError(CREATE_SNAPSHOT_USAGE);
  const created = await createSnapshot({
    nodeDir,
    file,
    gzip: args.options.has('gzip'),
    blocks: args.options.has('blocks'),
    signWith: (args.options.get('sign') ?? []).map(readPrivateKey),
  });
  console.error(`snapshot of block ${created.blockNum} (${bytesToHex(created.blockId)}) written: ${created.bytes} bytes`);
  return 0;
}
