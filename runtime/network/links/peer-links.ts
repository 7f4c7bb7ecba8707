import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { text } from '../../http/replies.js';
import { closingReply, endWithReply, type WireRequest, type WireResponse } from '../../http/wire/index.js';
import type { NetworkLog, PeerId } from '../peer-io.js';
import { duplicateNotices, outgoingYields, type LinkIdentity } from './duplicate-links.js';
import { LinkError } from './link-error.js';
import { decodeLinkMessage, encodeLinkMessage, FIRST_LINK_TYPE, type LinkMessage } from './link-messages.js';
import { isP2PEndpoint, p2pRefusal, plainRequestRefusal, type Refusal } from './p2p-endpoint.js';
import { peerAddress, type PeerAddress } from './peer-url.js';
import { RedialSchedule, type RedialTimes } from './redial-schedule.js';

// The peer links of a node (docs/p2p.md "What we build" item 1, §1): websockets accepted at the
// p2p endpoint and dialled to peer URLs, each carrying opaque binary frames. Frames whose first
// byte is 64 or more are the link layer's own (IdMessage, HostnamesMessage and de-duplication,
// §1.4); the others go to the layer above, which also hears of links coming and going.

/** The largest frame a link carries (docs/p2p.md §1.2: beast's 16 MiB). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** How long a dial may take to get its 101 reply. */
const HANDSHAKE_MS = 10_000;
/** How long stopping waits for peers to answer the close handshake before cutting them off. */
const CLOSE_WAIT_MS = 2_000;
/** Websocket close codes (docs/p2p.md §1.2). */
const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_POLICY = 1008;
const CLOSE_RESTART = 1012;
const SHUTTING_DOWN: Refusal = { status: 503, body: 'The node is shutting down', headers: { 'Content-Type': 'text/html' } };
/** RFC 6455: a close frame's reason is at most 123 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

/** A live link, as the layer above and `/native/admin/peers` see it. */
export interface PeerLink {
  readonly id: PeerId;
  /** `host:port` of the remote (for a dialled link, the URL's), or a unix socket's path. */
  readonly endpoint: string;
  readonly direction: 'incoming' | 'outgoing';
  /** The URL we dialled, when we did (or took over from a duplicate link we dialled). */
  readonly url?: string;
}

/** The layer above: told of links and of the frames (first byte below 64) they bring. */
export interface LinkListener {
  onLinkUp(link: PeerLink): void;
  onLinkDown(link: PeerLink, reason: string): void;
  onMessage(linkId: PeerId, frame: Uint8Array): void;
}

/** The configuration the links follow (docs/administration.md §2), applied by `configure`. */
export interface LinkSettings {
  /** Accept incoming links. */
  readonly p2p: boolean;
  readonly peers: readonly string[];
  /** How many of `peers` (the first ones) to keep linked; true for all. */
  readonly autoconnect: number | boolean;
  /** The names this node is known by: announced in HostnamesMessage, and the Origins it accepts. */
  readonly hosts: readonly string[];
}

export interface PeerLinksOptions {
  /** This process's random node id (docs/p2p.md §1.4), never 0. */
  readonly nodeId: bigint;
  readonly log: Pick<NetworkLog, 'info' | 'warning'>;
  /** Autoconnect's redial times; psibase's by default. */
  readonly redial?: RedialTimes;
}

/** The URLs autoconnect keeps linked: the first `autoconnect` of `peers`, or all of them. */
function autoconnectUrls(settings: Pick<LinkSettings, 'peers' | 'autoconnect'>): readonly string[] {
  const { peers, autoconnect } = settings;
  return autoconnect === true ? peers : peers.slice(0, autoconnect === false ? 0 : autoconnect);
}

function closeReason(reason: string): string {
  const bytes = Buffer.from(reason, 'utf8');
  return bytes.length <= MAX_CLOSE_REASON_BYTES ? reason : bytes.subarray(0, MAX_CLOSE_REASON_BYTES).toString('utf8').replace(/\uFFFD$/, '');
}

