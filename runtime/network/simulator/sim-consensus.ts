import { ConsensusDriver } from '../consensus/driver.js';
import type { BftBlock, BftKept } from '../consensus/bft-io.js';
import type { DriverOptions, DriverProducers, DriverVote, ProducerSet } from '../consensus/driver-io.js';
import type { ModelBlock } from './model-block.js';
import { activeSets, consensusOf, startingConsensus, type ModelConsensus } from './model-consensus.js';
import { electionTimeoutMs, viewTimeoutMs, type Schedule } from './schedule.js';
import { producerAccount, type DriverFactory } from './sim-context.js';

// The consensus driver on a simulated node (docs/p2p.md "What we build" 7): the node's own driver
// (consensus/driver.ts), given the model chain's blocks and producer sets as the node gives it
// the chain's. A signature is a token naming the signer and what it signed, so no node can sign
// for another.

export const makeDriver: DriverFactory = (options) => new ConsensusDriver<string, number>(options);

export function signatureOf(kind: string, subject: string, producer: bigint): string {
  return `${kind}/${subject}/${producer}`;
}

/** The active sets of a model consensus, as the driver reads them (producers as accounts). */
function setsOf(consensus: ModelConsensus): ProducerSet[] {
  return activeSets(consensus).map((set) => ({ algorithm: set.algorithm ?? 'cft', producers: set.producers.map(producerAccount) }));
}

/**
 * A model block as BFT reads it: with the sets it was made under and the change it made, as
 * psibase's BlockHeaderState holds them (docs/p2p.md §6.1), or the run's first sets in a run
 * whose sets never change.
 */
export function bftBlockOf(block: ModelBlock, schedule: Schedule): BftBlock {
  // The state before genesis has no producer.
  const producer = !block.producer ? 0n : producerAccount(Number(block.producer.slice(1)));
  const groups = setsOf(consensusOf(block, schedule)).map((set) => ({ algorithm: set.algorithm, producers: set.producers }));
  return { id: block.id, num: block.num, previous: block.previous, term: block.term, producer, commitNum: block.commitNum, groups };
}

/** The producers the block after `head` starts under, and whether node `index` is one of them. */
export function producersAfter(head: ModelBlock, index: number, schedule: Schedule): DriverProducers {
  const sets = setsOf(startingConsensus(consensusOf(head, schedule), head.commitNum));
  const self = producerAccount(index);
  return { sets, self: sets.some((set) => set.producers.includes(self)) ? self : null, headTerm: head.term };
}

/** The driver's options on a simulated node: its clock and randomness, token signatures, the durable chain's blocks. */
export function driverOptions(
  schedule: Schedule,
  clock: { readonly random: () => number; readonly now: () => number },
  chainBlocks: () => ModelBlock[],
  restored: { readonly vote: DriverVote; readonly bft: BftKept<string> | undefined; readonly headTerm: number },
): DriverOptions<string> {
  const { blockIntervalMs } = schedule;
  return {
    cft: { random: clock.random, now: clock.now, baseTimeoutMs: electionTimeoutMs(blockIntervalMs), promptElectionMs: blockIntervalMs },
    bft: {
      baseTimeoutMs: viewTimeoutMs(blockIntervalMs),
      sign: (message) => signatureOf(message.kind, message.kind === 'ViewChangeMessage' ? `${message.body.term}/${message.body.bestPrepared}` : message.body.blockId, message.body.producer),
      verify: (kind, id, producer, signature) => signature === signatureOf(kind, id, producer),
    },
    sameSignature: (a, b) => a === b,
    chainBlocks: () => chainBlocks().map((block) => bftBlockOf(block, schedule)),
    restored: { vote: restored.vote, ...(restored.bft ? { bft: restored.bft } : {}), headTerm: restored.headTerm },
  };
}
