import { PRE_GENESIS, compareOrder, xidOf, type BlockIdHex, type BlockXid, type SyncHeader } from './block-header.js';
import { BlockTree, type WaitingBlocks } from './block-tree.js';
import { readyState, startState, type LinkSync, type StartState } from './link-state.js';
import { SyncError } from './sync-error.js';
import type { PeerId } from '../peer-io.js';
import type { BlockSyncOptions, SyncEvent, SyncReady } from './sync-io.js';
import type { HelloRequest } from './sync-messages.js';

// Block propagation and sync (docs/p2p.md §6.2) as a deterministic state machine: a hello
// exchange per link finds a common block, then each side streams its best chain one block at a
// time. Received blocks go into the block tree; the path to the best block is applied one block
// at a time through the caller. No clocks, sockets or randomness in here.

/** The reason a link is closed when the peer's committed block conflicts with ours (§6.2). */
export const NO_COMMON_BLOCK = 'No common block found';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class BlockSync<B> {
  private tree: BlockTree<B>;
  /** Where our block log starts (a loaded snapshot's block), if it was cut. */
  private logStart: number | undefined;
  private readonly links = new Map<PeerId, LinkSync>();
  /** The block handed out in `apply` whose result has not come back. */
  private applyingId: BlockIdHex | undefined;
  private out!: Mutable<SyncReady<B>>;

  constructor(private readonly options: BlockSyncOptions<B>) {
    const { committedHead } = options;
    this.tree = committedHead === undefined
      ? new BlockTree<B>(PRE_GENESIS, undefined, options.sizeOf)
      : new BlockTree<B>(options.headerOf(committedHead), committedHead, options.sizeOf);
    for (const block of options.appliedBlocks ?? []) this.tree.restoreApplied(options.headerOf(block), block);
    this.logStart = options.logStart;
  }

  get head(): SyncHeader {
    return this.tree.head;
  }

  get commitIndex(): number {
    return this.tree.commitIndex;
  }

  /** The block handed out in `apply` whose result has not come back. */
  get applying(): BlockIdHex | undefined {
    return this.applyingId;
  }

  /** The block `id` if the tree holds it (received or applied, above the irreversible block). */
  held(id: BlockIdHex): B | undefined {
    return this.tree.block(id);
  }

  /** Per link, its received blocks on the way to the best block that wait to be applied: the caller slows a link with many. */
  waitingOnBestPath(): Map<PeerId, WaitingBlocks> {
    return this.tree.waitingOnBestPath();
  }

  /** The head chain's block id at `num` (1 <= num <= head), from the tree or the block log. */
  headChainAt(num: number): BlockXid {
    if (num >= this.tree.commitIndex) {
      const header = this.tree.headChainAt(num);
      if (!header) throw new SyncError('SYNC_BAD_LOG', `Block ${num} is above the head ${this.tree.head.num}`);
      return xidOf(header);
    }
    if (num === PRE_GENESIS.num) return xidOf(PRE_GENESIS);
    return xidOf(this.options.headerOf(this.committedBlock(num)));
  }

  step(event: SyncEvent<B>): SyncReady<B> {
    this.out = { committed: [], sends: [], snapshots: [], disconnects: [], apply: [], dropped: [], log: [] };
    const headBefore = this.tree.head.id;
    switch (event.type) {
      case 'linkUp':
        this.links.set(event.peer, { state: startState(xidOf(this.tree.head)), sending: false });
        this.sendNext(event.peer);
        break;
      case 'linkDown':
        this.links.delete(event.peer);
        break;
      case 'receive':
        if (!this.links.has(event.peer)) break;
        if (event.message.kind === 'HelloRequest') this.receiveHello(event.peer, event.message);
        else this.receiveBlock(event.peer, event.message.body.block);
        break;
      case 'sent': {
        const link = this.links.get(event.peer);
        if (!link) break;
        link.sending = false;
        this.sendNext(event.peer);
        break;
      }
      case 'applied':
        this.receiveApplied(event.id, event.ok ? undefined : event.reason, event.ok ? event.commit : undefined);
        break;
      case 'produced':
        this.addProduced(event.block);
        break;
      case 'commit':
        this.commit(event.num);
        break;
      case 'snapshotSent':
        this.snapshotSent(event.peer, event.block);
        break;
      case 'snapshotLoaded':
        this.snapshotLoaded(event.peer, event.block);
        break;
      case 'root':
        if (this.tree.restrict(event.id)) this.applyNext();
        break;
    }
    if (this.tree.head.id !== headBefore) {
      this.out.head = this.tree.head;
      this.onHeadChange();
    }
    return this.out;
  }

  private receiveHello(peer: PeerId, hello: HelloRequest): void {
    const link = this.links.get(peer)!;
    if (hello.body.committed) link.peerCommitted = hello.body.xid;
    const state = link.state;
    // Once a common block is known the rest of the peer's hellos say nothing new.
    if (state.phase !== 'Start' || state.common) return;
    const { xid, committed } = hello.body;
    // Our log has no blocks from the peer's irreversible one on: it gets a snapshot (§7.4).
    if (committed && this.logStart !== undefined && xid.num < this.logStart) {
      link.state = { phase: 'SendSnapshot' };
      this.out.snapshots.push(peer);
      return;
    }
    // Skip the hellos for blocks the peer cannot have: it is at most at xid.num (+1 in flight).
    if (!state.helloCommitted && state.hello.num > xid.num + (state.helloSent ? 1 : 0)) {
      state.hello = this.headChainAt(xid.num);
      state.helloSent = false;
    }
    if (xid.id === PRE_GENESIS.id) {
      state.common = xidOf(PRE_GENESIS);
    } else {
      const common = this.commonAncestor(xid);
      if (common) {
        state.common = common;
      } else if (committed && xid.num <= this.tree.commitIndex) {
        // Its irreversible block is not ours: another chain, or a fork past our irreversible block.
        return this.disconnect(peer, NO_COMMON_BLOCK, true);
      } else if (committed) {
        // The peer is ahead of us: wait for its blocks, which it sends once it has our hellos.
        state.common = xid;
        const behind = xid.num - this.tree.head.num;
        const text = behind > 0 ? `Behind the peer by ${behind} blocks` : `The peer's irreversible block ${xid.num} is on another fork than ours`;
        this.out.log.push({ level: 'info', peer, text });
        return;
      } else {
        return;
      }
    }
    if (state.helloCommitted) this.becomeReady(peer, state.common);
  }

  private snapshotSent(peer: PeerId, block: B | undefined): void {
    const link = this.links.get(peer);
    if (!link || link.state.phase !== 'SendSnapshot') return;
    if (block === undefined) return this.disconnect(peer, `No snapshot to send: our block log starts at ${this.logStart}, after the peer's irreversible block`);
    const xid = xidOf(this.options.headerOf(block));
    link.state = readyState(xid, xid);
    this.sendNext(peer);
  }

  /**
   * A snapshot replaced our state: its block is the root of a new tree. The link it came from
   * streams on after it; the other links start their hellos again.
   */
  private snapshotLoaded(peer: PeerId, block: B): void {
    const header = this.options.headerOf(block);
    this.tree = new BlockTree<B>(header, block, this.options.sizeOf);
    this.applyingId = undefined;
    this.logStart = header.num;
    for (const [id, link] of this.links) {
      link.state = id === peer ? readyState(xidOf(header), xidOf(header)) : startState(xidOf(header));
      this.sendNext(id);
      // A peer that said its irreversible block before says nothing again: that hello counts
      // anew (it may now need the snapshot from us).
      if (id !== peer && link.peerCommitted && this.links.has(id)) this.receiveHello(id, { kind: 'HelloRequest', body: { xid: link.peerCommitted, committed: true } });
    }
  }

  private receiveBlock(peer: PeerId, block: B): void {
    const header = this.options.headerOf(block);
    const outcome = this.tree.insert(header, block, peer);
    switch (outcome) {
      case 'added':
        this.updateLastReceived(peer, xidOf(header));
        this.applyNext();
        break;
      case 'known':
        this.updateLastReceived(peer, xidOf(header));
        break;
      case 'old':
        break;
      case 'orphan':
        this.out.log.push({ level: 'debug', peer, text: `Dropped block ${header.num} ${header.id}: its parent is unknown` });
        break;
      case 'blacklisted':
        this.out.log.push({ level: 'debug', peer, text: `Ignored block ${header.num} ${header.id}: it descends from a block that failed` });
        break;
      case 'misnumbered':
        this.disconnect(peer, `Block ${header.num} ${header.id} does not follow its parent`, true);
        break;
      case 'crowded':
        this.out.log.push({ level: 'debug', peer, text: `Dropped block ${header.num} ${header.id}: it is not the best block, and the link's blocks waiting to be applied are at the limit` });
        break;
    }
  }

  private receiveApplied(id: BlockIdHex, failure: string | undefined, commit: number | undefined): void {
    if (id !== this.applyingId) {
      throw new SyncError('SYNC_UNEXPECTED_RESULT', `An apply result for block ${id}, which sync did not ask to apply`);
    }
    this.applyingId = undefined;
    // Its parent is the head while it applies and commits stop at the head: it is still in the tree.
    const header = this.tree.header(id)!;
    if (failure === undefined) {
      this.tree.markApplied(id);
      if (commit !== undefined) this.commit(commit);
    } else {
      const removed = this.tree.markFailed(id);
      this.out.dropped.push(...removed);
      this.out.log.push({
        level: 'warning',
        text: `Block ${header.num} ${id} failed (${failure}); it and ${removed.length - 1} descendants are blacklisted`,
      });
    }
    this.applyNext();
  }

  private addProduced(block: B): void {
    const header = this.options.headerOf(block);
    const head = this.tree.head;
    if (header.previous !== head.id || header.num !== head.num + 1 || compareOrder(header, head) <= 0) {
      throw new SyncError('SYNC_NOT_HEAD', `Produced block ${header.num} ${header.id} does not extend the head ${head.num} ${head.id}`);
    }
    this.tree.insert(header, block);
    this.tree.markApplied(header.id);
  }

  private commit(num: number): void {
    const result = this.tree.commit(num);
    if (!result) return;
    this.out.committed.push(...result.committed);
    this.out.dropped.push(...result.dropped);
  }

  /** Asks for the next block on the path to the best block, unless one is being applied. */
  private applyNext(): void {
    if (this.applyingId !== undefined) return;
    const next = this.tree.nextToApply();
    if (!next) return;
    this.applyingId = next.id;
    this.tree.beginApply(next.id);
    this.out.apply.push({ header: next, block: this.tree.block(next.id)!, sender: this.tree.sender(next.id) });
  }

  /** psibase's update_last_received: a block from the peer is one it has. */
  private updateLastReceived(peer: PeerId, xid: BlockXid): void {
    const link = this.links.get(peer)!;
    const state = link.state;
    if (state.phase === 'SendSnapshot') return;
    if (state.phase === 'Start') {
      link.state = readyState(this.commonAncestor(xid)!, xid);
      this.sendNext(peer);
      return;
    }
    state.lastReceived = xid;
    // So that the block is not echoed back to where it came from.
    if (this.tree.onHeadChain(xid) && xid.num > state.lastSent.num) state.lastSent = xid;
  }

  /** psibase's on_fork_switch: hellos and streams move back onto the new head chain. */
  private onHeadChange(): void {
    for (const [peer, link] of this.links) {
      const state = link.state;
      if (state.phase === 'Start') {
        const hello = this.commonAncestor(state.hello);
        if (hello && hello.id !== state.hello.id) {
          state.hello = hello;
          state.helloSent = false;
        }
        if (state.common && this.tree.header(state.common.id)) state.common = this.commonAncestor(state.common);
      } else if (state.phase === 'Ready') {
        state.lastSent = this.commonAncestor(state.lastSent) ?? state.lastSent;
        if (this.tree.header(state.lastReceived.id)) {
          const received = this.commonAncestor(state.lastReceived)!;
          if (received.num > state.lastSent.num) state.lastSent = received;
        }
      }
      this.sendNext(peer);
    }
  }

  private sendNext(peer: PeerId): void {
    const link = this.links.get(peer)!;
    if (link.sending) return;
    const state = link.state;
    if (state.phase === 'Start') return this.sendHello(peer, link, state);
    if (state.phase === 'SendSnapshot' || state.lastSent.num >= this.tree.head.num) return;
    const block = this.headChainBlock(state.lastSent.num + 1);
    state.lastSent = xidOf(this.options.headerOf(block));
    link.sending = true;
    this.out.sends.push({ peer, message: { kind: 'BlockMessage', body: { block } } });
  }

  /** psibase's async_send_next(Start): hellos from the head back until a committed one. */
  private sendHello(peer: PeerId, link: LinkSync, state: StartState): void {
    if (state.helloCommitted) {
      if (!state.common) return;
      const common = this.commonAncestor(state.common);
      if (common) return this.becomeReady(peer, common);
      // A committed block of the peer's ahead of ours: its blocks will come.
      if (state.common.num > this.tree.commitIndex) return;
      return this.disconnect(peer, NO_COMMON_BLOCK, true);
    }
    if (state.helloSent) {
      const parent = this.tree.header(this.tree.header(state.hello.id)?.previous ?? '');
      // Without the parent, irreversibility has moved past the hello: go to the committed block.
      state.hello = xidOf(parent ?? this.tree.committed);
    }
    state.helloSent = true;
    state.helloCommitted = state.hello.num <= this.tree.commitIndex;
    link.sending = true;
    this.out.sends.push({ peer, message: { kind: 'HelloRequest', body: { xid: state.hello, committed: state.helloCommitted } } });
  }

  private becomeReady(peer: PeerId, common: BlockXid): void {
    const link = this.links.get(peer)!;
    link.state = readyState(common, common);
    this.sendNext(peer);
  }

  /** Closes the link; `offence`: the peer sent something invalid (another chain's block, a misnumbered one). */
  private disconnect(peer: PeerId, reason: string, offence?: true): void {
    this.links.delete(peer);
    this.out.disconnects.push({ peer, reason, ...(offence ? { offence } : {}) });
  }

  /**
   * psibase's get_common_ancestor: the nearest ancestor of a block on the head chain (itself when
   * on it); undefined for a block we do not have, or one off our irreversible chain.
   */
  private commonAncestor(xid: BlockXid): BlockXid | undefined {
    const inTree = this.tree.headChainAncestor(xid.id);
    if (inTree) return xidOf(inTree);
    if (xid.num <= this.tree.commitIndex && this.headChainAt(xid.num).id === xid.id) return xid;
    return undefined;
  }

  /** The head chain's block numbered `num` (2 <= num <= head), from the tree or the block log. */
  private headChainBlock(num: number): B {
    const header = num >= this.tree.commitIndex ? this.tree.headChainAt(num) : undefined;
    return (header && this.tree.block(header.id)) ?? this.committedBlock(num);
  }

  private committedBlock(num: number): B {
    const block = this.options.committedBlocks.blockAt(num);
    if (block === undefined) throw new SyncError('SYNC_BAD_LOG', `The block log has no block ${num} (commit index ${this.tree.commitIndex})`);
    return block;
  }
}
