// producers: the chain's block producers (docs/p2p.md §6.1). The producer set is the consensus in
// the native status row; this service is its only writer among the services (privileged) and
// keeps no copy of it.
//
// Rules (psibase's):
// - setProducers and setConsensus: the sender must be producers itself (during boot the boot
//   transaction, afterwards whoever producers' auth service lets act as it). The set holds 1 to
//   maxProds producers (13 unless setMaxProds said otherwise), and every block-signing claim is
//   empty (unsigned blocks) or names a service flagged verify.
// - A change is not applied at once: it becomes status.consensus.next, with the current block's
//   number, keeping the current verify services and wasm config. The node starts joint
//   consensus there (the block's header carries newConsensus) and ends it once that block is
//   irreversible. A second change while one from an earlier block is pending fails with
//   "Consensus update pending"; a second change in the same block replaces the first.
// - setProducers keeps the algorithm (CFT or BFT); setConsensus names it.

import { AccountNumber, Table, accountName, check, getReceiver, getSender } from "../sdk/index";
import {
  Consensus, ConsensusData, PendingConsensus, Producer, getCodeRow, getStatus, isVerify, putStatus,
} from "../sdk/native/index";

const CFT = 0;
const DEFAULT_MAX_PRODS: u8 = 13;

@fracpack
export class ProdsConfig {
  constructor(public maxProds: u8 = DEFAULT_MAX_PRODS) {}
}

const configTable = new Table<ProdsConfig, u8>(1, (c: ProdsConfig): u8 => 0);

function producersOf(data: ConsensusData): Array<Producer> {
  return data.tag == CFT ? data.CftConsensus.producers : data.BftConsensus.producers;
}

function maxProds(): u8 {
  const config = configTable.get(0);
  return config !== null ? config.maxProds : DEFAULT_MAX_PRODS;
}

/** Aborts unless every non-empty claim names an existing verify service. */
function checkVerifyServices(producers: Array<Producer>): void {
  for (let i = 0; i < producers.length; i++) {
    const auth = producers[i].auth;
    if (auth.service == 0 && auth.rawData.length == 0) continue;
    const code = getCodeRow(auth.service);
    check(code !== null, "Unknown service account: " + accountName(auth.service));
    check((code!.flags & isVerify) != 0, "Service account " + accountName(auth.service) + " cannot be used for block production");
  }
}

function requireSelf(): void {
  check(getSender() == getReceiver(), "sender must match service account");
}

/** Makes `data` the pending consensus from the current block on. */
function setNext(data: ConsensusData): void {
  const producers = producersOf(data);
  check(producers.length > 0, "There must be at least one producer");
  const max = maxProds();
  check(producers.length <= <i32>max, "Maximum producers (" + max.toString() + ") exceeded");
  checkVerifyServices(producers);
  const status = getStatus();
  const pending = status.consensus.next;
  check(pending === null || pending.blockNum == status.current.blockNum, "Consensus update pending");
  const consensus = new Consensus();
  consensus.data = data;
  consensus.services = status.consensus.current.services;
  consensus.wasmConfig = status.consensus.current.wasmConfig;
  const next = new PendingConsensus();
  next.consensus = consensus;
  next.blockNum = status.current.blockNum;
  status.consensus.next = next;
  putStatus(status);
}

@service("producers")
export class Producers {
  /** New producers under the current algorithm. */
  @action
  setProducers(prods: Array<Producer>): void {
    requireSelf();
    const data = getStatus().consensus.current.data;
    if (data.tag == CFT) data.CftConsensus.producers = prods;
    else data.BftConsensus.producers = prods;
    setNext(data);
  }

  /** A new algorithm and producers: `{CftConsensus: {producers}}` or `{BftConsensus: {producers}}`. */
  @action
  setConsensus(consensus: ConsensusData): void {
    requireSelf();
    setNext(consensus);
  }

  @action
  setMaxProds(maxProds: u8): void {
    requireSelf();
    configTable.put(new ProdsConfig(maxProds));
  }

  @action
  getMaxProds(): u8 {
    return maxProds();
  }

  /** The names of the current producers. */
  @action
  getProducers(): Array<AccountNumber> {
    const producers = producersOf(getStatus().consensus.current.data);
    const names = new Array<AccountNumber>(producers.length);
    for (let i = 0; i < producers.length; i++) names[i] = producers[i].name;
    return names;
  }
}
