// Transactions passed on to this producer while another one leads (docs/p2p.md "What we build"
// 4). Every producer gets each one passed on, and only the leader applies it; the others hold
// theirs, so that whichever of them is elected next puts them in its first block, without
// waiting for the nodes that passed them on to learn who leads now. A transaction is held until
// a block holds it or it expires; past HELD_MAX transactions or HELD_MAX_BYTES the oldest go
// first, so that what peers pass on cannot grow the node's memory without bound.

/** The most transactions held: at the rate one leader takes, several block slots' worth. */
export const HELD_MAX = 10_000;
/** The most bytes held (a peer may pass on large transactions). */
export const HELD_MAX_BYTES = 64 * 1024 * 1024;

interface Held {
  readonly packed: Uint8Array;
  /** When no block can hold it any more (ms since the epoch). */
  readonly expiresAt: number;
}

export class HeldTransactions {
  /** By transaction id (hex), oldest first. */
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;

  get size(): number {
    return this.held.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  hold(id: string, packed: Uint8Array, expiresAt: number): void {
    this.drop(id);
    this.held.set(id, { packed, expiresAt });
    this.heldBytes += packed.length;
    while (this.held.size > HELD_MAX || this.heldBytes > HELD_MAX_BYTES) this.drop(this.held.keys().next().value!);
  }

  /** A block holds these transactions (ids in hex): they need holding no more. */
  included(ids: readonly string[]): void {
    for (const id of ids) this.drop(id);
  }

  /** Takes every held transaction that has not expired at `now`, oldest first. */
  take(now: number): Uint8Array[] {
    const live = [...this.held.values()].filter((h) => h.expiresAt > now).map((h) => h.packed);
    this.held.clear();
    this.heldBytes = 0;
    return live;
  }

  private drop(id: string): void {
    const held = this.held.get(id);
    if (held === undefined) return;
    this.held.delete(id);
    this.heldBytes -= held.packed.length;
  }
}
