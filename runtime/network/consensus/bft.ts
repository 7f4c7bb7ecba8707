import type { LogEntry } from '../peer-io.js';
import type { ProducerName } from '../routing/routing-io.js';
import { PRE_GENESIS, blockNumOf, compareOrder, type BlockIdHex, type BlockOrder } from '../sync/block-header.js';
import { bftThreshold, quorumOf } from '../../chain/quorum.js';
import type {
  BftBlock, BftBlockConfirm, BftConfirm, BftEvent, BftGroup, BftKept, BftMessage, BftOptions, BftReady, BftRole, BftViewChange,
} from './bft-io.js';

// psibase's Byzantine-fault-tolerant consensus (docs/p2p.md §5): a round-robin leader per term
// (view), blocks prepared and then committed by a quorum of floor(2n/3)+1 producers of each
// active set, view changes that carry the best prepared block, and fork choice restricted to the
// subtree the term's leader names. A deterministic state machine: events in, a Ready out.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ViewChangeMessage<S> = Extract<BftMessage<S>, { kind: 'ViewChangeMessage' }>;
type PrepareOrCommit<S> = Extract<BftMessage<S>, { kind: 'PrepareMessage' | 'CommitMessage' }>;

const ZERO_ID = PRE_GENESIS.id;
const TIMEOUT_GROWTH = 1.5;
/** psibase's sync-term retry (30 s) against its first view-change timeout (10 s), §5.1. */
const RETRY_TIMEOUTS = 3;
/** Prepares and commits for blocks not yet known are held for this many blocks at most. */
const MAX_WAITING_BLOCKS = 256;
const MAX_WAITING_PER_BLOCK = 64;

/** The quorum of a group under its own algorithm. */
function threshold(group: BftGroup): number {
  return quorumOf(group.algorithm, group.producers.length);
}

/** The leader of a term: the producers, sorted as u64, taken round robin (§5.1). */
export function bftLeader(group: BftGroup, term: number): ProducerName | undefined {
  const { producers } = group;
  return producers.length === 0 ? undefined : producers[term % producers.length];
}

interface View<S> {
  term: number;
  /** The best view change this producer signed (§5.2 "newer"). */
  best?: ViewChangeMessage<S>;
}

interface Confirmations<S> {
  readonly prepares: Map<ProducerName, S>;
  readonly commits: Map<ProducerName, S>;
  /** A later block's aux data proved it committed: commit it once it is on the head chain. */
  committedByBlock?: boolean;
  /**
   * In joint consensus, whether a producer's prepare or commit holds for its claim in a group
   * (key `kind:group:producer`): checked once, as it is a signature check.
   */
  readonly verdicts: Map<string, boolean>;
}

function orderOf(block: BlockOrder): BlockOrder {
  return { term: block.term, num: block.num, id: block.id };
}

function maxOrder(a: BlockOrder | undefined, b: BlockOrder): BlockOrder {
  return a === undefined || compareOrder(b, a) > 0 ? orderOf(b) : a;
}

/** A view change's (best_prepared_term, best_prepared), as an order (ids begin with the block number). */
function bestPreparedOf<S>(view: BftViewChange<S>): BlockOrder {
  return { term: view.bestPreparedTerm, num: blockNumOf(view.bestPrepared), id: view.bestPrepared };
}

