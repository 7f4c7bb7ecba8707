// producers: the chain's block producers (docs/chain.md §1). The producer set is the consensus in
// the native status row, which the node reads at the end of each block; this service is its
// only writer among the services (privileged) and keeps no copy of it.
//
// Rules:
// - setProducers: the sender must be producers itself (psibase); during boot that is the boot
//   transaction, afterwards whoever producers' auth service lets act as it. The set is not
//   empty, and every producer's block-signing claim is empty (unsigned blocks) or names a
//   service flagged verify. The new set replaces the current one at once and keeps the kind
//   of consensus (CFT or BFT): the node runs one producer and no joint consensus yet, so
//   status.consensus.next is left as it is.

import { accountName, check, getReceiver, getSender } from "../sdk/index";
import { getCodeRow, getStatus, isVerify, putStatus, Producer } from "../sdk/native/index";

const CFT = 0;

/** Aborts unless the claim is empty or its service is a verify service. */
function checkBlockSigningService(producer: Producer): void {
  const service = producer.auth.service;
  if (service == 0 && producer.auth.rawData.length == 0) return;
  const code = getCodeRow(service);
  check(code !== null && (code.flags & isVerify) != 0, "service " + accountName(service) + " cannot be used for block production: it is not a verify service");
}

@service("producers")
export class Producers {
  @action
  setProducers(producers: Array<Producer>): void {
    check(getSender() == getReceiver(), "sender must match service account");
    check(producers.length > 0, "there must be at least one producer");
    for (let i = 0; i < producers.length; i++) checkBlockSigningService(producers[i]);
    const status = getStatus();
    const data = status.consensus.current.data;
    if (data.tag == CFT) data.CftConsensus.producers = producers;
    else data.BftConsensus.producers = producers;
    putStatus(status);
  }

  @action
  getProducers(): Array<Producer> {
    const data = getStatus().consensus.current.data;
    return data.tag == CFT ? data.CftConsensus.producers : data.BftConsensus.producers;
  }
}
