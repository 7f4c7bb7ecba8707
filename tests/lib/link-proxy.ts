// A TCP proxy on one link between two test nodes: the dialling node is given the proxy's URL as
// its peer, and each connection it makes is forwarded to the other node. The test makes the link
// slow (a delay per direction), stalled (a direction not read: its bytes wait in the kernel and in
// the sender, as over a path that loses every segment until it heals, when TCP delivers them),
// refused (new connections reset) or cut (every connection reset). The proxy never drops or
// reorders bytes of one connection, since TCP does neither; links delayed differently deliver
// out of order with respect to each other.
import { createServer, connect, type Server, type Socket } from 'node:net';

/** Bytes from the node that dialled to the one it dialled, or back. */
export type LinkDirection = 'forward' | 'backward';

/** What the link does now; every field may be set alone. */
export interface LinkConditions {
  /** Each chunk read in that direction is written this much later (order kept). */
  readonly delayMs: Readonly<Record<LinkDirection, number>>;
  readonly stalled: Readonly<Record<LinkDirection, boolean>>;
  /** New connections are reset as they come. */
  readonly refused: boolean;
}

export const CLEAR_LINK: LinkConditions = { delayMs: { forward: 0, backward: 0 }, stalled: { forward: false, backward: false }, refused: false };

export interface ProxyEnds {
  /** Where the proxy listens (the dialling node's peer URL names it). */
  readonly listenHost: string;
  readonly targetHost: string;
  readonly targetPort: number;
  /** The address the proxy dials from, if not the system's choice. */
  readonly localAddress?: string;
}

/** One direction of one connection: reads `from`, writes `to`, as the conditions say. */
class Pipe {
  private readonly queue: { at: number; chunk: Buffer }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private blocked = false;

  constructor(private readonly from: Socket, private readonly to: Socket, private conditions: () => { delayMs: number; stalled: boolean }) {
    from.on('data', (chunk: Buffer) => this.push(chunk));
    // An empty chunk stands for the end of the stream.
    from.on('end', () => this.push(Buffer.alloc(0)));
    to.on('drain', () => {
      this.blocked = false;
      this.update();
    });
  }

  /** The conditions changed (or the far end drained): read and write as they say now. */
  update(): void {
    const { stalled } = this.conditions();
    if (stalled || this.blocked) this.from.pause();
    else this.from.resume();
    this.flush();
  }

  /** A chunk is due its delay from now; the queue is written in order, so a shorter delay never overtakes a longer one. */
  private push(chunk: Buffer): void {
    this.queue.push({ at: Date.now() + this.conditions().delayMs, chunk });
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.conditions().stalled) return;
    const now = Date.now();
    while (this.queue.length > 0 && this.queue[0]!.at <= now) {
      const { chunk } = this.queue.shift()!;
      if (this.to.destroyed) return;
      if (chunk.length === 0) {
        this.to.end();
        continue;
      }
      if (!this.to.write(chunk)) {
        this.blocked = true;
        this.from.pause();
      }
    }
    if (this.queue.length > 0) this.timer = setTimeout(() => this.flush(), this.queue[0]!.at - now);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** A dialler's connection and the proxy's connection to the target. */
class Connection {
  private readonly pipes: Pipe[] = [];

  constructor(readonly client: Socket, readonly upstream: Socket, conditions: () => LinkConditions, onClose: () => void) {
    const of = (direction: LinkDirection) => () => ({ delayMs: conditions().delayMs[direction], stalled: conditions().stalled[direction] });
    client.pause();
    upstream.once('connect', () => {
      this.pipes.push(new Pipe(client, upstream, of('forward')), new Pipe(upstream, client, of('backward')));
      this.update();
    });
    const close = () => {
      for (const pipe of this.pipes) pipe.stop();
      client.destroy();
      upstream.destroy();
      onClose();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
  }

  update(): void {
    for (const pipe of this.pipes) pipe.update();
  }

  /** Resets both ends (a TCP RST, as a middlebox that drops the connection sends). */
  reset(): void {
    this.client.resetAndDestroy();
    this.upstream.resetAndDestroy();
  }
}

export class LinkProxy {
  private readonly connections = new Set<Connection>();
  private conditions: LinkConditions = CLEAR_LINK;

  private constructor(private readonly server: Server, private readonly ends: ProxyEnds, readonly port: number) {
    server.on('connection', (client) => this.accept(client));
  }

  /** A proxy listening on a free port of `ends.listenHost`. */
  static start(ends: ProxyEnds): Promise<LinkProxy> {
    // Half-open: each direction ends on its own, after its delayed bytes.
    const server = createServer({ pauseOnConnect: true, noDelay: true, allowHalfOpen: true });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, ends.listenHost, () => {
        server.off('error', reject);
        resolve(new LinkProxy(server, ends, (server.address() as { port: number }).port));
      });
    });
  }

  /** The URL a node dials to reach the target through this proxy. */
  get url(): string {
    return `http://${this.ends.listenHost}:${this.port}`;
  }

  get current(): LinkConditions {
    return this.conditions;
  }

  /** Applies `conditions` to every connection now (and to those that come); refusing cuts the open ones. */
  set(conditions: LinkConditions): void {
    const refusing = conditions.refused && !this.conditions.refused;
    this.conditions = conditions;
    if (refusing) this.cut();
    for (const connection of this.connections) connection.update();
  }

  /** Resets every open connection. */
  cut(): void {
    for (const connection of this.connections) connection.reset();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.conditions.refused) return void client.resetAndDestroy();
    const { targetHost, targetPort, localAddress } = this.ends;
    const upstream = connect({ host: targetHost, port: targetPort, noDelay: true, allowHalfOpen: true, ...(localAddress ? { localAddress } : {}) });
    const connection = new Connection(client, upstream, () => this.conditions, () => this.connections.delete(connection));
    this.connections.add(connection);
  }
}
