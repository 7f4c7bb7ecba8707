// How long after the heal every node must have made a block irreversible past the highest one
// any node had then: the consensus liveness bound (runtime/network/consensus/liveness-bound.ts,
// the simulator's) from the largest timeout the faults left, plus the time real links take to
// come back, plus the time the machine's load may add.
import { livenessBoundMs } from '../../../runtime/network/consensus/liveness-bound.js';
import type { ChaosSchedule } from './schedule.js';

/** A peer dial's handshake timeout (runtime/network/links/peer-links.ts): a dial whose packets were lost gives up after it. */
const HANDSHAKE_MS = 10_000;
/** The most a lost link waits to be redialled: ten times PRODUCER_ENV's TSIBASE_P2P_REDIAL_MS (docs/p2p.md §1.5). */
const MAX_REDIAL_MS = 2_000;
/** The node processes share the machine's cores with each other and with the test. */
const MACHINE_ALLOWANCE_MS = 10_000;

/**
 * A connection that lost packets for d ms retransmits within about d ms of the heal (TCP doubles
 * its timeout at each loss); a dial that lost its packets waits out the handshake timeout and a
 * redial.
 */
export function linksBackMs(schedule: ChaosSchedule): number {
  const kernel = schedule.faults.filter((f) => 'via' in f && f.via === 'kernel').map((f) => f.duration);
  return Math.max(HANDSHAKE_MS, ...kernel) + MAX_REDIAL_MS;
}

/** The bound, from the producers' consensus timeouts at the heal (tsibase_consensus_timeout_ms). */
export function recoveryBoundMs(schedule: ChaosSchedule, timeoutsMs: readonly number[]): number {
  const consensus = livenessBoundMs({ algorithm: schedule.algorithm, sets: [schedule.producers], largestTimeoutMs: Math.max(...timeoutsMs), blockIntervalMs: schedule.blockMs });
  return consensus + linksBackMs(schedule) + MACHINE_ALLOWANCE_MS;
}
