import type { ProducerName } from '../routing/routing-io.js';
import type { BlockIdHex } from '../sync/block-header.js';
import { Bft, sameGroup } from './bft.js';
import type { BftBlock, BftBlockConfirm, BftEvent, BftGroup, BftKept, BftMessage, BftOptions } from './bft-io.js';
import { Cft } from './cft.js';
import type { CftEvent, CftMessage, CftOptions, CftTakeOver } from './cft-io.js';
import type { DriverEvent, DriverOptions, DriverProducers, DriverReady, DriverVote, ProducerSet } from './driver-io.js';

// The consensus driver (docs/p2p.md "What we build" 5, 7; etcd raft's RawNode): one pure state
// machine over CFT (cft.ts) and BFT (bft.ts) that holds what lies between them, so that the node
// and the simulator run the same: which producer sets and algorithm are in force, the hand-over
// from CFT to BFT (CFT waits, BFT starts in the term after the head's) and back (CFT goes on in
// BFT's term, BFT's leader leading it), and what their verdicts mean for the chain (lead, stop
// leading, follow, commit) and for block sync (commit, root). Each step gives one Ready.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Building<S, P> = Omit<Mutable<DriverReady<S, P>>, 'persist'> & { persist: Mutable<DriverReady<S, P>['persist']> };

const byName = (a: ProducerName, b: ProducerName) => (a < b ? -1 : a > b ? 1 : 0);

/** The sets as BFT reads them: names sorted as u64 (§5.1). */
export function bftGroupsOf(sets: readonly ProducerSet[]): BftGroup[] {
  return sets.map((set) => ({ algorithm: set.algorithm, producers: [...set.producers].sort(byName) }));
}

export class ConsensusDriver<S, P> {
  private readonly cft: Cft;
  private bft: Bft<S>;
  /** The current set runs BFT: CFT waits, neither leading nor timing. */
  private cftSuspended = false;
  /** BFT's safety broke (§3.6): it takes no more events. */
  private bftFailed = false;
  private cftGroups: ProducerName[][] = [];
  private cftSelf: ProducerName | null = null;
  private cftNextIsBft = false;
  private bftGroups: BftGroup[] = [];
  private cftProducers: ProducerName[] = [];
  private bftProducers: ProducerName[] = [];
  private bftSelf: ProducerName | null = null;
  /** Whether this node has run under a CFT set: a switch to BFT then starts a term of its own. */
  private afterCft = false;
  private keptVote: DriverVote;
  private keptBft: BftKept<S> | undefined;
  /** The link the BFT message being handled came from (a RequestViewMessage's answers go back on it). */
  private sender: P | undefined;
  private out!: Building<S, P>;

  constructor(private readonly options: DriverOptions<S>) {
    // The term goes on from the kept one or the head's, whichever is newer, so a restarted
    // leader's blocks never rank below their parent.
    const { vote, bft, headTerm } = options.restored;
    this.keptVote = vote && vote.term >= headTerm ? vote : { term: headTerm, votedFor: null };
    this.cft = this.makeCft({ ...options.cft, restored: this.keptVote });
    this.keptBft = bft;
    this.bft = this.makeBft({ ...options.bft, ...(bft ? { restored: bft } : {}) });
  }

  /** Whether BFT runs now (the current set is BFT). */
  get bftActive(): boolean {
    return this.bftGroups[0]?.algorithm === 'bft';
  }

  /** The timeout of the consensus that runs: BFT's view-change timeout under BFT, else CFT's election timeout T. */
  get timeoutMs(): number {
    return this.bftActive ? this.bft.viewTimeoutMs : this.cft.timeoutMs;
  }

  /** The producers of the sets CFT or BFT was last told, each once: that machine's multicasts go to them. */
  producersOf(algorithm: 'cft' | 'bft'): readonly ProducerName[] {
    return algorithm === 'bft' ? this.bftProducers : this.cftProducers;
  }

  /** Why a received block is refused, if it is (a wrong leader, a bad commit proof; BFT's checkBlock). */
  checkBlock(block: BftBlock, aux?: BftBlockConfirm<S>): string | undefined {
    return this.bft.checkBlock(block, aux);
  }

  /** The commit proof of block `id` for the auxConsensusData of a block naming it, while BFT runs (§5.4). */
  proofOf(id: BlockIdHex): BftBlockConfirm<S> | undefined {
    return this.bftActive ? this.bft.proofOf(id) : undefined;
  }

