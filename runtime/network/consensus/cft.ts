import type { LogEntry } from '../peer-io.js';
import type { ProducerName } from '../routing/routing-io.js';
import { AutoTimeout } from './auto-timeout.js';
import { bftThreshold, cftThreshold } from '../../chain/quorum.js';
import type { CftEvent, CftHead, CftMessage, CftOptions, CftReady, CftRole, CftTakeOver } from './cft-io.js';

// psibase's crash-fault-tolerant consensus (docs/p2p.md §4): Raft's elections over producers,
// with blocks as the log. A deterministic state machine: events in, a Ready out; timers are
// asked for in milliseconds and randomness is injected.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class Cft {
  private roleNow: CftRole = 'nonvoting';
  private term = 0;
  private votedFor: ProducerName | null = null;
  private groups: (readonly ProducerName[])[] = [];
  /** The next set (group 1) runs BFT: CFT→BFT joint consensus (docs/p2p.md §6.1). */
  private nextIsBft = false;
  private self: ProducerName | null = null;
  /**
   * The producers that granted this candidate their vote this term (itself included), counted per
   * group when the votes are checked: the groups may change while the election runs.
   */
  private granted = new Set<ProducerName>();
  /** The highest block each producer confirmed, per group, while leader (docs/p2p.md §4 step 9). */
  private matchIndex: Map<ProducerName, number>[] = [];
  /** The first block this leader produced in its term: a confirm below it is of another term. */
  private firstOwnBlock: number | undefined;
  private head: CftHead = { num: 0, term: 0, producer: 0n };
  /** The producer whose block of the current term this node applied: the term's leader, once known. */
  private leader: ProducerName | null = null;
  /** The producers routes reach now (the last `routes` event). */
  private reachable = new Set<ProducerName>();
  /** The leader this follower lost its route to, while a prompt election for its term is due. */
  private lostLeader: ProducerName | null = null;
  /** The timer running is a prompt election's, not the election timeout. */
  private promptArmed = false;
  private commitIndex = 0;
  private readonly timeout: AutoTimeout;
  private out!: Mutable<CftReady>;

  constructor(private readonly options: CftOptions) {
    this.timeout = new AutoTimeout(options.baseTimeoutMs, options.now());
    this.term = options.restored?.term ?? 0;
    this.votedFor = options.restored?.votedFor ?? null;
  }

  get role(): CftRole {
    return this.roleNow;
  }

  get currentTerm(): number {
    return this.term;
  }

  /** The election timeout's base T in milliseconds (the timer runs T..2T). */
  get timeoutMs(): number {
    return this.timeout.ms;
  }

  /** Whom this node voted for in the current term (to keep across a restart with the term). */
  get vote(): ProducerName | null {
    return this.votedFor;
  }

  step(event: CftEvent): CftReady {
    this.out = { sends: [], log: [] };
    switch (event.type) {
      case 'producers':
        this.setProducers(event.groups, event.self, event.nextIsBft ?? false, event.fromBft);
        break;
      case 'timeout':
        this.onTimeout(event.quorumReachable);
        break;
      case 'head':
        this.onHead(event.head, event.commitIndex);
        break;
      case 'receive':
        this.receive(event.message);
        break;
      case 'routes':
        this.onRoutes(event.reachable);
        break;
    }
    return this.out;
  }

  /**
   * §4 step 1-2: a producer of either set follows (the sole producer elects itself); any other
   * node does not vote. Taking over from BFT (§6.1), the term goes on from BFT's and BFT's
   * leader of it stays leader.
   */
  private setProducers(groups: readonly (readonly ProducerName[])[], self: ProducerName | null, nextIsBft: boolean, fromBft: CftTakeOver | undefined): void {
    this.groups = groups.map((g) => [...g]);
    this.self = self;
    this.nextIsBft = nextIsBft;
    if (fromBft) {
      this.updateTerm(fromBft.term);
      // A role CFT held before BFT ran is stale.
      if (this.roleNow === 'leader' || this.roleNow === 'candidate') this.roleNow = 'follower';
      this.granted.clear();
    }
    if (!this.isProducer()) {
      if (this.roleNow === 'leader') this.out.stopLeading = true;
      if (this.roleNow !== 'nonvoting') this.log('info', `Not a producer any more: stopped voting (term ${this.term})`);
      this.roleNow = 'nonvoting';
      this.out.stopTimer = true;
      return;
    }
    if (this.roleNow === 'leader') {
      // The leader keeps what it knows of producers still in a set.
      const known = (p: ProducerName) => Math.max(0, ...this.matchIndex.map((m) => m.get(p) ?? 0));
      this.matchIndex = this.groups.map((g) => new Map(g.map((p) => [p, known(p)])));
      this.updateCommit();
      return;
    }
    if (this.roleNow === 'nonvoting' || fromBft) {
      // BFT's timers stopped with it: CFT's election timer starts afresh.
      this.roleNow = 'follower';
      this.restartTimer();
    }
    if (fromBft?.leading && fromBft.term === this.term) return this.takeLead(`Leader of BFT term ${this.term} goes on leading it under CFT`);
    if (this.isSoleProducer()) {
      this.requestVote();
    } else if (this.roleNow === 'candidate') {
      // Votes count only in the sets they were asked in: counted in other sets, they could elect
      // a second leader of the term. The candidate waits for its timer to stand again.
      this.roleNow = 'follower';
      this.granted.clear();
    }
  }

  /**
   * §4 step 3: a follower, candidate or leader whose timer ran out stands for a new term. A
   * prompt election stands only while still due, and is no sign that T is too short.
   */
  private onTimeout(quorumReachable: boolean): void {
    if (this.roleNow === 'nonvoting' || !this.mayStand()) return;
    const prompt = this.promptArmed;
    this.promptArmed = false;
    if (prompt && !this.promptDue()) return this.restartTimer();
    // A sole producer that leads stays leader: standing again would elect it again, and a chain
    // that makes blocks only for transactions (instant production, docs/chain.md §1.3) commits
    // nothing while idle without having stalled.
    if (this.roleNow === 'leader' && this.isSoleProducer()) return this.restartTimer();
    if (!prompt && quorumReachable) this.timeout.increase();
    this.requestVote();
  }

  /**
   * What routes reach changed (docs/p2p.md "What we build" 5): a follower that can no longer
   * reach the leader of its term does not wait out the election timeout, whose purpose is to
   * notice a leader that is silent. The followers stand in turn, the first after the lost leader
   * in the producers' order within a quarter of a slot and each other one a slot later, so that a
   * single candidate usually asks for the votes and wins them.
   */
  private onRoutes(reachable: readonly ProducerName[]): void {
    const lost = this.leader !== null && this.reachable.has(this.leader) && !reachable.includes(this.leader);
    this.reachable = new Set(reachable);
    if (this.lostLeader !== null && this.reachable.has(this.lostLeader)) this.lostLeader = null;
    if (!lost || this.roleNow !== 'follower' || !this.mayStand()) return;
    this.lostLeader = this.leader;
    const order = [...new Set(this.groups.flat())];
    const at = order.indexOf(this.leader!);
    const after = [...order.slice(at + 1), ...order.slice(0, at)].filter((p) => p === this.self || this.reachable.has(p));
    const turn = Math.max(0, after.indexOf(this.self!));
    this.promptArmed = true;
    this.out.timerMs = (turn + this.options.random() / 4) * this.options.promptElectionMs;
    this.out.stopTimer = undefined;
  }

  /** A prompt election is due: this follower lost its route to its leader, and has seen no other leader nor granted a vote since. */
  private promptDue(): boolean {
    return this.lostLeader !== null && this.roleNow === 'follower' && (this.leader === null || this.leader === this.lostLeader) && !this.reachable.has(this.lostLeader);
  }

  private requestVote(): void {
    const self = this.self!;
    if (this.roleNow === 'leader') {
      this.out.stopLeading = true;
      this.log('info', `Leader of term ${this.term} stepping down: its commits stalled`);
    }
    this.term++;
    this.votedFor = self;
    this.leader = null;
    this.granted = new Set([self]);
    this.roleNow = 'candidate';
    this.restartTimer();
    this.out.sends.push({
      to: 'producers',
      message: { kind: 'RequestVoteRequest', body: { term: this.term, candidateId: self, lastLogIndex: this.head.num, lastLogTerm: this.head.term } },
    });
    this.checkVotes();
  }

  /** §4 steps 4, 8, 9: a new head moves the term, makes a follower confirm it, counts a leader's own block. */
  private onHead(head: CftHead, commitIndex: number): void {
    this.head = head;
    const advanced = commitIndex > this.commitIndex;
    this.commitIndex = Math.max(this.commitIndex, commitIndex);
    this.updateTerm(head.term);
    if (this.roleNow === 'nonvoting') return;
    if (this.roleNow === 'leader') {
      // Commits going on, whoever saw them first, keep the leader in office (§4: timer reset).
      if (advanced) this.restartTimer(true);
      if (head.producer === this.self && head.term === this.term) {
        this.firstOwnBlock ??= head.num;
        this.confirmed(this.self!, head.num);
      }
      return;
    }
    if (head.term === this.term && head.producer !== this.self) this.leader = head.producer;
    if (head.term >= this.term) this.restartTimer(true);
    // Another producer leads this term (its block says so): a candidate gives up (Raft).
    if (this.roleNow === 'candidate' && head.term === this.term && head.producer !== this.self) {
      this.roleNow = 'follower';
      this.granted.clear();
    }
    if (this.roleNow === 'follower' && head.term === this.term && head.num > this.commitIndex && head.producer !== this.self) {
      this.out.sends.push({ to: head.producer, message: { kind: 'ConfirmMessage', body: { term: this.term, followerId: this.self!, headNum: head.num } } });
    }
  }

  private receive(message: CftMessage): void {
    switch (message.kind) {
      case 'RequestVoteRequest': return this.onRequestVote(message.body);
      case 'RequestVoteResponse': return this.onVote(message.body);
      case 'ConfirmMessage': return this.onConfirm(message.body);
    }
  }

  /** §4 step 5: a follower grants one vote per term, to a candidate at least as up to date. */
  private onRequestVote({ term, candidateId, lastLogIndex, lastLogTerm }: Extract<CftMessage, { kind: 'RequestVoteRequest' }>['body']): void {
    if (this.roleNow === 'nonvoting' || !this.inSomeGroup(candidateId)) return;
    this.updateTerm(term);
    if (this.roleNow !== 'follower') return;
    const upToDate = lastLogTerm > this.head.term || (lastLogTerm === this.head.term && lastLogIndex >= this.head.num);
    const granted = term >= this.term && (this.votedFor === null || this.votedFor === candidateId) && upToDate;
    if (granted) {
      this.votedFor = candidateId;
      // The candidate stands for the lost leader's successor: this node waits for it.
      this.lostLeader = null;
      this.restartTimer(true);
    }
    this.out.sends.push({
      to: candidateId,
      message: { kind: 'RequestVoteResponse', body: { term: this.term, candidateId, voterId: this.self!, voteGranted: granted } },
    });
  }

  /** §4 step 6: a candidate counts granted votes of its term in each group the voter is in. */
  private onVote({ term, candidateId, voterId, voteGranted }: Extract<CftMessage, { kind: 'RequestVoteResponse' }>['body']): void {
    this.updateTerm(term);
    if (candidateId !== this.self || term !== this.term || !voteGranted || this.roleNow !== 'candidate') return;
    this.granted.add(voterId);
    this.checkVotes();
  }

  /** §4 step 9: a leader records what a follower applied of its term. */
  private onConfirm({ term, followerId, headNum }: Extract<CftMessage, { kind: 'ConfirmMessage' }>['body']): void {
    this.updateTerm(term);
    if (this.roleNow !== 'leader' || term !== this.term || headNum < this.commitIndex) return;
    if (this.firstOwnBlock === undefined || headNum < this.firstOwnBlock || headNum > this.head.num) return;
    if (!this.inSomeGroup(followerId)) return;
    this.confirmed(followerId, headNum);
  }

  private confirmed(producer: ProducerName, num: number): void {
    for (const match of this.matchIndex) if (match.has(producer)) match.set(producer, Math.max(match.get(producer)!, num));
    this.updateCommit();
  }

  /** The highest block a threshold of each group confirmed; in joint consensus the smaller of the two. */
  private updateCommit(): void {
    let commit = Infinity;
    this.groups.forEach((g, i) => {
      if (g.length === 0) return;
      const confirmed = g.map((p) => this.matchIndex[i]!.get(p) ?? 0).sort((a, b) => a - b);
      commit = Math.min(commit, confirmed[g.length - this.quorumOf(i)]!);
    });
    if (commit === Infinity || commit <= this.commitIndex) return;
    this.commitIndex = commit;
    this.out.commit = commit;
    this.restartTimer(true);
  }

  private checkVotes(): void {
    // An empty set (before genesis installs one) has nothing to count; a candidate wins a quorum of each other set.
    const won = this.groups.every((g, i) => g.length === 0 || g.filter((p) => this.granted.has(p)).length >= this.quorumOf(i));
    if (this.roleNow !== 'candidate' || !won) return;
    this.takeLead(`Elected leader of term ${this.term}`);
  }

  private takeLead(why: string): void {
    this.roleNow = 'leader';
    this.votedFor = this.self;
    this.matchIndex = this.groups.map((g) => new Map(g.map((p) => [p, 0])));
    this.firstOwnBlock = undefined;
    this.out.lead = this.term;
    this.log('info', why);
  }

  /**
   * The quorum of group `i`: a majority, but BFT's for the next set of a CFT→BFT change (§6.1).
   * Protected so that a test can break it on purpose (the simulator must then find violations).
   */
  protected quorumOf(i: number): number {
    const n = this.groups[i]!.length;
    return i === 1 && this.nextIsBft ? bftThreshold(n) : cftThreshold(n);
  }

  /** In CFT→BFT joint consensus the leader comes from the current set: the next set's other producers do not stand (§6.1). */
  private mayStand(): boolean {
    return !this.nextIsBft || this.groups[0]!.includes(this.self!);
  }

  /** §4 step 4: a newer term is adopted; a leader or candidate falls back to follower. */
  private updateTerm(term: number): void {
    if (term <= this.term) return;
    this.term = term;
    this.votedFor = null;
    this.leader = null;
    this.granted.clear();
    if (this.roleNow === 'leader') {
      this.out.stopLeading = true;
      this.log('info', `Stopped leading: term ${term} has begun`);
    }
    if (this.roleNow === 'leader' || this.roleNow === 'candidate') this.roleNow = 'follower';
  }

  /**
   * The timer runs again for T..2T, unless a prompt election is due; `reset`: a sign of a live
   * network, which T learns from.
   */
  private restartTimer(reset = false): void {
    if (reset) this.timeout.reset(this.options.now());
    if (!this.mayStand()) {
      this.promptArmed = false;
      this.out.timerMs = undefined;
      this.out.stopTimer = true;
      return;
    }
    if (this.promptArmed && this.promptDue()) return;
    this.promptArmed = false;
    this.out.timerMs = this.timeout.ms * (1 + this.options.random());
    this.out.stopTimer = undefined;
  }

  private isProducer(): boolean {
    return this.self !== null && this.inSomeGroup(this.self);
  }

  /** The only producer of every set that has any (a set may be empty: before genesis installs one). */
  private isSoleProducer(): boolean {
    return this.groups.some((g) => g.length > 0) && this.groups.every((g) => g.length === 0 || (g.length === 1 && g[0] === this.self));
  }

  private inSomeGroup(producer: ProducerName): boolean {
    return this.groups.some((g) => g.includes(producer));
  }

  private log(level: LogEntry['level'], text: string): void {
    this.out.log.push({ level, text });
  }
}
