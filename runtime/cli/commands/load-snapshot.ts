import { readFileSync } from 'node:fs';
import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { loadSnapshot } from '../../snapshot/load-snapshot.js';
import { parseArgs, UsageError } from '../args.js';

export const LOAD_SNAPSHOT_USAGE = `usage: tsibase load-snapshot <dir> <file>

Loads a snapshot file (plain or gzip, psibase's format, docs/p2p.md §7.3) into the database of
the node directory <dir>, creating it if needed; a database that already holds a chain must hold
the same one, behind the snapshot. The file is checked whole first (rows, checksum, head and
genesis headers, producer signatures); a refused file changes nothing. <file> '-' is stdin. A
node started on <dir> then follows the chain from the snapshot block.`;

export async function loadSnapshotCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, []);
  const [nodeDir, file, extra] = args.positional;
  if (nodeDir === undefined || file === undefined || extra !== undefined) throw new UsageError(LOAD_SNAPSHOT_USAGE);
  const started = Date.now();
  const loaded = await loadSnapshot(nodeDir, readFileSync(file === '-' ? 0 : file), (step) => console.error(`load-snapshot: ${step} (${((Date.now() - started) / 1000).toFixed(1)} s)`));
  console.error(`snapshot of block ${loaded.blockNum} (${bytesToHex(loaded.blockId)}) loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}
