// The native status row (native table 1, docs/chain.md §1.1 and §1.4) and the block and consensus
// records it holds, in psibase's member order.

import { AccountNumber, TimePointUSec } from "../names/types";
import { Checksum256 } from "../fracpack/checksum";
import { pack, unpack } from "../fracpack/codec";
import { check } from "../abort";
import { DbId, get, put } from "../tables/db";
import { Claim } from "../auth/types";
import { statusKey } from "./keys";

@fracpack
export class Producer {
  constructor(public name: AccountNumber = 0, public auth: Claim = new Claim()) {}
}

@fracpack
export class CftConsensus {
  constructor(public producers: Array<Producer> = []) {}
}

@fracpack
export class BftConsensus {
  constructor(public producers: Array<Producer> = []) {}
}

@variant
export class ConsensusData {
  CftConsensus: CftConsensus = new CftConsensus();
  BftConsensus: BftConsensus = new BftConsensus();
}

@fracpack
export class BlockHeaderAuthAccount {
  codeNum: AccountNumber = 0;
  codeHash: Checksum256 = new Checksum256();
  vmType: u8 = 0;
  vmVersion: u8 = 0;
}

@fracpack
export class VMOptions {
  maxMutableGlobalBytes: u32 = 0;
  maxPages: u32 = 0;
  maxTableElements: u32 = 0;
  maxStackBytes: u32 = 0;
}

@fracpack
export class WasmConfig {
  numExecutionMemories: u32 = 0;
  vmOptions: VMOptions = new VMOptions();
}

@fracpack
export class Consensus {
  data: ConsensusData = new ConsensusData();
  services: Array<BlockHeaderAuthAccount> = [];
  wasmConfig: WasmConfig = new WasmConfig();
}

@fracpack
export class PendingConsensus {
  consensus: Consensus = new Consensus();
  blockNum: u32 = 0;
}

@fracpack
export class JointConsensus {
  current: Consensus = new Consensus();
  next: PendingConsensus | null = null;
}

@fracpack
export class BlockHeaderCode {
  vmType: u8 = 0;
  vmVersion: u8 = 0;
  code: Uint8Array = new Uint8Array(0);
}

@fracpack
export class BlockHeader {
  previous: Checksum256 = new Checksum256();
  blockNum: u32 = 0;
  time: TimePointUSec = 0;
  producer: AccountNumber = 0;
  term: u32 = 0;
  commitNum: u32 = 0;
  consensusState: Checksum256 = new Checksum256();
  trxMerkleRoot: Checksum256 = new Checksum256();
  eventMerkleRoot: Checksum256 = new Checksum256();
  newConsensus: Consensus | null = null;
  authCode: Array<BlockHeaderCode> | null = null;
}

@fracpack
export class BlockInfo {
  header: BlockHeader = new BlockHeader();
  blockId: Checksum256 = new Checksum256();
}

@fracpack
export class StatusRow {
  chainId: Checksum256 = new Checksum256();
  /** The block being built. */
  current: BlockHeader = new BlockHeader();
  /** The last completed block (none until block 2 ends). */
  head: BlockInfo | null = null;
  consensus: JointConsensus = new JointConsensus();
}

/** The status row; aborts when the node has not written it yet. */
export function getStatus(): StatusRow {
  const value = get(DbId.native, statusKey());
  check(value !== null, "missing status row");
  return unpack<StatusRow>(value!);
}

/** Replaces the status row (privileged services only; the host validates it). */
export function putStatus(status: StatusRow): void {
  put(DbId.native, statusKey(), pack<StatusRow>(status));
}
