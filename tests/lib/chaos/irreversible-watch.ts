// Watches the irreversible blocks of every node while a schedule runs, through each node's metrics
// (tsibase_irreversible_block_number) and explorer (the block ids): a node's irreversible block
// never goes back, and no two nodes ever hold different irreversible blocks at one height. Blocks
// at or below a node's irreversible one cannot change, so each is read once per node as the
// number passes it; the final check reads them all again, so a block replaced since shows too.
import { clientOf, irreversibleOf } from '../producer-network.js';
import { withinDeadline } from './deadline.js';
import type { ChaosNode } from './chaos-network.js';

/** Blocks read per explorer request. */
const PAGE = 200;

interface BlockPage {
  blocks: { edges: { node: { id: string; header: { blockNum: number } } }[] };
}

/** The ids of blocks `from` .. `to` on `node`, by number. */
async function blockIds(node: ChaosNode, from: number, to: number): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  for (let start = from; start <= to; start += PAGE) {
    const end = Math.min(to, start + PAGE - 1);
    const page = await clientOf(node).graphql('explorer', `{ blocks(ge: ${start}, le: ${end}, first: ${PAGE}) { edges { node { id header { blockNum } } } } }`) as unknown as BlockPage;
    for (const { node: block } of page.blocks.edges) ids.set(block.header.blockNum, block.id);
  }
  return ids;
}

export class IrreversibleWatch {
  /** Per node: the id of each irreversible block read so far. */
  private readonly seen: Map<number, string>[];
  /** Per height: the first id any node held irreversible there, and which node. */
  private readonly agreed = new Map<number, { id: string; node: string }>();
  private readonly irreversible: number[];
  /** Nodes whose read is under way. */
  private readonly reading = new Set<number>();
  private readonly reported = new Set<string>();
  readonly violations: string[] = [];

  constructor(private readonly nodes: readonly ChaosNode[], private readonly clock: () => string) {
    this.seen = nodes.map(() => new Map());
    this.irreversible = nodes.map(() => 0);
  }

  /** Each node's irreversible block as last read. */
  get irreversibleBlocks(): readonly number[] {
    return this.irreversible;
  }

  /**
   * Reads every node once: its irreversible number, and the ids of the blocks it passed since. A
   * node that does not answer in time is a violation; it is read again once that read has ended.
   */
  async sample(): Promise<void> {
    await Promise.all(this.nodes.map(async (node) => {
      if (this.reading.has(node.index)) return;
      this.reading.add(node.index);
      const read = this.sampleNode(node).finally(() => this.reading.delete(node.index));
      await withinDeadline(`${node.label}'s API`, read).catch((err: Error) => this.fail(err.message));
    }));
  }

  /**
   * Reads every irreversible block of every node again and compares them with what was read
   * before and with the other nodes'.
   */
  async finalCheck(): Promise<void> {
    await this.sample();
    for (const node of this.nodes) {
      const ids = await withinDeadline(`${node.label}'s explorer`, blockIds(node, 2, this.irreversible[node.index]!));
      for (const [num, id] of ids) this.record(node, num, id);
      for (let num = 2; num <= this.irreversible[node.index]!; num++) {
        if (!ids.has(num)) this.fail(`${node.label} has no block ${num}, below its irreversible block ${this.irreversible[node.index]}`);
      }
    }
  }

  private async sampleNode(node: ChaosNode): Promise<void> {
    const now = await irreversibleOf(node);
    const before = this.irreversible[node.index]!;
    if (!Number.isInteger(now)) return this.fail(`${node.label} reports no irreversible block`);
    if (now < before) this.fail(`${node.label}'s irreversible block went back from ${before} to ${now}`);
    if (now <= before) return;
    this.irreversible[node.index] = now;
    for (const [num, id] of await blockIds(node, Math.max(before + 1, 2), now)) this.record(node, num, id);
  }

  private record(node: ChaosNode, num: number, id: string): void {
    const mine = this.seen[node.index]!;
    const earlier = mine.get(num);
    if (earlier !== undefined && earlier !== id) this.fail(`${node.label} replaced its irreversible block ${num}: ${earlier} became ${id}`);
    mine.set(num, id);
    const agreed = this.agreed.get(num);
    if (!agreed) this.agreed.set(num, { id, node: node.label });
    else if (agreed.id !== id) this.fail(`irreversible block ${num} differs: ${agreed.id} on ${agreed.node}, ${id} on ${node.label}`);
  }

  /** A violation, once (the final check may find it again), with the time it was first seen. */
  private fail(violation: string): void {
    if (this.reported.has(violation)) return;
    this.reported.add(violation);
    this.violations.push(`${this.clock()} ${violation}`);
  }
}
