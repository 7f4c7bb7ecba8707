import type { PeerId } from '../peer-io.js';
import { compareOrder, type BlockIdHex, type BlockXid, type SyncHeader } from './block-header.js';

// The blocks above the commit index, as a tree (psibase's ForkDb, docs/p2p.md §3.4, §3.6): the
// committed block is the root; every other block hangs under its parent. The best block is the
// one of greatest (term, blockNum, id) among those not blacklisted.
//
// Unlike psibase, which keeps a state per block, a node holds one state: the chain's head, with
// undo records back to the committed block (docs/chain.md §1.6). So "applied" means "on the path
// of the state", the head is the tip of that path, and applying a block on another fork first
// takes the path back to the block's parent. The head reaches the best block once the path to
// it has been applied. BFT may restrict fork choice to one block's subtree (psibase's
// set_subtree, §3.6).
//
// A peer must not fill memory with blocks that wait here (docs/p2p.md "Peers that attack"): a
// received block that would not be the best one is dropped while the blocks its link sent that
// wait to be applied already weigh MAX_WAITING_OFF_BEST_BYTES; the best chain's blocks are
// always taken, and the caller slows a link whose blocks on the way to the best one pile up
// (`waitingOnBestPath`).

interface TreeNode<B> {
  readonly header: SyncHeader;
  /** Absent only for the pre-genesis root. */
  readonly block: B | undefined;
  /** The link a received block came from; none for the root and produced blocks. */
  readonly sender: PeerId | undefined;
  readonly parent: TreeNode<B> | undefined;
  readonly children: TreeNode<B>[];
  applied: boolean;
  /** Received and not yet applied: counted in its sender's waiting bytes. */
  waiting: boolean;
}

/** A link's waiting blocks past which its blocks that are not the best are dropped (one is always taken, however large). */
export const MAX_WAITING_OFF_BEST_BYTES = 4 * 1024 * 1024;

/** The blocks of one link on the way to the best block, not yet applied. */
export interface WaitingBlocks {
  blocks: number;
  bytes: number;
}

export type InsertOutcome =
  | 'added'
  | 'known'        // already in the tree
  | 'old'          // at or below the commit index: ignored (docs/p2p.md §3.4)
  | 'orphan'       // parent unknown: dropped, nothing is requested (§3.4)
  | 'blacklisted'  // the block or its parent failed to apply earlier
  | 'misnumbered'  // its number is not its parent's plus one
  | 'crowded';     // not the best block, and its link's waiting blocks are at the limit: dropped

/** What a commit hands over: the blocks that became irreversible, and those that left the tree. */
export interface CommitResult<B> {
  readonly committed: { header: SyncHeader; block: B }[];
  readonly dropped: BlockIdHex[];
}

export class BlockTree<B> {
  private readonly nodes = new Map<BlockIdHex, TreeNode<B>>();
  /** Ids of blocks that failed to apply, and of their descendants, above the commit index. */
  private readonly blacklist = new Map<BlockIdHex, number>();
  private root: TreeNode<B>;
  private headNode: TreeNode<B>;
  private bestNode: TreeNode<B>;
  /** Fork choice keeps to this block's subtree (BFT); none: the whole tree. */
  private subtreeRoot: TreeNode<B> | undefined;
  /** The head's chain from the root: headChain[n - root.num] is its block numbered n. */
  private headChain: TreeNode<B>[];
  /** Per link, the bytes of the blocks it sent that are not applied yet. */
  private readonly waitingBytes = new Map<PeerId, number>();

  /**
   * `root` is the committed block (applied); `block` is absent for the pre-genesis state.
   * `sizeOf` weighs a received block (its frame's bytes); without it blocks weigh nothing.
   */
  constructor(root: SyncHeader, block: B | undefined, private readonly sizeOf: (block: B) => number = () => 0) {
    this.root = { header: root, block, sender: undefined, parent: undefined, children: [], applied: true, waiting: false };
    this.nodes.set(root.id, this.root);
    this.headNode = this.bestNode = this.root;
    this.headChain = [this.root];
  }

  get commitIndex(): number {
    return this.root.header.num;
  }

  get committed(): SyncHeader {
    return this.root.header;
  }

  /** The applied block of greatest order. */
  get head(): SyncHeader {
    return this.headNode.header;
  }

