import type { Random } from './random.js';
import type { BftMessage } from '../consensus/bft-io.js';
import type { CftMessage } from '../consensus/cft-io.js';
import type { EventQueue } from './event-queue.js';
import type { InvariantChecker } from './invariants.js';
import type { ModelSet } from './model-consensus.js';
import type { Schedule } from './schedule.js';
import type { ConsensusDriver } from '../consensus/driver.js';
import type { DriverOptions } from '../consensus/driver-io.js';
import type { SimNetwork } from './sim-network.js';

// What every simulated node shares: the clock, the seeded randomness, the schedule, the checks,
// the network, and the other nodes (for routed consensus messages).

/** The part of another node that consensus messages are handed to. */
export interface ConsensusEndpoint {
  receiveConsensus(message: CftMessage): void;
  receiveBft(message: BftMessage<string>, from: number): void;
}

/** Makes a node's driver: the driver itself, or (in a test) one with a deliberate bug the checks must find. */
export type DriverFactory = (options: DriverOptions<string>) => ConsensusDriver<string, number>;

export interface NodeContext {
  readonly queue: EventQueue;
  readonly random: Random;
  readonly schedule: Schedule;
  readonly checker: InvariantChecker;
  readonly network: () => SimNetwork;
  readonly node: (index: number) => ConsensusEndpoint;
  /** The producer set last asked for (schedule.producerChanges), if any yet. */
  readonly wantedProducers: () => ModelSet | undefined;
  /** Makes each node's consensus driver. */
  readonly makeDriver: DriverFactory;
}

/** A simulated producer's account number: its index plus one (0 is no account). */
export function producerAccount(index: number): bigint {
  return BigInt(index + 1);
}
