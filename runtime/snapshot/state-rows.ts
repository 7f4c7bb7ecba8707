// The rows a snapshot is made of (docs/p2p.md §7.2): every row of the service (0) and native (2)
// databases, in key order; their KvMerkle roots are the state checksum producers sign.

import { DbId } from '../../host-api/abi/databases.js';
import type { StateChecksum } from '../../host-api/types/native.js';
import { KvMerkle } from '../crypto/kv-merkle.js';

/** The databases whose rows are the state, in the order a snapshot holds them. */
export const STATE_DBS = [DbId.service, DbId.native] as const;

/** The state checksum of rows fed database by database, each in increasing key order (else KvMerkle throws). */
export class StateMerkle {
  private readonly merkles = new Map<number, KvMerkle>(STATE_DBS.map((db) => [db, new KvMerkle()]));

  push(db: number, key: Uint8Array, value: Uint8Array): void {
    this.merkles.get(db)!.push(key, value);
  }

  checksum(): StateChecksum {
    return { serviceRoot: this.merkles.get(DbId.service)!.root(), nativeRoot: this.merkles.get(DbId.native)!.root() };
  }
}