function sortedConfirms<S>(from: Map<ProducerName, S>, group: BftGroup): BftConfirm<S>[] {
  return group.producers.filter((p) => from.has(p)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((producer) => ({ producer, signature: from.get(producer)! }));
}

export class Bft<S> {
  private roleNow: BftRole = 'nonvoting';
  private term: number;
  private groups: BftGroup[] = [];
  private self: ProducerName | null = null;
  /** producer_views: per active group, each producer's term and best view change. */
  private views: Map<ProducerName, View<S>>[] = [];
  private readonly headers = new Map<BlockIdHex, BftBlock>();
  private readonly confirmations = new Map<BlockIdHex, Confirmations<S>>();
  /** The commit proofs of committed blocks (psibase's BlockDataRow), for the leader's aux data. */
  private readonly proofs = new Map<BlockIdHex, BftBlockConfirm<S>>();
  /** Prepares and commits for blocks not known yet (psinode holds them back until the block is there, §5.3). */
  private readonly waiting = new Map<BlockIdHex, PrepareOrCommit<S>[]>();
  /** Validity of view changes already checked (their prepares' signatures). */
  private readonly validViews = new WeakMap<object, boolean>();
  private head: BftBlock | undefined;
  private commitIndex = 0;
  private committed: BlockOrder | undefined;
  /** A block committed by a quorum or by a later block's proof that is not on the head chain yet. */
  private pendingCommit: BftBlock | undefined;
  private bestPrepared: BlockOrder | undefined;
  private bestConfirm: BlockOrder | undefined;
  private timeoutMs: number;
  private readonly retryViewChangeMs: number;
  private timerTerm: number | undefined;
  private readyTerm: number | undefined;
  private leadingTerm: number | undefined;
  private rootNow: BlockIdHex | undefined;
  private out!: Mutable<BftReady<S>>;

  constructor(private readonly options: BftOptions<S>) {
    this.timeoutMs = options.baseTimeoutMs;
    this.retryViewChangeMs = options.retryViewChangeMs ?? RETRY_TIMEOUTS * options.baseTimeoutMs;
    this.term = options.restored?.term ?? 0;
    const { bestConfirm, bestPrepared } = options.restored ?? {};
    this.bestConfirm = bestConfirm && orderOf(bestConfirm);
    this.bestPrepared = bestPrepared && orderOf(bestPrepared);
    if (bestPrepared) {
      const { prepares } = this.confirmationsOf(bestPrepared.id);
      for (const { producer, signature } of bestPrepared.prepares) prepares.set(producer, signature);
    }
    const committed = options.restored?.committed;
    this.committed = committed && orderOf(committed);
    if (committed?.proof) this.proofs.set(committed.id, committed.proof);
  }

  get role(): BftRole {
    return this.roleNow;
  }

  get currentTerm(): number {
    return this.term;
  }

  /** The view-change timeout in milliseconds (it grows x1.5 at each expiry without a commit of the term). */
  get viewTimeoutMs(): number {
    return this.timeoutMs;
  }

  /** What to keep on disk before this step's messages leave. */
  get kept(): BftKept<S> {
    const best = this.bestPrepared;
    const prepares = best && this.confirmations.get(best.id)?.prepares;
    const committed = this.committed;
    const proof = committed && this.proofs.get(committed.id);
    return {
      term: this.term,
      bestConfirm: this.bestConfirm,
      bestPrepared: best && { ...best, prepares: [...prepares ?? []].map(([producer, signature]) => ({ producer, signature })) },
      committed: committed && { ...committed, ...(proof ? { proof } : {}) },
    };
  }

  /**
   * Whether `previous` (the state kept last) still holds what `kept` gives now, so that the caller
   * writes it again only when it changed; compared in place, without building `kept`. Without
   * `committed`, the committed block and its proof are not compared (the caller keeps them only
   * while BFT runs).
   */
  keeps(previous: BftKept<S> | undefined, sameSignature: (a: S, b: S) => boolean, committed = true): boolean {
    if (!previous || previous.term !== this.term) return false;
    if (!sameOrder(previous.bestConfirm, this.bestConfirm) || !sameOrder(previous.bestPrepared, this.bestPrepared)) return false;
    if (committed && !sameOrder(previous.committed, this.committed)) return false;
    const best = this.bestPrepared;
    const prepares = best && this.confirmations.get(best.id)?.prepares;
    const keptPrepares = previous.bestPrepared?.prepares ?? [];
    if ((prepares?.size ?? 0) !== keptPrepares.length) return false;
    let i = 0;
    for (const [producer, signature] of prepares ?? []) {
      const kept = keptPrepares[i++]!;
      if (kept.producer !== producer || !sameSignature(kept.signature, signature)) return false;
    }
    if (!committed) return true;
    const proof = this.committed && this.proofs.get(this.committed.id);
    const keptProof = previous.committed?.proof;
    if (keptProof === proof) return true;
    if (keptProof === undefined || proof === undefined || keptProof.blockNum !== proof.blockNum) return false;
    return sameConfirms(keptProof.commits, proof.commits, sameSignature) && (keptProof.nextCommits === undefined) === (proof.nextCommits === undefined)
      && sameConfirms(keptProof.nextCommits ?? [], proof.nextCommits ?? [], sameSignature);
  }

  /** The commit proof of a committed block, for the auxConsensusData of a block whose commitNum it is (§3.5). */
  proofOf(id: BlockIdHex): BftBlockConfirm<S> | undefined {
    return this.proofs.get(id);
  }

  /**
   * Every prepare and commit held for block `id`: psibase's post_send_block sends them to a peer
   * right after the block, so that a node that comes late still learns how far the block got (§5.3).
   */
  confirmsOf(id: BlockIdHex): BftMessage<S>[] {
    const confirmations = this.confirmations.get(id);
    if (!confirmations) return [];
    const messages = (kind: 'PrepareMessage' | 'CommitMessage', from: Map<ProducerName, S>) =>
      [...from].map(([producer, signature]) => ({ kind, body: { blockId: id, producer }, signature }));
    return [...messages('PrepareMessage', confirmations.prepares), ...messages('CommitMessage', confirmations.commits)];
  }

  /** Every view change held, to send to a new link or on request (psibase's send_all_view_changes, §5.2). */
  viewChanges(): BftMessage<S>[] {
    if (!this.active) return [];
    return this.views.flatMap((views) => [...views.values()].flatMap((view) => (view.best ? [view.best] : [])));
  }

  /**
   * Why a block header is refused, if it is (psibase's on_accept_block_header): a BFT block must
   * come from its term's leader, aux data must prove its commit with valid signatures (§5.4), and
   * a block that ends joint consensus must carry that proof (§6.1): irreversibility, and with it
   * the end of the old set, never rests on a header's commitNum alone.
   */
  checkBlock(block: BftBlock, aux?: BftBlockConfirm<S>): string | undefined {
    const [current, next] = block.groups;
    if (current?.algorithm === 'bft' && bftLeader(current, block.term) !== block.producer) return 'Wrong producer';
    if (!aux) {
      const endsJoint = next !== undefined && block.nextSince !== undefined && block.commitNum >= block.nextSince;
      return current?.algorithm === 'bft' && endsJoint ? `Missing irreversibility proof: block ${block.num} ends joint consensus` : undefined;
    }
    if (aux.blockNum < block.commitNum || aux.blockNum > block.num) return 'blockNum out of range';
    const target = aux.blockNum === block.num ? block : this.ancestorAt(block.previous, aux.blockNum);
    return target && this.verifyConfirms(target, 'CommitMessage', aux.commits, aux.nextCommits);
  }

  step(event: BftEvent<S>): BftReady<S> {
    this.out = { sends: [], log: [] };
    switch (event.type) {
      case 'producers':
        this.setProducers(event.groups, event.self);
        break;
      case 'block':
        this.onBlock(event.block, event.aux);
        break;
      case 'head':
        this.onHead(event.head, event.commitIndex);
        break;
      case 'timeout':
        this.onTimeout();
        break;
      case 'retryViewChange':
      case 'keysChanged':
        if (this.viewOutdated()) {
          this.log('info', `${event.type === 'keysChanged' ? 'Keys changed' : 'Retry'}: signing the view change of term ${this.term}`);
          this.syncCurrentTerm();
        }
        break;
      case 'receive':
        this.receive(event.message);
        break;
    }
    if (this.active) {
      this.maybeStartTimer();
      this.updateRoot();
      this.updateLeading();
    }
    return this.out;
  }

  private get active(): boolean {
    return this.groups[0]?.algorithm === 'bft';
  }

  private get voting(): boolean {
    return this.roleNow !== 'nonvoting';
  }

  /** §5.2, §6.1: a producer of either set follows; new sets start their views afresh and ask for everyone's. */
  private setProducers(groups: readonly BftGroup[], self: ProducerName | null): void {
    const old = this.groups;
    const wasActive = this.active;
    this.groups = groups.map((g) => ({ algorithm: g.algorithm, producers: [...g.producers] }));
    this.self = self;
    if (!this.active) {
      if (wasActive) this.becomeNonvoting('consensus is not BFT any more');
      this.views = [];
      return;
    }
    let needSync = false;
    if (!wasActive || !sameGroup(old[0], this.groups[0])) {
      this.views[0] = new Map();
      needSync = true;
    }
    if (this.groups[1] && (!old[1] || !sameGroup(old[1], this.groups[1]))) {
      this.views[1] = new Map();
      needSync = true;
    } else if (!this.groups[1]) {
      this.views.length = 1;
    }
    if (self !== null && this.groups.some((g) => g.producers.includes(self))) {
      if (this.roleNow === 'nonvoting') {
        this.roleNow = 'follower';
        this.readyTerm = undefined;
        needSync = true;
        this.log('info', `Active BFT producer in term ${this.term}`);
      }
    } else if (this.roleNow !== 'nonvoting') {
      this.becomeNonvoting('not a producer any more');
    }
    if (needSync) {
      this.syncCurrentTerm();
      this.out.sends.push({ to: 'all', message: { kind: 'RequestViewMessage' } });
    }
  }

  private becomeNonvoting(why: string): void {
    if (this.roleNow !== 'nonvoting') this.log('info', `Stopped voting: ${why}`);
    if (this.leadingTerm !== undefined) this.out.stopLeading = true;
    this.leadingTerm = undefined;
    this.roleNow = 'nonvoting';
    this.out.stopTimer = true;
    this.timerTerm = undefined;
  }

  /** A block header arrived (it passed checkBlock): its aux data may commit an ancestor (§5.4). */
  private onBlock(block: BftBlock, aux: BftBlockConfirm<S> | undefined): void {
    if (block.num < this.commitIndex) return;
    this.headers.set(block.id, block);
    if (aux) this.acceptProof(block, aux);
    const waiting = this.waiting.get(block.id);
    this.waiting.delete(block.id);
    for (const message of waiting ?? []) this.receive(message);
  }

  /** psibase's validate_aux_consensus_data after the signatures were checked. */
  private acceptProof(block: BftBlock, aux: BftBlockConfirm<S>): void {
    const target = aux.blockNum === block.num ? block : this.ancestorAt(block.previous, aux.blockNum);
    if (!target || target.num <= this.commitIndex) return;
    const confirmations = this.confirmationsOf(target.id);
    for (const { producer, signature } of [...aux.commits, ...(aux.nextCommits ?? [])]) {
      confirmations.commits.set(producer, signature);
      for (const group of [0, 1]) confirmations.verdicts.delete(`CommitMessage:${group}:${producer}`);
    }
    this.proofs.set(target.id, aux);
    this.setView(target.term);
    this.bestPrepared = maxOrder(this.bestPrepared, target);
    this.commitBlock(target, 'a later block');
  }

  /** §5.3 on_produce_block / on_accept_block: commit what is due, prepare the head if allowed. */
  private onHead(head: BftBlock, commitIndex: number): void {
    this.headers.set(head.id, head);
    this.head = head;
    if (commitIndex > this.commitIndex) this.advanceCommit(commitIndex);
    const [current, next] = head.groups;
    if (current?.algorithm !== 'bft') return;
    if (!next && current.producers.length === 1) {
      // A single BFT producer commits through its own headers (§5.3).
      this.commitOnHeadChain(head.commitNum);
      this.bestPrepared = maxOrder(this.bestPrepared, head);
    }
    const pending = this.pendingCommit;
    if (pending && this.onHeadChain(pending)) this.commitOnHeadChain(pending.num);
    if (this.confirmations.get(head.id)?.committedByBlock) this.commitOnHeadChain(head.num);
    if (this.canPrepare(head)) this.doPrepare(head);
  }

  /** §5.1: the timer expired; without a commit in this term it grows; a quorum in this term moves on. */
  private onTimeout(): void {
    if (!this.active || !this.voting || this.timerTerm !== this.term) return;
    this.timerTerm = undefined;
    if (!this.committed || this.committed.term < this.term) {
      this.timeoutMs *= TIMEOUT_GROWTH;
      this.log('info', `View-change timeout grew to ${this.timeoutMs} ms`);
    }
    this.log('debug', `Views at the timeout of term ${this.term}: ${this.describeViews()}`);
    if (this.currentSetInTerm() >= bftThreshold(this.groups[0]!.producers.length)) this.setView(this.skipAdvancedLeaders(this.term + 1));
  }

  /** Each producer's term and best prepared block, as psibase's print_views shows them. */
  private describeViews(): string {
    return this.groups.map((group, i) => group.producers.map((p) => {
      const view = this.views[i]?.get(p);
      const best = view?.best?.body;
      return `${p}=${view?.term ?? 0}${best ? `(${best.term}:${blockNumOf(best.bestPrepared)}/${best.bestPreparedTerm} p${best.prepares.length}${this.headers.has(best.bestPrepared) ? "" : " unknown"})` : ''}`;
    }).join(' ')).join(' | ');
  }

  private receive(message: BftMessage<S>): void {
    if (!this.active) return;
    switch (message.kind) {
      case 'PrepareMessage':
      case 'CommitMessage':
        return this.receiveConfirm(message);
      case 'ViewChangeMessage':
        if (this.storeViewChange(message)) {
          this.checkViewChangeThreshold();
          this.out.sends.push({ to: 'all', message });
        }
        return;
      case 'RequestViewMessage':
        for (const view of this.viewChanges()) this.out.sends.push({ to: 'sender', message: view });
        return;
    }
  }

  private receiveConfirm(message: PrepareOrCommit<S>): void {
    const { blockId, producer } = message.body;
    const block = this.headers.get(blockId);
    if (!block) return this.wait(message);
    if (block.groups[0]?.algorithm !== 'bft') return;
    if (!block.groups.some((g) => g.producers.includes(producer))) {
      this.log('warning', `${message.kind} for block ${block.num} from ${producer}, who is not one of its producers`);
      return;
    }
    // Prepares and commits show their producer has reached the block's term (§5.2).
    if (this.setViewTerm(producer, block.term)) this.checkViewChangeThreshold();
    if (message.kind === 'PrepareMessage') this.onPrepare(block, producer, message.signature);
    else this.onCommit(block, producer, message.signature);
  }

  private wait(message: PrepareOrCommit<S>): void {
    const { blockId } = message.body;
    if (blockNumOf(blockId) <= this.commitIndex) return;
    let list = this.waiting.get(blockId);
    if (!list) {
      if (this.waiting.size >= MAX_WAITING_BLOCKS) this.waiting.delete(this.waiting.keys().next().value!);
      this.waiting.set(blockId, list = []);
    }
    if (list.length < MAX_WAITING_PER_BLOCK) list.push(message);
  }

  private onPrepare(block: BftBlock, producer: ProducerName, signature: S): void {
    const [current, next] = block.groups;
    // Group 1 prepares only when it is BFT (§5.3 "Counting in joint consensus").
    const counts = current!.producers.includes(producer) || (next?.algorithm === 'bft' && next.producers.includes(producer));
    const confirmations = this.confirmationsOf(block.id);
    if (!counts || confirmations.prepares.has(producer)) return;
    confirmations.prepares.set(producer, signature);
    if (!this.hasQuorum(block, true)) return;
    if (!this.bestPrepared || compareOrder(block, this.bestPrepared) > 0) {
      this.bestPrepared = orderOf(block);
      this.setView(block.term);
    }
    if (this.self !== null && !confirmations.commits.has(this.self) && this.canCommit(block)) this.doCommit(block);
  }

  private onCommit(block: BftBlock, producer: ProducerName, signature: S): void {
    const confirmations = this.confirmationsOf(block.id);
    if (confirmations.commits.has(producer)) return;
    confirmations.commits.set(producer, signature);
    if (!this.hasQuorum(block, false) || block.num <= this.commitIndex) return;
    if (!this.proofs.has(block.id)) this.proofs.set(block.id, this.proofFrom(block));
    this.commitBlock(block, 'a quorum of producers');
    this.bestPrepared = maxOrder(this.bestPrepared, block);
  }

  /** A block is irreversible: commit it now if it is on the head chain, otherwise steer fork choice to it first. */
  private commitBlock(block: BftBlock, by: string): void {
    if (block.num <= this.commitIndex) return;
    if (this.onHeadChain(block)) return this.commitOnHeadChain(block.num);
    if (!this.verifyCommit(block)) return;
    this.setView(block.term);
    this.confirmationsOf(block.id).committedByBlock = true;
    if (!this.pendingCommit || block.num > this.pendingCommit.num) {
      this.pendingCommit = block;
      this.log('info', `Block ${block.num} ${block.id} committed by ${by}; switching to it`);
    }
  }

  /** psibase's verify_commit: committing below a better prepared block on another branch breaks safety. */
  private verifyCommit(block: BftBlock): boolean {
    const best = this.bestPrepared;
    if (!best || compareOrder(block, best) >= 0) return true;
    // Only a branch known to differ is a failure: headers between the two may still be on their way.
    const onBestBranch = this.ancestorAt(best.id, block.num);
    if (!onBestBranch || onBestBranch.id === block.id) return true;
    const failure = `Consensus failure: block ${block.num} ${block.id} was committed, but ${best.num} ${best.id} on another branch was prepared and is better`;
    this.out.consensusFailure = failure;
    this.log('warning', failure);
    return false;
  }

  /**
   * The proof of a commit: each group's commits, of those whose signature holds for that group
   * (a producer whose claim differs between the sets signed with one of them).
   */
  private proofFrom(block: BftBlock): BftBlockConfirm<S> {
    const commits = this.confirmationsOf(block.id).commits;
    const [current, next] = block.groups;
    const of = (group: BftGroup, index: number) => sortedConfirms(commits, group).filter(({ producer }) => this.countsIn(block, 'CommitMessage', producer, index));
    return { blockNum: block.num, commits: of(current!, 0), ...(next ? { nextCommits: of(next, 1) } : {}) };
  }

  /** The head chain is irreversible up to `num` (never beyond the head). */
  private commitOnHeadChain(num: number): void {
    const target = Math.min(num, this.head?.num ?? 0);
    if (target <= this.commitIndex) return;
    this.out.commit = target;
    this.advanceCommit(target);
    this.startTimer();
  }

  /** The commit index moved on: forget what lies below it. */
  private advanceCommit(num: number): void {
    this.commitIndex = num;
    const committed = this.head && this.ancestorAt(this.head.id, num);
    if (committed) this.committed = orderOf(committed);
    // A confirmed block the commit passes is on the committed chain for good: the committed
    // block stands for it in the forbidden-fork rule once its header is forgotten (§5.3).
    const confirmed = this.bestConfirm;
    if (committed && confirmed && confirmed.num < num && this.ancestorAt(committed.id, confirmed.num)?.id === confirmed.id) this.bestConfirm = orderOf(committed);
    if (this.pendingCommit && this.pendingCommit.num <= num) this.pendingCommit = undefined;
    for (const [id, header] of this.headers) {
      if (header.num >= num) continue;
      this.headers.delete(id);
      this.confirmations.delete(id);
      this.proofs.delete(id);
    }
    for (const id of this.waiting.keys()) if (blockNumOf(id) <= num) this.waiting.delete(id);
  }

  /**
   * Each group reaches its own threshold; with `prepares`, a CFT group 1 is not counted (§5.3).
   * In joint consensus a signature counts in a group only if it holds for that group's claim of
   * its producer (a producer whose claim changes signs for one set).
   */
  private hasQuorum(block: BftBlock, prepares: boolean): boolean {
    const kind = prepares ? 'PrepareMessage' : 'CommitMessage';
    const confirmations = this.confirmationsOf(block.id);
    const from = prepares ? confirmations.prepares : confirmations.commits;
    return block.groups.every((group, i) => (prepares && i === 1 && group.algorithm !== 'bft')
      || group.producers.filter((p) => from.has(p) && this.countsIn(block, kind, p, i)).length >= threshold(group));
  }

  /**
   * Whether `producer`'s held prepare or commit of `block` counts in group `group`: always with
   * one set (the node checked it against the producer's claim); in joint consensus only if it
   * holds for that group's claim, as a producer whose claim changes signs for one set.
   */
  private countsIn(block: BftBlock, kind: 'PrepareMessage' | 'CommitMessage', producer: ProducerName, group: number): boolean {
    if (block.groups.length === 1) return true;
    const confirmations = this.confirmationsOf(block.id);
    const key = `${kind}:${group}:${producer}`;
    let verdict = confirmations.verdicts.get(key);
    if (verdict === undefined) {
      const signature = (kind === 'PrepareMessage' ? confirmations.prepares : confirmations.commits).get(producer)!;
      confirmations.verdicts.set(key, verdict = this.options.verify(kind, block.id, producer, signature, group));
    }
    return verdict;
  }

  /** §5.3 can_prepare. */
  private canPrepare(block: BftBlock): boolean {
    if (!this.canCommit(block)) return false;
    const [current, next] = block.groups;
    // In a BFT→CFT joint set only the old producers prepare.
    return !(next && next.algorithm !== 'bft' && !current!.producers.includes(this.self!));
  }

  /** §5.3 can_commit: this term's block, a ready term, and no forbidden fork. */
  private canCommit(block: BftBlock): boolean {
    return this.voting && block.groups[0]?.algorithm === 'bft' && block.term === this.term && this.termRoot() !== undefined && !this.forbiddenFork(block);
  }

  /**
   * The forbidden-fork rule (§5.3): after preparing or committing a block, a block on another
   * branch may be prepared only in a later term. A block prepared before the commit index whose
   * branch cannot be told any more counts as another branch (the safe side).
   */
  private forbiddenFork(block: BftBlock): boolean {
    const confirmed = this.bestConfirm;
    if (!confirmed) return false;
    if (this.onHeadChain(block) && this.onHeadChain(confirmed)) return false;
    return confirmed.term >= block.term;
  }

  private doPrepare(block: BftBlock): void {
    this.sendConfirm('PrepareMessage', block);
  }

  private doCommit(block: BftBlock): void {
    this.sendConfirm('CommitMessage', block);
  }

  private sendConfirm(kind: 'PrepareMessage' | 'CommitMessage', block: BftBlock): void {
    const self = this.self!;
    const have = this.confirmationsOf(block.id)[kind === 'PrepareMessage' ? 'prepares' : 'commits'];
    if (have.has(self)) return;
    // Kept before the message leaves, so that a restart never confirms another fork in this term.
    this.bestConfirm = maxOrder(this.bestConfirm, block);
    const body = { blockId: block.id, producer: self };
    const signature = this.options.sign({ kind, body });
    if (signature === undefined) return this.log('warning', `${kind} for block ${block.num} not sent: no key for this producer`);
    this.out.sends.push({ to: 'producers', message: { kind, body, signature } });
    if (kind === 'PrepareMessage') this.onPrepare(block, self, signature);
    else this.onCommit(block, self, signature);
  }

  /** psibase's set_view: a later term, announced with a signed view change. */
  private setView(term: number): void {
    if (term <= this.term) return;
    this.term = term;
    const leader = bftLeader(this.groups[0]!, term);
    this.log('info', `View change: term ${term}, leader ${leader}`);
    if (this.voting) this.syncCurrentTerm();
  }

  /** Signs and floods this producer's view change for the current term (§5.2). */
  private syncCurrentTerm(): void {
    if (!this.voting || this.self === null) return;
    const body = this.makeViewChange();
    const own = this.views[0]?.get(this.self)?.best ?? this.views[1]?.get(this.self)?.best;
    if (own && own.body.term === body.term && own.body.bestPrepared === body.bestPrepared && own.body.prepares.length === body.prepares.length) return;
    const signature = this.options.sign({ kind: 'ViewChangeMessage', body });
    if (signature === undefined) {
      // Tried again later, and at once when the keys change (psibase's sync-term timer, §5.1).
      if (this.viewOutdated()) this.out.retryViewChangeMs = this.retryViewChangeMs;
      return this.log('warning', `View change for term ${body.term} not sent: no key for this producer`);
    }
    const message: ViewChangeMessage<S> = { kind: 'ViewChangeMessage', body, signature };
    this.storeViewChange(message);
    this.out.sends.push({ to: 'all', message });
  }

  /**
   * psibase's is_view_outdated: this producer's own view is behind the current term, because its
   * view change could not be signed (a key on a locked device, §5.1).
   */
  private viewOutdated(): boolean {
    const self = this.self;
    return this.voting && self !== null && this.groups.some((group, i) => group.producers.includes(self) && this.viewTerm(i, self) !== this.term);
  }

  private makeViewChange(): BftViewChange<S> {
    const base = { term: this.term, producer: this.self! };
    const best = this.bestPrepared;
    const block = best && this.headers.get(best.id);
    const confirmations = block && this.confirmations.get(block.id);
    if (!best) return { ...base, bestPrepared: ZERO_ID, bestPreparedTerm: 0, prepares: [] };
    // Without the block a better one was committed since: this view change is never the best (§5.2).
    if (!block) return { ...base, bestPrepared: best.id, bestPreparedTerm: 0, prepares: [] };
    // Prepares are not kept across a restart: the view still says how far this producer got.
    if (!confirmations) return { ...base, bestPrepared: best.id, bestPreparedTerm: best.term, prepares: [] };
    const [current, next] = block.groups;
    return {
      ...base,
      bestPrepared: block.id,
      bestPreparedTerm: block.term,
      prepares: sortedConfirms(confirmations.prepares, current!),
      ...(next?.algorithm === 'bft' ? { nextPrepares: sortedConfirms(confirmations.prepares, next) } : {}),
    };
  }

  /** Stores a view change if it is newer than the one held for its producer (§5.2); true if anything changed. */
  private storeViewChange(message: ViewChangeMessage<S>): boolean {
    const { term, producer } = message.body;
    // The term first (it makes the view of every group the producer is in), then its best message.
    let changed = this.setViewTerm(producer, term);
    this.groups.forEach((group, i) => {
      const view = this.views[i]?.get(producer);
      if (!view || !group.producers.includes(producer)) return;
      if (!view.best || this.isNewer(group, message.body, view.best.body)) {
        view.best = message;
        changed = true;
      }
    });
    return changed;
  }

  /** A higher term; in one term, for its leader a better best prepared block, for anyone else a worse one. */
  private isNewer(group: BftGroup, candidate: BftViewChange<S>, held: BftViewChange<S>): boolean {
    if (candidate.term !== held.term) return candidate.term > held.term;
    const order = compareOrder(bestPreparedOf(candidate), bestPreparedOf(held));
    return bftLeader(group, candidate.term) === candidate.producer ? order > 0 : order < 0;
  }

  private setViewTerm(producer: ProducerName, term: number): boolean {
    let changed = false;
    this.groups.forEach((group, i) => {
      const views = this.views[i];
      if (!views || !group.producers.includes(producer)) return;
      const view = views.get(producer) ?? { term: 0 };
      views.set(producer, view);
      if (view.term < term) {
        view.term = term;
        changed = true;
      }
    });
    return changed;
  }

  private viewTerm(group: number, producer: ProducerName): number {
    return this.views[group]?.get(producer)?.term ?? 0;
  }

  /** How many producers of the current set have reached the current term. */
  private currentSetInTerm(): number {
    return this.groups[0]!.producers.filter((p) => this.viewTerm(0, p) >= this.term).length;
  }

  /** §5.2 (b): when more than a third of either set is ahead, jump to where they are. */
  private checkViewChangeThreshold(): void {
    let term = this.term;
    this.groups.forEach((group, i) => {
      const terms = group.producers.map((p) => this.viewTerm(i, p)).sort((a, b) => a - b);
      const viable = terms[Math.floor((group.producers.length * 2) / 3)];
      if (viable !== undefined) term = Math.max(term, viable);
    });
    this.setView(this.skipAdvancedLeaders(term));
  }

  /** Terms whose leader has already moved past them are skipped. */
  private skipAdvancedLeaders(term: number): number {
    const current = this.groups[0]!;
    while (this.viewTerm(0, bftLeader(current, term)!) > term) term++;
    return term;
  }

  /** The timer runs once a quorum is in the current term (psibase's maybe_start_timer). */
  private maybeStartTimer(): void {
    if (!this.voting || this.readyTerm === this.term) return;
    if (this.currentSetInTerm() < threshold(this.groups[0]!)) return;
    this.readyTerm = this.term;
    this.startTimer();
  }

  private startTimer(): void {
    if (!this.voting) return;
    this.timerTerm = this.term;
    this.out.timerMs = this.timeoutMs;
    this.out.stopTimer = undefined;
  }

  /**
   * Term readiness (psibase's get_subtree_from_leader): the leader's view change for this term is
   * valid, and a threshold of each set is in this term with a best prepared block no better than
   * the leader's. Returns the block fork choice is restricted to, or undefined if not ready.
   */
  private termRoot(): BlockIdHex | undefined {
    const current = this.groups[0];
    if (!current) return undefined;
    const leaderView = this.views[0]?.get(bftLeader(current, this.term)!);
    const best = leaderView?.best;
    if (!leaderView || leaderView.term !== this.term || !best || best.body.term !== this.term) return undefined;
    const root = this.subtreeOf(best.body, true);
    if (root === undefined) return undefined;
    const limit = bestPreparedOf(best.body);
    const ready = this.groups.every((group, i) => {
      const views = this.views[i];
      const inTerm = group.producers.filter((p) => {
        const view = views?.get(p);
        return view?.term === this.term && view.best !== undefined && compareOrder(bestPreparedOf(view.best.body), limit) <= 0;
      });
      return inTerm.length >= threshold(group);
    });
    return ready ? root : undefined;
  }

  /**
   * The block a view change names, if it is valid: the committed block for none or one below the
   * commit index, otherwise its best prepared block, whose prepares must verify.
   */
  private subtreeOf(view: BftViewChange<S>, acceptBelowCommit: boolean): BlockIdHex | undefined {
    const committed = this.committed?.id ?? (this.commitIndex <= PRE_GENESIS.num ? ZERO_ID : undefined);
    if (view.bestPrepared === ZERO_ID) return committed;
    // The committed block is final: naming it needs no prepares, as naming none does not.
    if (view.bestPrepared === committed) return committed;
    const block = this.headers.get(view.bestPrepared);
    if (block) return this.validViewChange(block, view) ? block.id : undefined;
    return acceptBelowCommit && blockNumOf(view.bestPrepared) <= this.commitIndex ? committed : undefined;
  }

  private validViewChange(block: BftBlock, view: BftViewChange<S>): boolean {
    let valid = this.validViews.get(view);
    if (valid === undefined) {
      valid = view.bestPreparedTerm === block.term && this.verifyConfirms(block, 'PrepareMessage', view.prepares, view.nextPrepares) === undefined;
      this.validViews.set(view, valid);
    }
    return valid;
  }

  /**
   * psibase's verifyMsig over each set of the block: producers strictly ascending, each one of
   * the set, each signature valid, at least a threshold; a next set's list exactly when the block
   * has one (for prepares: when it is BFT).
   */
  private verifyConfirms(block: BftBlock, kind: 'PrepareMessage' | 'CommitMessage', confirms: readonly BftConfirm<S>[], nextConfirms: readonly BftConfirm<S>[] | undefined): string | undefined {
    const [current, next] = block.groups;
    const wantsNext = next !== undefined && (kind === 'CommitMessage' || next.algorithm === 'bft');
    if (wantsNext !== (nextConfirms !== undefined)) return wantsNext ? `${kind}s of the next producers are missing` : `Unexpected ${kind}s of next producers`;
    const lists: [BftGroup, readonly BftConfirm<S>[]][] = [[current!, confirms]];
    if (wantsNext) lists.push([next, nextConfirms!]);
    for (const [index, [group, list]] of lists.entries()) {
      for (let i = 0; i < list.length; i++) {
        const { producer, signature } = list[i]!;
        if (i > 0 && list[i - 1]!.producer >= producer) return `${kind}s are not sorted by producer`;
        if (!group.producers.includes(producer)) return `${producer} is not a producer of block ${block.num}`;
        if (!this.options.verify(kind, block.id, producer, signature, index)) return `Invalid ${kind} signature of ${producer} for block ${block.num}`;
      }
      if (list.length < threshold(group)) return `${list.length} ${kind}s for block ${block.num}, fewer than the threshold ${threshold(group)}`;
    }
    return undefined;
  }

  /**
   * psibase's set_root: fork choice keeps to the subtree the leader's view change names; without a
   * ready term, to this node's best prepared block (a leader first takes in the prepares of the best
   * valid view change of the term). Never above a committed block's branch.
   */
  private updateRoot(): void {
    let root = this.termRoot();
    if (root === undefined) {
      if (this.roleNow !== 'nonvoting' && this.self !== null && bftLeader(this.groups[0]!, this.term) === this.self) this.loadBestViewChange();
      const best = this.bestPrepared && this.headers.get(this.bestPrepared.id);
      root = best && best.num >= this.commitIndex ? best.id : this.committed?.id;
    }
    const floor = this.pendingCommit ?? (this.committed && this.headers.get(this.committed.id));
    if (floor && (root === undefined || !this.descendsById(root, floor))) root = floor.id;
    if (root === undefined || root === this.rootNow) return;
    this.rootNow = root;
    this.out.root = root;
  }

  /** A leader whose term is not ready adopts the prepares of the best valid view change of its term. */
  private loadBestViewChange(): void {
    let best: BftViewChange<S> | undefined;
    for (const views of this.views) {
      for (const view of views.values()) {
        const candidate = view.best?.body;
        if (view.term !== this.term || !candidate || candidate.term !== this.term || candidate.bestPrepared === ZERO_ID) continue;
        if (!this.headers.has(candidate.bestPrepared) || this.subtreeOf(candidate, false) === undefined) continue;
        if (!best || compareOrder(bestPreparedOf(best), bestPreparedOf(candidate)) < 0) best = candidate;
      }
    }
    if (!best) return;
    const block = this.headers.get(best.bestPrepared)!;
    for (const { producer, signature } of [...best.prepares, ...(best.nextPrepares ?? [])]) this.onPrepare(block, producer, signature);
    this.syncCurrentTerm();
  }

  /** The leader produces while its term is ready and stops when it is not (§5.2). */
  private updateLeading(): void {
    const lead = this.voting && this.self !== null && bftLeader(this.groups[0]!, this.term) === this.self && this.termRoot() !== undefined;
    if (lead && this.leadingTerm !== this.term) {
      if (this.leadingTerm !== undefined) this.out.stopLeading = true;
      this.leadingTerm = this.term;
      this.roleNow = 'leader';
      this.out.lead = this.term;
      this.log('info', `Leading term ${this.term}`);
    } else if (!lead && this.leadingTerm !== undefined) {
      this.leadingTerm = undefined;
      if (this.roleNow === 'leader') this.roleNow = 'follower';
      this.out.stopLeading = true;
    }
  }

  private confirmationsOf(id: BlockIdHex): Confirmations<S> {
    let confirmations = this.confirmations.get(id);
    if (!confirmations) this.confirmations.set(id, confirmations = { prepares: new Map(), commits: new Map(), verdicts: new Map() });
    return confirmations;
  }

  /** The block numbered `num` on the branch of block `id`, if the headers reach it. */
  private ancestorAt(id: BlockIdHex, num: number): BftBlock | undefined {
    let block = this.headers.get(id);
    while (block && block.num > num) block = this.headers.get(block.previous);
    return block?.num === num ? block : undefined;
  }

  private onHeadChain(block: BlockOrder): boolean {
    return this.head !== undefined && this.ancestorAt(this.head.id, block.num)?.id === block.id;
  }

  /** Whether block `id` is `ancestor` or one of its descendants. */
  private descendsById(id: BlockIdHex, ancestor: BftBlock): boolean {
    return id === ancestor.id || this.ancestorAt(id, ancestor.num)?.id === ancestor.id;
  }

  private log(level: LogEntry['level'], text: string): void {
    this.out.log.push({ level, text });
  }
}

/** Producer sets compare by their algorithm and names, in order. */
/** Whether a kept block and the machine's name the same block (or neither names one). */
function sameOrder(kept: { readonly id: BlockIdHex; readonly num: number; readonly term: number } | undefined, now: BlockOrder | undefined): boolean {
  return kept === now || (kept !== undefined && now !== undefined && kept.id === now.id && kept.num === now.num && kept.term === now.term);
}

function sameConfirms<S>(a: readonly BftConfirm<S>[], b: readonly BftConfirm<S>[], sameSignature: (x: S, y: S) => boolean): boolean {
  return a.length === b.length && a.every((c, i) => c.producer === b[i]!.producer && sameSignature(c.signature, b[i]!.signature));
}

export function sameGroup(a: BftGroup | undefined, b: BftGroup | undefined): boolean {
  return a !== undefined && b !== undefined && a.algorithm === b.algorithm
    && a.producers.length === b.producers.length && a.producers.every((p, i) => p === b.producers[i]);
}
