import type { BlockSigners } from '../chain/block-signing.js';
import type { Chain } from '../chain/chain.js';
import { producerGroups } from '../chain/consensus.js';
import type { BlockHeader, Claim } from '../../host-api/types/index.js';
import type { JointConsensus } from '../../host-api/types/native.js';
import { Cft } from './consensus/cft.js';
import type { CftEvent, CftMessage, CftTakeOver } from './consensus/cft-io.js';
import { signedMessage, signingPreimage, type MessageOf } from './messages/index.js';
import type { ConsensusVote } from './consensus-vote-file.js';
import { ConsensusTimer } from './consensus-timer.js';
import { claimOf, sameClaim, signForClaim } from './producer-claims.js';
import { writeLog, type NetworkLog } from './peer-io.js';
import type { ProducerName } from './routing/routing-io.js';

// CFT in the node (docs/p2p.md §4): the state machine of consensus/cft.ts with its timer, its
// messages signed with this producer's claim and routed to the producers (§A), its verdicts
// carried out on the chain (lead, stop, commit) and on block sync (commit).

type CftKind = CftMessage['kind'];

/** What consensus uses of the rest of the node. */
export interface ConsensusPorts {
  readonly chain: Chain;
  readonly log: NetworkLog;
  readonly blockSigners: BlockSigners;
  /** The block interval: the election timeout scales with it (3 slots, §4). */
  readonly blockIntervalMs: number;
  /** Sends to one producer, or multicasts to every producer (routing, §A). */
  readonly send: (to: ProducerName | 'producers', message: MessageOf<CftKind>) => void;
  /** Whether a route reaches this producer now. */
  readonly reaches: (producer: ProducerName) => boolean;
  /** Irreversibility moved: block sync commits too. */
  readonly committed: (num: number) => void;
  /** The term and vote kept from before a restart, and where to keep them (consensus-vote-file.ts). */
  readonly votes: { readonly restored: ConsensusVote | undefined; readonly keep: (vote: ConsensusVote) => void };
}

export class NodeConsensus {
  private readonly cft: Cft;
  private readonly timer = new ConsensusTimer();
  private self: ProducerName | null = null;
  private groups: ProducerName[][] = [];
  private nextIsBft = false;
  private stopped = false;
  /** The producers run BFT now (docs/p2p.md §5): this machine waits, neither leading nor timing. */
  private suspended = false;
  private kept: ConsensusVote;

  constructor(private readonly ports: ConsensusPorts) {
    // The term goes on from the kept one or the head's, whichever is newer, so a restarted
    // leader's blocks never rank below their parent.
    const kept = ports.votes.restored;
    const headTerm = ports.chain.head?.header.term ?? 0;
    const restored = kept && kept.term >= headTerm ? kept : { term: headTerm, votedFor: null };
    this.cft = new Cft({ random: Math.random, now: Date.now, baseTimeoutMs: 3 * ports.blockIntervalMs, promptElectionMs: ports.blockIntervalMs, restored });
    this.kept = restored;
  }

  /**
   * The producer sets or this node's name changed (a block, or the configuration); `fromBft`:
   * the producers switched from BFT, which left off there (docs/p2p.md §6.1).
   */
  producersChanged(consensus: JointConsensus, self: ProducerName | null, fromBft?: CftTakeOver): void {
    const groups = producerGroups(consensus);
    const nextIsBft = !!consensus.next && 'BftConsensus' in consensus.next.consensus.data;
    if (!this.suspended && self === this.self && nextIsBft === this.nextIsBft && sameGroups(groups, this.groups)) return;
    this.suspended = false;
    this.self = self;
    this.groups = groups;
    this.nextIsBft = nextIsBft;
    this.ports.chain.followConsensus();
    this.step({ type: 'producers', groups, self, nextIsBft, ...(fromBft ? { fromBft } : {}) });
  }

  /** The head changed: a block applied or produced (§4 steps 4, 8, 9). */
  head(header: BlockHeader): void {
    this.step({ type: 'head', head: { num: header.blockNum, term: header.term, producer: header.producer }, commitIndex: this.ports.chain.head?.irreversible ?? 0 });
  }