  /** The viable block of greatest order; the head once every block on its path is applied. */
  get best(): SyncHeader {
    return this.bestNode.header;
  }

  header(id: BlockIdHex): SyncHeader | undefined {
    return this.nodes.get(id)?.header;
  }

  block(id: BlockIdHex): B | undefined {
    return this.nodes.get(id)?.block;
  }

  sender(id: BlockIdHex): PeerId | undefined {
    return this.nodes.get(id)?.sender;
  }

  /** The head chain's block numbered `num`, for commit index <= num <= head. */
  headChainAt(num: number): SyncHeader | undefined {
    return this.headChain[num - this.root.header.num]?.header;
  }

  onHeadChain(xid: BlockXid): boolean {
    return this.headChainAt(xid.num)?.id === xid.id;
  }

  /** The nearest ancestor of a block in the tree that is on the head chain (itself if it is). */
  headChainAncestor(id: BlockIdHex): SyncHeader | undefined {
    let node = this.nodes.get(id);
    while (node && !this.onHeadChain(node.header)) node = node.parent;
    return node?.header;
  }

  insert(header: SyncHeader, block: B, sender?: PeerId): InsertOutcome {
    if (header.num <= this.commitIndex) return 'old';
    if (this.nodes.has(header.id)) return 'known';
    if (this.blacklist.has(header.id)) return 'blacklisted';
    if (this.blacklist.has(header.previous)) {
      this.blacklist.set(header.id, header.num);
      return 'blacklisted';
    }
    const parent = this.nodes.get(header.previous);
    if (!parent) return 'orphan';
    if (header.num !== parent.header.num + 1) return 'misnumbered';
    const node: TreeNode<B> = { header, block, sender, parent, children: [], applied: false, waiting: sender !== undefined };
    const best = compareOrder(header, this.bestNode.header) > 0 && this.viable(node);
    if (sender !== undefined) {
      const waiting = this.waitingBytes.get(sender) ?? 0;
      if (!best && waiting >= MAX_WAITING_OFF_BEST_BYTES) return 'crowded';
      this.waitingBytes.set(sender, waiting + this.sizeOf(block));
    }
    parent.children.push(node);
    this.nodes.set(header.id, node);
    if (best) this.bestNode = node;
    return 'added';
  }

  /** Per link, its blocks on the path to the best block that are not applied yet. */
  waitingOnBestPath(): Map<PeerId, WaitingBlocks> {
    const out = new Map<PeerId, WaitingBlocks>();
    for (let node = this.bestNode; !node.applied; node = node.parent!) {
      if (node.sender === undefined) continue;
      const entry = out.get(node.sender) ?? { blocks: 0, bytes: 0 };
      entry.blocks++;
      entry.bytes += this.sizeOf(node.block!);
      out.set(node.sender, entry);
    }
    return out;
  }

  /**
   * Restricts fork choice to a block and its descendants (§3.6 `set_subtree`); the committed
   * block lifts the restriction. False when the block is not in the tree.
   */
  restrict(id: BlockIdHex): boolean {
    const node = this.nodes.get(id);
    if (!node) return false;
    this.subtreeRoot = node === this.root ? undefined : node;
    this.bestNode = this.greatest();
    return true;
  }

  /** Puts back a block this node executed before a restart, on top of the head (its state is still there). */
  restoreApplied(header: SyncHeader, block: B): void {
    if (header.previous !== this.headNode.header.id || this.insert(header, block) !== 'added') {
      throw new RangeError(`block ${header.num} ${header.id} does not extend the head ${this.headNode.header.num}`);
    }
    this.markApplied(header.id);
  }

  /** The first block not yet applied on the path to the best block (its parent is applied). */
  nextToApply(): SyncHeader | undefined {
    let next: TreeNode<B> | undefined;
    for (let node = this.bestNode; !node.applied; node = node.parent!) next = node;
    return next?.header;
  }

  /**
   * A block is handed out to be applied: the state goes back to its parent first (leaving the
   * blocks above it on the head chain), so the parent is the head until the outcome is known.
   */
  beginApply(id: BlockIdHex): void {
    const parent = this.nodes.get(id)?.parent;
    if (!parent?.applied) throw new RangeError(`block ${id} cannot be applied: its parent has no state`);
    this.revertTo(parent);
  }

