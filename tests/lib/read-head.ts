// Reads a running node's head block from its LMDB environment (LMDB allows readers in other
// processes), for TaPoS in tests and benchmarks until /common/tapos/head is served.
import { join } from 'node:path';
import { open } from 'lmdb';
import { statusKey } from '../../host-api/abi/keys.js';
import { taposReference } from '../../host-api/chain/tapos.js';
import { StatusRow } from '../../host-api/types/native.js';

export async function headTapos(nodeDir: string, expiresIn = 60) {
  const env = open({ path: join(nodeDir, 'db'), readOnly: true, maxDbs: 16, noSubdir: false });
  try {
    const native = env.openDB({ name: 'native', keyEncoding: 'binary', encoding: 'binary' });
    const head = StatusRow.unpack(new Uint8Array(native.getBinary(Buffer.from(statusKey()))!)).head!;
    return { expiration: BigInt(Math.floor(Date.now() / 1000) + expiresIn), ...taposReference(head.header.blockNum, head.blockId), flags: 0 };
  } finally {
    await env.close();
  }
}