  /** A CFT message that passed routing's signature check; its signer must be its producer's claim. */
  receive(message: MessageOf<CftKind>): void {
    const body = message.body;
    const from = senderOf(message);
    const claim = this.claimOf(from);
    if (!claim || !sameClaim(claim, body.signer)) {
      this.ports.log.debug(`${message.kind} from ${from} dropped: not signed for that producer's claim`);
      return;
    }
    const { signer: _signer, ...fields } = body as typeof body & { signer: Claim };
    this.step({ type: 'receive', message: { kind: message.kind, body: fields } as CftMessage });
  }

  /** The producers that routes reach changed: a follower that lost its leader stands promptly (docs/p2p.md "What we build" 5). */
  routesChanged(reachable: readonly ProducerName[]): void {
    this.step({ type: 'routes', reachable });
  }

  /** The election timeout's base T in milliseconds (it grows x1.5 at an expiry while a quorum is reachable). */
  get timeoutMs(): number {
    return this.cft.timeoutMs;
  }

  /** BFT took over: the timer stops and this node stops leading until CFT is back. */
  suspend(): void {
    if (this.suspended) return;
    this.suspended = true;
    this.timer.clear();
    this.ports.chain.stopLeading();
  }

  stop(): void {
    this.stopped = true;
    this.timer.clear();
  }

  private step(event: CftEvent): void {
    if (this.stopped || this.suspended) return;
    const ready = this.cft.step(event);
    // The vote is on disk before any message that depends on it leaves.
    if (this.cft.currentTerm !== this.kept.term || this.cft.vote !== this.kept.votedFor) {
      this.kept = { term: this.cft.currentTerm, votedFor: this.cft.vote };
      this.ports.votes.keep(this.kept);
    }
    const chain = this.ports.chain;
    if (ready.stopLeading) chain.stopLeading();
    if (ready.lead !== undefined) chain.lead(ready.lead);
    if (ready.stopTimer) this.timer.clear();
    if (ready.timerMs !== undefined) this.setTimer(ready.timerMs);
    for (const { to, message } of ready.sends) this.sendSigned(to, message);
    if (ready.commit !== undefined) {
      chain.commitTo(ready.commit);
      this.ports.committed(ready.commit);
    }
    writeLog(this.ports.log, ready.log);
  }

  private setTimer(ms: number): void {
    this.timer.set(ms, () => {
      const producers = [...new Set(this.groups.flat())];
      const reachable = producers.filter((p) => p === this.self || this.ports.reaches(p)).length;
      this.step({ type: 'timeout', quorumReachable: reachable > producers.length / 2 });
    });
  }

  /** Signs with this producer's claim (§2.0); a claim whose key this node lacks sends nothing. */
  private sendSigned(to: ProducerName | 'producers', message: CftMessage): void {
    const claim = this.self === null ? undefined : this.claimOf(this.self);
    if (!claim) return;
    const body = { ...message.body, signer: claim } as MessageOf<CftKind>['body'];
    const signature = signForClaim(this.ports.blockSigners, claim, signingPreimage(message.kind, body as never));
    if (!signature) {
      this.ports.log.warning(`${message.kind} not sent: this node holds no key for its producer claim`);
      return;
    }
    this.ports.send(to, signedMessage(message.kind, body as never, signature) as MessageOf<CftKind>);
  }

  private claimOf(producer: ProducerName): Claim | undefined {
    return claimOf(this.ports.chain, producer);
  }
}

/** The producer a CFT message comes from. */
function senderOf(message: MessageOf<CftKind>): ProducerName {
  switch (message.kind) {
    case 'ConfirmMessage': return (message as MessageOf<'ConfirmMessage'>).body.followerId;
    case 'RequestVoteRequest': return (message as MessageOf<'RequestVoteRequest'>).body.candidateId;
    case 'RequestVoteResponse': return (message as MessageOf<'RequestVoteResponse'>).body.voterId;
  }
}

/** Producer sets compare by their names, in order. */
function sameGroups(a: readonly (readonly ProducerName[])[], b: readonly (readonly ProducerName[])[]): boolean {
  return a.length === b.length && a.every((g, i) => g.length === b[i]!.length && g.every((p, j) => p === b[i]![j]));
}