  /** Records a successful application of a block whose parent is the head: it is the head now. */
  markApplied(id: BlockIdHex): void {
    const node = this.nodes.get(id);
    if (!node || node.applied || node.parent !== this.headNode) return;
    this.stopWaiting(node);
    node.applied = true;
    this.headNode = node;
    this.headChain.push(node);
  }

  /** A block that failed to apply blacklists its subtree (§3.4); returns the ids removed. */
  markFailed(id: BlockIdHex): BlockIdHex[] {
    const node = this.nodes.get(id);
    if (!node || node.applied) return [];
    const parent = node.parent!;
    parent.children.splice(parent.children.indexOf(node), 1);
    const removed = this.subtree(node);
    for (const n of removed) {
      this.stopWaiting(n);
      this.nodes.delete(n.header.id);
      this.blacklist.set(n.header.id, n.header.num);
    }
    if (this.subtreeRoot && !this.nodes.has(this.subtreeRoot.header.id)) this.subtreeRoot = undefined;
    if (!this.nodes.has(this.bestNode.header.id)) this.bestNode = this.greatest();
    return removed.map((n) => n.header.id);
  }

  /**
   * Makes the head chain's block at min(num, head) the new root (§3.6 `commit`), dropping every
   * block that does not descend from it. Undefined when the commit index does not advance.
   */
  commit(num: number): CommitResult<B> | undefined {
    const target = Math.min(num, this.headNode.header.num);
    if (target <= this.commitIndex) return undefined;
    const newRoot = this.headChain[target - this.commitIndex]!;
    const committed = this.headChain.slice(1, target - this.commitIndex + 1);
    const kept = new Set(this.subtree(newRoot));
    const handedOver = new Set(this.headChain.slice(0, target - this.commitIndex));
    const dropped: BlockIdHex[] = [];
    for (const [id, node] of this.nodes) {
      if (kept.has(node)) continue;
      this.stopWaiting(node);
      this.nodes.delete(id);
      if (!handedOver.has(node)) dropped.push(id);
    }
    for (const [id, n] of this.blacklist) if (n <= target) this.blacklist.delete(id);
    this.headChain = this.headChain.slice(target - this.commitIndex);
    this.root = newRoot;
    if (this.subtreeRoot && (!kept.has(this.subtreeRoot) || this.subtreeRoot === newRoot)) this.subtreeRoot = undefined;
    if (!kept.has(this.bestNode)) this.bestNode = this.greatest();
    return { committed: committed.map((n) => ({ header: n.header, block: n.block! })), dropped };
  }

  /** The block no longer waits (applied or gone): its sender's waiting bytes go down. */
  private stopWaiting(node: TreeNode<B>): void {
    if (!node.waiting) return;
    node.waiting = false;
    const left = (this.waitingBytes.get(node.sender!) ?? 0) - this.sizeOf(node.block!);
    if (left > 0) this.waitingBytes.set(node.sender!, left);
    else this.waitingBytes.delete(node.sender!);
  }

  private subtree(top: TreeNode<B>): TreeNode<B>[] {
    const out = [top];
    for (let i = 0; i < out.length; i++) out.push(...out[i]!.children);
    return out;
  }

  private greatest(): TreeNode<B> {
    let best = this.subtreeRoot ?? this.root;
    for (const node of this.subtreeRoot ? this.subtree(this.subtreeRoot) : this.nodes.values()) {
      if (compareOrder(node.header, best.header) > 0) best = node;
    }
    return best;
  }

  /** Whether fork choice may pick the block: it is in the restricted subtree, if there is one. */
  private viable(node: TreeNode<B>): boolean {
    const top = this.subtreeRoot;
    if (!top) return true;
    let n: TreeNode<B> | undefined = node;
    while (n && n.header.num > top.header.num) n = n.parent;
    return n === top;
  }

  /** The state goes back to `node`, an applied block: those above it on the head chain are not applied any more. */
  private revertTo(node: TreeNode<B>): void {
    const keep = node.header.num - this.commitIndex + 1;
    for (let i = keep; i < this.headChain.length; i++) this.headChain[i]!.applied = false;
    this.headChain.length = keep;
    this.headNode = node;
  }
}