function bytesOf(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

class Link implements LinkIdentity {
  peerLinkId = -1;
  nodeId: bigint | undefined;
  /** Why we closed it, once we did. */
  closing: string | undefined;

  constructor(
    readonly id: number,
    readonly socket: WebSocket,
    readonly outgoing: boolean,
    readonly secure: boolean,
    /** A unix socket: its hosts come from the peer's HostnamesMessage even when we dialled it. */
    readonly local: boolean,
    readonly endpoint: string,
    public hosts: readonly string[],
    /** The URLs this link keeps linked (autoconnect counts them). */
    public urls: string[],
  ) {}

  get fixedHosts(): boolean {
    return this.outgoing && !this.local;
  }

  view(): PeerLink {
    const url = this.urls[0];
    return { id: this.id, endpoint: this.endpoint, direction: this.outgoing ? 'outgoing' : 'incoming', ...(url !== undefined ? { url } : {}) };
  }

  describe(): string {
    return `p2p link ${this.id} (${this.outgoing ? 'to' : 'from'} ${this.endpoint})`;
  }
}

export class PeerLinks {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly links = new Map<number, Link>();
  /** Dials whose handshake is not over. */
  private readonly dials = new Set<WebSocket>();
  /** URLs that led to this node itself: autoconnect does not dial them again. */
  private readonly selfUrls = new Set<string>();
  private readonly schedule: RedialSchedule;
  private listener: LinkListener | undefined;
  private settings: LinkSettings = { p2p: false, peers: [], autoconnect: false, hosts: [] };
  private lastId = 0;
  private stopped = false;

  constructor(private readonly options: PeerLinksOptions) {
    this.schedule = new RedialSchedule((url) => this.dial(url), options.redial);
  }

  /** Sets the layer above; it hears at once of the links already up. */
  attach(listener: LinkListener): void {
    this.listener = listener;
    for (const link of this.links.values()) listener.onLinkUp(link.view());
  }

  /** Applies the configuration now: whether links are accepted, and which peers to keep linked. */
  configure(settings: LinkSettings): void {
    this.settings = settings;
    if (!this.stopped) this.schedule.setAutoconnect(autoconnectUrls(settings));
  }

  /** The live links, in the order they came up. */
  list(): PeerLink[] {
    return [...this.links.values()].map((link) => link.view());
  }

  /** Dials `url` (docs/administration.md §4.1 rule 2); the link shows in `list` once it is up. A bad URL is a LinkError. */
  connect(url: string): void {
    this.dialAddress(peerAddress(url));
  }

  /** Sends one frame (first byte below 64); false when no link with that id is open. */
  send(linkId: PeerId, frame: Uint8Array): boolean {
    if (frame.length === 0 || frame[0]! >= FIRST_LINK_TYPE) throw new LinkError('P2P_BAD_FRAME', `a frame for the layer above must start with a type below ${FIRST_LINK_TYPE}`);
    if (frame.length > MAX_FRAME_BYTES) throw new LinkError('P2P_BAD_FRAME', `a frame of ${frame.length} bytes is over the ${MAX_FRAME_BYTES}-byte limit`);
    const link = this.links.get(linkId);
    if (!link || link.closing !== undefined || link.socket.readyState !== WebSocket.OPEN) return false;
    link.socket.send(frame, { binary: true });
    return true;
  }

  /** Closes a link (docs/administration.md §4.1 rule 3); false when there is none with that id. */
  close(linkId: PeerId, reason: string): boolean {
    const link = this.links.get(linkId);
    if (!link) return false;
    this.closeLink(link, CLOSE_NORMAL, reason);
    return true;
  }

  /** Takes an upgrade for the p2p endpoint; false for any other target. */
  upgrade(req: WireRequest, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url, 'http://host').pathname;
    if (!isP2PEndpoint(req.headers.host ?? '', path)) return false;
    const refusal = this.refusal(req);
    if (refusal) {
      endWithReply(socket, closingReply(refusal.status, refusal.headers, refusal.body));
      return true;
    }
    // ws reads the request's method, url and headers, which a WireRequest has as Node's does.
    this.server.handleUpgrade(req as unknown as IncomingMessage, socket, head, (ws) => {
      // The node began to stop while the handshake was written.
      if (this.stopped) return ws.close(CLOSE_GOING_AWAY, 'the node is shutting down');
      const { remoteAddress, remotePort } = socket as Socket;
      const endpoint = remoteAddress === undefined ? 'local socket' : `${remoteAddress.includes(':') ? `[${remoteAddress}]` : remoteAddress}:${remotePort}`;
      this.linkUp(ws, { outgoing: false, secure: false, local: remoteAddress === undefined, endpoint, hosts: [], urls: [] });
    });
    return true;
  }

  /** Answers a plain (not upgrading) request for the p2p endpoint with its refusal; false for any other target. */
  serveRequest(req: WireRequest, res: WireResponse, path: string): boolean {
    if (!isP2PEndpoint(req.headers.host ?? '', path)) return false;
    const refusal = this.stopped ? SHUTTING_DOWN : plainRequestRefusal(this.settings.p2p);
    text(res, refusal.status, refusal.body, refusal.headers);
    return true;
  }

  /** Closes every link (1001, or 1012 for a restart) and stops dialling. */
  async stop(restart = false): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.schedule.stop();
    for (const socket of this.dials) socket.terminate();
    const closed = [...this.links.values()].map((link) => new Promise<void>((resolve) => {
      link.socket.once('close', () => resolve());
      this.closeLink(link, restart ? CLOSE_RESTART : CLOSE_GOING_AWAY, restart ? 'the node restarts' : 'the node is shutting down');
    }));
    const cutOff = new AbortController();
    await Promise.race([Promise.all(closed), delay(CLOSE_WAIT_MS, undefined, { signal: cutOff.signal }).catch(() => undefined)]);
    cutOff.abort();
    for (const link of this.links.values()) link.socket.terminate();
  }

  private refusal(req: WireRequest): Refusal | undefined {
    if (this.stopped) return SHUTTING_DOWN;
    return p2pRefusal(req, this.settings.p2p, this.settings.hosts);
  }

  /** Autoconnect's dial of a configured URL. */
  private dial(url: string): void {
    if (this.stopped || this.selfUrls.has(url)) return;
    try {
      this.dialAddress(peerAddress(url));
    } catch (err) {
      if (!(err instanceof LinkError)) throw err;
      this.options.log.warning(`peer ${url}: ${err.message}`);
    }
  }

  private dialAddress(address: PeerAddress): void {
    if (this.stopped) return;
    const { url } = address;
    this.schedule.carried(url);
    let socket: WebSocket;
    try {
      // No Origin: the remote refuses a foreign one (docs/p2p.md §1.1).
      socket = new WebSocket(address.dial, {
        headers: { host: address.host },
        maxPayload: MAX_FRAME_BYTES,
        perMessageDeflate: false,
        handshakeTimeout: HANDSHAKE_MS,
      });
    } catch (err) {
      this.schedule.released(url);
      throw new LinkError('P2P_BAD_URL', `'${url}' cannot be dialled: ${(err as Error).message}`);
    }
    this.dials.add(socket);
    let failure = 'closed';
    socket.on('error', (err) => (failure = err.message));
    socket.once('open', () => {
      this.dials.delete(socket);
      this.linkUp(socket, { outgoing: true, secure: address.secure, local: address.local, endpoint: address.endpoint, hosts: address.hosts, urls: [url] });
    });
    socket.once('close', () => {
      if (!this.dials.delete(socket)) return;
      if (!this.stopped) this.options.log.info(`peer ${url}: dial failed: ${failure}`);
      this.schedule.released(url);
    });
  }

  private linkUp(socket: WebSocket, shape: { outgoing: boolean; secure: boolean; local: boolean; endpoint: string; hosts: readonly string[]; urls: string[] }): void {
    const link = new Link(++this.lastId, socket, shape.outgoing, shape.secure, shape.local, shape.endpoint, shape.hosts, shape.urls);
    this.links.set(link.id, link);
    socket.on('error', (err) => this.options.log.warning(`${link.describe()}: ${err.message}`));
    socket.on('message', (data) => this.receive(link, bytesOf(data)));
    socket.once('close', (code, reason) => this.linkDown(link, link.closing ?? `closed by the peer (${code}${reason.length ? ` ${reason.toString()}` : ''})`));
    this.sendLinkMessage(link, { kind: 'id', nodeId: this.options.nodeId, connectionId: link.id });
    this.sendLinkMessage(link, { kind: 'hostnames', hosts: this.settings.hosts });
    this.options.log.info(`${link.describe()} is up`);
    this.listener?.onLinkUp(link.view());
  }

  private linkDown(link: Link, reason: string): void {
    this.links.delete(link.id);
    for (const url of link.urls) this.schedule.released(url);
    this.options.log.info(`${link.describe()} is down: ${reason}`);
    this.listener?.onLinkDown(link.view(), reason);
  }

  private closeLink(link: Link, code: number, reason: string): void {
    if (link.closing !== undefined) return;
    link.closing = reason;
    link.socket.close(code, closeReason(reason));
  }

  private receive(link: Link, frame: Uint8Array): void {
    if (link.closing !== undefined) return;
    if (frame.length > 0 && frame[0]! < FIRST_LINK_TYPE) {
      this.deliver(link, frame);
      return;
    }
    let message: LinkMessage;
    try {
      message = decodeLinkMessage(frame);
    } catch (err) {
      if (!(err instanceof LinkError)) throw err;
      // As psibase's x-peers does (docs/p2p.md §1.4): the frame is refused, the link stays.
      this.options.log.warning(`${link.describe()}: refused a frame: ${err.message}`);
      return;
    }
    this.handleLinkMessage(link, message);
  }

  /** Hands a frame up; a listener that throws loses that link, not the node. */
  private deliver(link: Link, frame: Uint8Array): void {
    try {
      this.listener?.onMessage(link.id, frame);
    } catch (err) {
      this.options.log.warning(`${link.describe()}: message type ${frame[0]} failed: ${(err as Error).message}`);
      this.closeLink(link, CLOSE_POLICY, `message type ${frame[0]} failed`);
    }
  }

  private handleLinkMessage(link: Link, message: LinkMessage): void {
    switch (message.kind) {
      case 'id':
        link.peerLinkId = message.connectionId;
        link.nodeId = message.nodeId;
        if (message.nodeId === this.options.nodeId) return this.closeSelfLink(link);
        if (link.fixedHosts) this.sendNotices(link);
        return;
      case 'hostnames':
        if (!link.fixedHosts) {
          link.hosts = message.hosts.map((h) => h.toLowerCase());
          this.sendNotices(link);
        }
        // The peer now knows our hosts: it may check its side for duplicates.
        if (!link.outgoing) this.sendLinkMessage(link, { kind: 'checkDuplicates' });
        return;
      case 'checkDuplicates':
        return this.sendNotices(link);
      case 'duplicateConnection': {
        const incoming = this.links.get(message.connectionId);
        if (!incoming || !outgoingYields(link, incoming, message.secure, this.options.nodeId)) return;
        // The surviving link keeps this one's URLs linked, so autoconnect does not dial them again.
        for (const url of link.urls) {
          if (incoming.urls.includes(url)) continue;
          this.schedule.carried(url);
          incoming.urls.push(url);
        }
        for (const url of link.urls) this.schedule.released(url);
        link.urls = [];
        this.closeLink(link, CLOSE_POLICY, `a duplicate of link ${incoming.id}`);
        return;
      }
    }
  }

  private closeSelfLink(link: Link): void {
    for (const url of link.urls) this.selfUrls.add(url);
    if (link.urls.length > 0) this.options.log.info(`peer ${link.urls.join(', ')} is this node itself: autoconnect will not dial it`);
    this.closeLink(link, CLOSE_POLICY, 'a link to this node itself');
  }

  private sendNotices(link: Link): void {
    for (const [linkId, notice] of duplicateNotices(link, this.links.values())) {
      const via = this.links.get(linkId);
      if (via) this.sendLinkMessage(via, notice);
    }
  }

  private sendLinkMessage(link: Link, message: LinkMessage): void {
    if (link.socket.readyState === WebSocket.OPEN) link.socket.send(encodeLinkMessage(message), { binary: true });
  }
}
