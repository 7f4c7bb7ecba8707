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

import {
  AccountNumber, HttpReply, HttpRequest, Option, Table, accountName, check, checkHttpServerCaller, getReceiver, getSender, none, serveIndexPage, some,
} from "../sdk/index";
import {
  Consensus, ConsensusData, PendingConsensus, Producer, StatusRow, getCodeRow, getStatus, isVerify, putStatus,
} from "../sdk/native/index";
import { DbId, get } from "../sdk/tables/db";
import { unpack } from "../sdk/fracpack/codec";
import { statusKey } from "../sdk/native/keys";

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

/** The status row, or null before the node writes one. */
function optionalStatus(): StatusRow | null {
  const value = get(DbId.native, statusKey());
  return value !== null ? unpack<StatusRow>(value!) : null;
}

/** The query root of producers.<root>/graphql, in psibase's shape. */
@query
export class ProducersQuery {
  /** The current producers. */
  get producers(): Array<Producer> {
    const status = optionalStatus();
    return status !== null ? producersOf(status.consensus.current.data) : [];
  }

  /** The producers of a pending change (joint consensus); empty when none is pending. */
  get nextProducers(): Array<Producer> {
    const status = optionalStatus();
    return status !== null && status.consensus.next !== null ? producersOf(status.consensus.next!.consensus.data) : [];
  }

  /** The current algorithm and producers. */
  get consensus(): ConsensusData {
    const status = optionalStatus();
    return status !== null ? status.consensus.current.data : new ConsensusData();
  }

  /** The pending change's algorithm and producers, if one is pending. */
  get nextConsensus(): ConsensusData | null {
    const status = optionalStatus();
    return status !== null && status.consensus.next !== null ? status.consensus.next!.consensus.data : null;
  }

  /** The block the pending change was made in (joint consensus began there), if one is pending. */
  get jointStart(): Option<u32> {
    const status = optionalStatus();
    return status !== null && status.consensus.next !== null ? some<u32>(status.consensus.next!.blockNum) : none<u32>();
  }

  get maxProds(): u8 {
    return maxProds();
  }
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

  /** GET / names the endpoints; GET/POST /graphql (docs/serving.md §4.4). */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const page = serveIndexPage(request, "producers", "The block producers and a pending change of them, over GraphQL.", ["/graphql"]);
    if (page !== null) return page;
    return new ProducersQuery().serveGraphQL(request);
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