  step(event: DriverEvent<S, P>): DriverReady<S, P> {
    this.out = { persist: {}, sends: [], timers: [], chain: [], log: [] };
    switch (event.type) {
      case 'start':
        this.learnChain();
        this.setProducers(event.producers);
        if (event.head) this.head(event.head, event.commitIndex);
        break;
      case 'producers':
        this.setProducers(event.producers);
        break;
      case 'head':
        this.setProducers(event.producers);
        this.head(event.head, event.commitIndex);
        break;
      case 'block':
        this.stepBft({ type: 'block', block: event.block, ...(event.aux ? { aux: event.aux } : {}) });
        break;
      case 'receive':
        this.receive(event.message, event.from);
        break;
      case 'timeout':
        if (event.timer === 'election') this.stepCft({ type: 'timeout', quorumReachable: this.quorumReachable(event.reachable ?? []) });
        else this.stepBft({ type: event.timer === 'viewChange' ? 'timeout' : 'retryViewChange' });
        break;
      case 'routes':
        this.stepCft({ type: 'routes', reachable: event.reachable });
        break;
      case 'linkUp':
        for (const message of this.bft.viewChanges()) this.out.sends.push({ algorithm: 'bft', to: { peer: event.peer }, message });
        break;
      case 'blockSent':
        for (const message of this.bft.confirmsOf(event.id)) this.out.sends.push({ algorithm: 'bft', to: { peer: event.peer }, message });
        break;
      case 'keysChanged':
        this.stepBft({ type: 'keysChanged' });
        break;
    }
    return this.out;
  }

  /** The machines, made here so that a test can make them otherwise (a deliberate bug the simulator must find). */
  protected makeCft(options: CftOptions): Cft {
    return new Cft(options);
  }

  protected makeBft(options: BftOptions<S>): Bft<S> {
    return new Bft<S>(options);
  }

  /**
   * The producers the next block starts under: the current set's algorithm runs and the other
   * stops first (docs/p2p.md §5, §6.1); CFT taking over from BFT goes on from where BFT is.
   */
  private setProducers(producers: DriverProducers): void {
    const groups = bftGroupsOf(producers.sets);
    if (groups[0]?.algorithm === 'bft') {
      this.handOverToBft();
      this.setBftProducers(groups, producers);
    } else {
      const fromBft = this.bftActive ? { term: this.bft.currentTerm, leading: this.bft.role === 'leader' } : undefined;
      this.setBftProducers(groups, producers);
      this.setCftProducers(producers, fromBft);
    }
  }

  /** BFT took over: CFT's timer stops and this node stops leading until CFT is back. */
  protected handOverToBft(): void {
    if (this.cftSuspended) return;
    this.cftSuspended = true;
    this.out.timers.push({ timer: 'election', clear: true });
    this.out.chain.push({ type: 'stopLeading' });
  }

  private setBftProducers(groups: BftGroup[], { self, headTerm }: DriverProducers): void {
    if (self === this.bftSelf && groups.length === this.bftGroups.length && groups.every((g, i) => sameGroup(g, this.bftGroups[i]))) return;
    const switching = !this.bftActive && groups[0]?.algorithm === 'bft';
    if (groups[0]?.algorithm === 'cft') this.afterCft = true;
    if (switching && this.afterCft && this.bft.currentTerm <= headTerm) {
      // BFT takes over from CFT in a term after the last CFT leader's (§6.1): its leader's blocks
      // then rank above any that leader made, and no block of one term comes from both.
      this.bft = this.makeBft({ ...this.options.bft, restored: { ...this.bft.kept, term: headTerm + 1 } });
      this.learnChain();
    }
    this.bftSelf = self;
    this.bftGroups = groups;
    this.bftProducers = [...new Set(groups.flatMap((g) => g.producers))];
    if (this.bftActive) this.out.chain.push({ type: 'follow' });
    this.stepBft({ type: 'producers', groups, self });
  }

  private setCftProducers({ sets, self }: DriverProducers, fromBft: CftTakeOver | undefined): void {
    const groups = sets.map((set) => [...set.producers]);
    const nextIsBft = sets[1]?.algorithm === 'bft';
    if (!this.cftSuspended && self === this.cftSelf && nextIsBft === this.cftNextIsBft && sameNames(groups, this.cftGroups)) return;
    this.cftSuspended = false;
    this.cftGroups = groups;
    this.cftProducers = [...new Set(groups.flat())];
    this.cftSelf = self;
    this.cftNextIsBft = nextIsBft;
    this.out.chain.push({ type: 'follow' });
    this.stepCft({ type: 'producers', groups, self, nextIsBft, ...(fromBft ? { fromBft } : {}) });
  }

  /** BFT learns the chain's blocks from the irreversible one to the head. */
  private learnChain(): void {
    for (const block of this.options.chainBlocks()) this.stepBft({ type: 'block', block });
  }

