import type { Random } from './random.js';
import type { PeerId } from '../peer-io.js';
import type { SyncMessage } from '../sync/sync-messages.js';
import type { EventQueue } from './event-queue.js';
import type { ModelBlock } from './model-block.js';
import type { Schedule } from './schedule.js';

// The links between simulated nodes. A real link is a WebSocket over TCP (docs/p2p.md "What we
// build" item 1): reliable and in order. So a link never loses or reorders one message and keeps
// the next: a "dropped" message kills the link (both ends see it go down, and the dialler redials),
// and a "duplicated" one is delivered and then the link dies, so the reconnect's hello exchange
// sends it again. Messages are reordered only across different links, by per-message delays.

/** What the network calls on a node; the peer id of a link is its connection number. */
export interface LinkEndpoint {
  readonly alive: boolean;
  linkUp(peer: PeerId): void;
  linkDown(peer: PeerId): void;
  receive(peer: PeerId, message: SyncMessage<ModelBlock>): void;
  sent(peer: PeerId): void;
  /** Which nodes this one reaches may have changed (a node's router learns it from its links and its neighbours). */
  routesChanged(): void;
}

interface Connection {
  readonly id: number;
  readonly ends: readonly [number, number];
  up: boolean;
  /** Per direction (from ends[0], from ends[1]): the last delivery time, so each stays in order. */
  readonly lastDelivery: [number, number];
}

export class SimNetwork {
  private readonly connections = new Map<number, Connection>();
  /** Per edge: its live connection, or whether a redial is pending. */
  private readonly edgeLinks: (Connection | 'dialling')[];
  private readonly isolated = new Set<number>();
  private nextConnection = 1;

  constructor(
    private readonly queue: EventQueue,
    private readonly random: Random,
    private readonly schedule: Schedule,
    private readonly endpoints: readonly LinkEndpoint[],
  ) {
    this.edgeLinks = schedule.edges.map(() => 'dialling');
    schedule.edges.forEach((_, edge) => this.queue.after(0, () => this.dial(edge)));
  }

  send(from: number, peer: PeerId, message: SyncMessage<ModelBlock>): void {
    const connection = this.connections.get(peer);
    if (!connection?.up) return;
    const direction = connection.ends[0] === from ? 0 : 1;
    const to = connection.ends[1 - direction]!;
    this.queue.after(this.random.int(this.schedule.maxSendMs + 1), () => {
      if (connection.up) this.endpoints[from]!.sent(peer);
    });
    const faulty = this.queue.now < this.schedule.quietAt;
    const fate = this.random.next();
    const delay = 1 + this.random.int(this.schedule.maxDelayMs);
    if (faulty && fate < this.schedule.dropRate) {
      this.queue.after(delay, () => this.fail(connection));
      return;
    }
    const at = Math.max(this.queue.now + delay, connection.lastDelivery[direction]);
    connection.lastDelivery[direction] = at;
    const duplicate = faulty && fate < this.schedule.dropRate + this.schedule.duplicateRate;
    this.queue.at(at, () => {
      if (!connection.up) return;
      this.endpoints[to]!.receive(peer, message);
      if (duplicate) this.fail(connection);
    });
  }

  /**
   * A consensus message from one node to another. The node routes these over its links
   * (docs/p2p.md §A); here a route is as good as a path: the message arrives after one delay
   * unless either node is down, a partition separates them, or it is dropped while faults last.
   */
  deliverRouted(from: number, to: number, deliver: () => void, lossKillsLink = false): void {
    if (!this.endpoints[from]!.alive || this.separated(from, to)) return;
    if (this.queue.now < this.schedule.quietAt && this.random.next() < this.schedule.dropRate) {
      // Over TCP a message is lost only with its link (BFT resends its views on a new link).
      if (lossKillsLink) {
        const first = [...this.connections.values()].find((c) => c.ends.includes(from));
        if (first) this.fail(first);
      }
      return;
    }
    this.queue.after(1 + this.random.int(this.schedule.maxDelayMs), () => {
      if (this.endpoints[to]!.alive && !this.separated(from, to)) deliver();
    });
  }

  /** The node at the other end of one of `from`'s links. */
  peerNode(from: number, peer: PeerId): number | undefined {
    const ends = this.connections.get(peer)?.ends;
    return ends && (ends[0] === from ? ends[1] : ends[0]);
  }

  /** Whether `from` reaches `to` now (both up, no partition between them). */
  reaches(from: number, to: number): boolean {
    return this.endpoints[from]!.alive && this.endpoints[to]!.alive && !this.separated(from, to);
  }

  /** A node closes a link (sync asked to disconnect). */
  close(peer: PeerId): void {
    const connection = this.connections.get(peer);
    if (connection) this.fail(connection);
  }

  /** A node crashed: its links die with it. */
  crash(node: number): void {
    for (const connection of [...this.connections.values()]) {
      if (connection.ends.includes(node)) this.fail(connection);
    }
    this.routesChanged();
  }

  /** Every node learns what it reaches now, each after a message delay (route updates travel). */
  routesChanged(): void {
    this.endpoints.forEach((endpoint) => {
      this.queue.after(1 + this.random.int(this.schedule.maxDelayMs), () => { if (endpoint.alive) endpoint.routesChanged(); });
    });
  }

  /** Cuts every link between `side` and the other nodes until `heal` (a new partition replaces the last). */
  partition(side: readonly number[]): void {
    this.isolated.clear();
    for (const node of side) this.isolated.add(node);
    for (const connection of [...this.connections.values()]) {
      if (this.separated(connection.ends[0], connection.ends[1])) this.fail(connection);
    }
    this.routesChanged();
  }

  heal(): void {
    this.isolated.clear();
    this.routesChanged();
  }

  private separated(a: number, b: number): boolean {
    return this.isolated.has(a) !== this.isolated.has(b);
  }

  private dial(edge: number): void {
    const [a, b] = this.schedule.edges[edge]!;
    if (!this.endpoints[a]!.alive || !this.endpoints[b]!.alive || this.separated(a, b)) {
      this.queue.after(this.schedule.redialMs, () => this.dial(edge));
      return;
    }
    // The handshake takes one trip; the link is up if nothing broke meanwhile.
    this.queue.after(1 + this.random.int(this.schedule.maxDelayMs), () => {
      if (!this.endpoints[a]!.alive || !this.endpoints[b]!.alive || this.separated(a, b)) return this.dial(edge);
      const connection: Connection = { id: this.nextConnection++, ends: [a, b], up: true, lastDelivery: [0, 0] };
      this.connections.set(connection.id, connection);
      this.edgeLinks[edge] = connection;
      this.endpoints[a]!.linkUp(connection.id);
      this.endpoints[b]!.linkUp(connection.id);
    });
  }

  private fail(connection: Connection): void {
    if (!connection.up) return;
    connection.up = false;
    this.connections.delete(connection.id);
    for (const node of connection.ends) {
      if (this.endpoints[node]!.alive) this.endpoints[node]!.linkDown(connection.id);
    }
    const edge = this.edgeLinks.indexOf(connection);
    this.edgeLinks[edge] = 'dialling';
    this.queue.after(this.schedule.redialMs, () => this.dial(edge));
  }
}
