// Routers wired to each other in process: a plain loop carries every send to the other end of
// its link as a `receive` there, in order, until nothing is left to carry. Node i reaches node j
// over the link whose peer id, on i's side, is j. The clock only moves when a test moves it.
import * as assert from 'uvu/assert';
import { accountNumberFromName } from '../../../../host-api/names/index.js';
import { decodeMessage, type P2PMessage, type SignedMessage } from '../../../../runtime/network/messages/index.js';
import { Router, type Delivered, type RoutingEvent, type RoutingReady, type RoutingTimer } from '../../../../runtime/network/routing/index.js';

export const name = (text: string): bigint => accountNumberFromName(text);

export interface Carried {
  readonly from: number;
  readonly to: number;
  readonly message: P2PMessage;
  readonly afterBlock?: Uint8Array;
}

export class RoutedNetwork {
  readonly routers: Router[];
  /** What each node handed up, in order. */
  readonly delivered: Delivered[][];
  /** Every message carried, in order. */
  readonly carried: Carried[] = [];
  readonly timers: Map<string, RoutingTimer>[];
  readonly logs: string[][];
  readonly links = new Set<string>();
  now = 0;
  private readonly queue: { from: number; to: number; frame: Uint8Array; afterBlock?: Uint8Array }[] = [];

  /** `verify` decides signatures for every node (true: all pass). */
  constructor(size: number, readonly verify: (node: number, message: SignedMessage) => boolean = () => true) {
    this.routers = Array.from({ length: size }, (_, i) => new Router({
      routerId: BigInt(1000 + i),
      verify: (message) => this.verify(i, message),
    }));
    this.delivered = this.routers.map(() => []);
    this.timers = this.routers.map(() => new Map());
    this.logs = this.routers.map(() => []);
  }

  /** Gives node `node` an event and queues what it sends. */
  step(node: number, event: RoutingEvent): RoutingReady {
    const ready = this.routers[node]!.step(event, this.now);
    for (const send of ready.sends) {
      if (!this.links.has(linkKey(node, send.peer))) continue; // the link went down meanwhile
      this.queue.push({ from: node, to: send.peer, frame: send.frame, afterBlock: send.afterBlock });
    }
    this.delivered[node]!.push(...ready.delivered);
    for (const timer of ready.timers) this.timers[node]!.set(timer.name, timer);
    for (const entry of ready.log) this.logs[node]!.push(`${entry.level}: ${entry.text}`);
    for (const { peer } of ready.disconnects) this.unlink(node, peer);
    return ready;
  }

  /** Carries queued messages until none are left; fails if that never happens. */
  settle(limit = 100_000): void {
    for (let n = 0; this.queue.length; n++) {
      assert.ok(n < limit, 'the network does not settle');
      const { from, to, frame, afterBlock } = this.queue.shift()!;
      if (!this.links.has(linkKey(from, to))) continue;
      const message = decodeMessage(frame);
      this.carried.push(afterBlock ? { from, to, message, afterBlock } : { from, to, message });
      this.step(to, { type: 'receive', peer: from, message });
    }
  }

  link(a: number, b: number): void {
    this.links.add(linkKey(a, b));
    this.links.add(linkKey(b, a));
    this.step(a, { type: 'linkUp', peer: b });
    this.step(b, { type: 'linkUp', peer: a });
  }

  unlink(a: number, b: number): void {
    if (!this.links.delete(linkKey(a, b))) return;
    this.links.delete(linkKey(b, a));
    this.step(a, { type: 'linkDown', peer: b });
    this.step(b, { type: 'linkDown', peer: a });
  }

  /** Every node learns the producer set; `producerAt` maps node → its producer name. */
  setProducers(producerAt: ReadonlyMap<number, bigint>): void {
    for (let i = 0; i < this.routers.length; i++) {
      this.step(i, { type: 'self', name: producerAt.get(i) ?? null });
      this.step(i, { type: 'producers', producers: producerAt.values() });
    }
  }

  /** Fires node's timer if it is due at the current time. */
  fireDue(node: number): void {
    for (const [timerName, timer] of [...this.timers[node]!]) {
      if (timer.at > this.now) continue;
      this.timers[node]!.delete(timerName);
      this.step(node, { type: 'timer', name: timer.name });
    }
  }
}

function linkKey(a: number, b: number): string {
  return `${a}>${b}`;
}