  private head(head: BftBlock, commitIndex: number): void {
    this.stepCft({ type: 'head', head: { num: head.num, term: head.term, producer: head.producer }, commitIndex });
    this.stepBft({ type: 'head', head, commitIndex });
  }

  private receive(message: CftMessage | BftMessage<S>, from: P | undefined): void {
    if (message.kind === 'ConfirmMessage' || message.kind === 'RequestVoteRequest' || message.kind === 'RequestVoteResponse') {
      return this.stepCft({ type: 'receive', message });
    }
    this.sender = from;
    try {
      this.stepBft({ type: 'receive', message });
    } finally {
      this.sender = undefined;
    }
  }

  /** Most of the active producers reachable (this one counts): an expiry then grows CFT's timeout. */
  private quorumReachable(reachable: readonly ProducerName[]): boolean {
    const reached = this.cftProducers.filter((p) => p === this.cftSelf || reachable.includes(p)).length;
    return reached > this.cftProducers.length / 2;
  }

  private stepCft(event: CftEvent): void {
    if (this.cftSuspended) return;
    const ready = this.cft.step(event);
    // The vote is on disk before any message that depends on it leaves.
    if (this.cft.currentTerm !== this.keptVote.term || this.cft.vote !== this.keptVote.votedFor) {
      this.keptVote = { term: this.cft.currentTerm, votedFor: this.cft.vote };
      this.out.persist.vote = this.keptVote;
    }
    if (ready.stopLeading) this.out.chain.push({ type: 'stopLeading' });
    if (ready.lead !== undefined) this.out.chain.push({ type: 'lead', term: ready.lead, algorithm: 'cft' });
    if (ready.stopTimer) this.out.timers.push({ timer: 'election', clear: true });
    if (ready.timerMs !== undefined) this.out.timers.push({ timer: 'election', ms: ready.timerMs });
    for (const { to, message } of ready.sends) this.out.sends.push({ algorithm: 'cft', to, message });
    if (ready.commit !== undefined) this.committed(ready.commit);
    this.out.log.push(...ready.log);
  }

  private stepBft(event: BftEvent<S>): void {
    if (this.bftFailed) return;
    const ready = this.bft.step(event);
    // What the messages below depend on is on disk before they leave. While the current set
    // runs CFT, its commits move BFT's committed block at every block, and a CFT header's
    // commitNum proves irreversibility after a restart (docs/p2p.md §5.4): the committed block is
    // kept with the rest of BFT's state, but a commit alone is not written then.
    if (!this.bft.keeps(this.keptBft, this.options.sameSignature, this.bftActive)) {
      this.keptBft = this.bft.kept;
      this.out.persist.bft = this.keptBft;
    }
    this.out.log.push(...ready.log);
    if (ready.consensusFailure !== undefined) {
      this.bftFailed = true;
      this.out.timers.push({ timer: 'viewChange', clear: true }, { timer: 'viewChangeRetry', clear: true });
      this.out.chain.push({ type: 'stopLeading' });
      this.out.failure = ready.consensusFailure;
      return;
    }
    if (ready.stopLeading) this.out.chain.push({ type: 'stopLeading' });
    if (ready.lead !== undefined) this.out.chain.push({ type: 'lead', term: ready.lead, algorithm: 'bft' });
    if (ready.stopTimer) this.out.timers.push({ timer: 'viewChange', clear: true });
    if (ready.timerMs !== undefined) this.out.timers.push({ timer: 'viewChange', ms: ready.timerMs });
    if (ready.retryViewChangeMs !== undefined) this.out.timers.push({ timer: 'viewChangeRetry', ms: ready.retryViewChangeMs });
    for (const { to, message } of ready.sends) {
      if (to !== 'sender') this.out.sends.push({ algorithm: 'bft', to, message });
      else if (this.sender !== undefined) this.out.sends.push({ algorithm: 'bft', to: { peer: this.sender }, message });
    }
    if (ready.root !== undefined) this.out.root = ready.root;
    if (ready.commit !== undefined) this.committed(ready.commit);
  }

  /** Irreversibility moved: the chain and block sync commit, and it never goes back. */
  private committed(num: number): void {
    this.out.commit = Math.max(this.out.commit ?? 0, num);
  }
}

/** Producer sets compare by their names, in order. */
function sameNames(a: readonly (readonly ProducerName[])[], b: readonly (readonly ProducerName[])[]): boolean {
  return a.length === b.length && a.every((g, i) => g.length === b[i]!.length && g.every((p, j) => p === b[i]![j]));
}
