import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { websocketLibrary } from '../../http/websocket-library.js';
import { text } from '../../http/replies.js';
import { closingReply, endWithReply, type WireRequest, type WireResponse } from '../../http/wire/index.js';
import { localhostLookup } from '../../http/localhost-lookup.js';
import { FloodReport } from '../../log/flood-report.js';
import type { NetworkLog, PeerId } from '../peer-io.js';
import { duplicateNotices, outgoingYields, type LinkIdentity } from './duplicate-links.js';
import { LinkError } from './link-error.js';
import { LinkInboxes } from './link-inboxes.js';
import { decodeLinkMessage, encodeLinkMessage, FIRST_LINK_TYPE, type LinkMessage } from './link-messages.js';
import {
  bannedRefusal, dialRefusalReason, fullRefusal, isP2PEndpoint, p2pRefusal, plainRequestRefusal, QUOTED_REFUSAL_BYTES, type Refusal,
} from './p2p-endpoint.js';
import { OFFENCE_LIMIT, OFFENCE_WINDOW_MS, PeerConduct } from './peer-conduct.js';
import { peerAddress, type PeerAddress } from './peer-url.js';
import { PSIBASE_REDIAL_TIMES, RedialSchedule, type RedialTimes } from './redial-schedule.js';

// The peer links of a node (docs/p2p.md "What we build" item 1, §1): websockets accepted at the
// p2p endpoint and dialled to peer URLs, each carrying opaque binary frames. Frames whose first
// byte is 64 or more are the link layer's own (IdMessage, HostnamesMessage and de-duplication,
// §1.4); the others go to the layer above, which also hears of links coming and going.
//
// Against hostile peers ("Peers that attack" in docs/p2p.md "What we build" 1): at most
// `max_peers` links (incoming ones past it refused), a hello within HELLO_TIMEOUT_MS, frames
// handled in turns within a time budget per link (link-inboxes.ts), at most MAX_UNSENT_BYTES
// waiting to go out on a link, and bans for peers whose messages keep being refused
// (peer-conduct.ts).

/** The largest frame a link carries (docs/p2p.md §1.2: beast's 16 MiB). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** Links a node holds when its configuration sets no `max_peers`. */
export const DEFAULT_MAX_PEERS = 64;
/** How long a new link has to bring its IdMessage and HostnamesMessage (docs/p2p.md §1.3). */
export const HELLO_TIMEOUT_MS = 5_000;
/** Bytes waiting to go out on a link past which its peer, which does not read them, is cut off: two largest frames. */
export const MAX_UNSENT_BYTES = 2 * MAX_FRAME_BYTES;
/** The most `sendAll` leaves unwritten on a link at a time. */
const SEND_WINDOW_BYTES = 4 * 1024 * 1024;
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
  /** Links past which an incoming one is refused (the links this node dials are not). */
  readonly maxPeers: number;
}

/** What to do about a message the layer above refused. */
export interface Refused {
  /**
   * It counts against the peer (peer-conduct.ts): closing the link, an offence; otherwise one of
   * the MINOR_LIMIT within OFFENCE_WINDOW_MS that close the link as one.
   */
  readonly offence: boolean;
  /** The link is closed now. */
  readonly close: boolean;
}

/**
 * Refusals that leave the link up (a consensus message whose signature does not verify) that
 * close it, as an offence, when a link brings this many within OFFENCE_WINDOW_MS: honest nodes
 * send a few (psibase drops them without a word), a hostile one floods them.
 */
export const MINOR_LIMIT = 20;

export interface PeerLinksOptions {
  /** This process's random node id (docs/p2p.md §1.4), never 0. */
  readonly nodeId: bigint;
  readonly log: Pick<NetworkLog, 'info' | 'warning'>;
  /** Autoconnect's redial times; psibase's by default. A banned peer is banned for the longest of them. */
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

/** An IPv4 address as itself, not as the IPv6 address a dual-stack socket gives it. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

const isoTime = (ms: number) => new Date(ms).toISOString();

interface LinkShape {
  outgoing: boolean;
  secure: boolean;
  local: boolean;
  endpoint: string;
  hosts: readonly string[];
  urls: string[];
  /** The remote address of an incoming TCP link. */
  address?: string;
}

class Link implements LinkIdentity {
  peerLinkId = -1;
  nodeId: bigint | undefined;
  /** Why we closed it, once we did. */
  closing: string | undefined;
  readonly outgoing: boolean;
  readonly secure: boolean;
  /** A unix socket: its hosts come from the peer's HostnamesMessage even when we dialled it. */
  readonly local: boolean;
  readonly endpoint: string;
  hosts: readonly string[];
  /** The URLs this link keeps linked (autoconnect counts them). */
  urls: string[];
  /** Who the peer is to bans: the remote address of an incoming TCP link, else the URL dialled; none for an incoming unix socket. */
  readonly key: string | undefined;
  /** Its IdMessage and HostnamesMessage came. */
  heardId = false;
  heardHosts = false;
  /** Closes the link unless its hello comes in time. */
  helloTimer: NodeJS.Timeout | undefined;
  /** When its recent refusals that left it up came (MINOR_LIMIT at most). */
  minor: number[] = [];

  constructor(readonly id: number, readonly socket: WebSocket, shape: LinkShape, readonly refusals: FloodReport) {
    ({ outgoing: this.outgoing, secure: this.secure, local: this.local, endpoint: this.endpoint, hosts: this.hosts, urls: this.urls } = shape);
    this.key = shape.address ?? shape.urls[0];
  }

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
  /** Made at the first incoming link (websocket-library.ts says why). */
  private server: WebSocketServer | undefined;
  private readonly links = new Map<number, Link>();
  /** Dials whose handshake is not over. */
  private readonly dials = new Set<WebSocket>();
  /** URLs that led to this node itself: autoconnect does not dial them again. */
  private readonly selfUrls = new Set<string>();
  private readonly schedule: RedialSchedule;
  private readonly inboxes: LinkInboxes;
  private readonly conduct: PeerConduct;
  /** Incoming links refused past max_peers, and from banned peers: floods, one line and then counts. */
  private readonly fullRefusals: FloodReport;
  private readonly bannedRefusals: FloodReport;
  /** Links refused because p2p is off: the operator of this node learns why its peers get 403. */
  private readonly offRefusals: FloodReport;
  private listener: LinkListener | undefined;
  private settings: LinkSettings = { p2p: false, peers: [], autoconnect: false, hosts: [], maxPeers: DEFAULT_MAX_PEERS };
  private lastId = 0;
  private stopped = false;

  constructor(private readonly options: PeerLinksOptions) {
    const redial = options.redial ?? PSIBASE_REDIAL_TIMES;
    this.schedule = new RedialSchedule((url) => this.dial(url), redial);
    this.conduct = new PeerConduct(redial.maxMs);
    this.inboxes = new LinkInboxes({
      handle: (id, frame) => {
        const link = this.links.get(id);
        if (link) this.receive(link, frame);
      },
      pause: (id) => this.links.get(id)?.socket.pause(),
      resume: (id) => this.links.get(id)?.socket.resume(),
      // Not an offence: an honest peer may send more than a slow node takes, and comes back.
      overBudget: (id) => this.refused(id, 'it sends more than this node can process (over its share of the node\'s time for too long)', { offence: false, close: true }),
    });
    const warn = (message: string) => options.log.warning(message);
    const linkCount = () => `${this.links.size} links, max_peers is ${this.settings.maxPeers}`;
    this.fullRefusals = new FloodReport(warn, {
      first: () => `refusing new peer links with 503: ${linkCount()}`,
      more: (count, seconds) => `refused ${count} more peer links in the last ${seconds} s: ${linkCount()}`,
    });
    this.bannedRefusals = new FloodReport(warn, {
      first: (peer) => `refusing peer links from banned peers with 403: ${peer}`,
      more: (count, seconds) => `refused ${count} more peer links from banned peers in the last ${seconds} s`,
    });
    this.offRefusals = new FloodReport(warn, {
      first: (peer) => `refusing a peer link from ${peer} with 403: this node does not accept p2p links (start it with --p2p or set p2p in its config)`,
      more: (count, seconds) => `refused ${count} more peer links in the last ${seconds} s: p2p is off`,
    });
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

  /**
   * Sends one frame (first byte below 64); `written` is called once it is out of the node's
   * buffers (or the link failed). False when no link with that id is open, or when its peer has
   * left MAX_UNSENT_BYTES unread: that link is cut off.
   */
  send(linkId: PeerId, frame: Uint8Array, written?: () => void): boolean {
    if (frame.length === 0 || frame[0]! >= FIRST_LINK_TYPE) throw new LinkError('P2P_BAD_FRAME', `a frame for the layer above must start with a type below ${FIRST_LINK_TYPE}`);
    if (frame.length > MAX_FRAME_BYTES) throw new LinkError('P2P_BAD_FRAME', `a frame of ${frame.length} bytes is over the ${MAX_FRAME_BYTES}-byte limit`);
    const link = this.links.get(linkId);
    if (!link || link.closing !== undefined || link.socket.readyState !== link.socket.OPEN) return false;
    const unsent = link.socket.bufferedAmount;
    if (unsent > MAX_UNSENT_BYTES) {
      // A close handshake would wait behind what it does not read.
      link.closing = `it does not read what it is sent (${unsent} bytes unsent)`;
      this.options.log.warning(`${link.describe()}: ${link.closing}; cutting it off`);
      link.socket.terminate();
      return false;
    }
    link.socket.send(frame, { binary: true }, written && (() => written()));
    return true;
  }

  /**
   * Sends frames one after another, at most SEND_WINDOW_BYTES of them unwritten at a time (a
   * snapshot's parts), then calls `done`; false when the link is not open.
   */
  sendAll(linkId: PeerId, frames: Iterable<Uint8Array>, done: () => void): boolean {
    const next = frames[Symbol.iterator]();
    let unwritten = 0;
    let last = false;
    const more = (): boolean => {
      while (unwritten < SEND_WINDOW_BYTES) {
        const item = next.next();
        if (item.done) {
          last = true;
          if (unwritten === 0) done();
          return true;
        }
        const frame = item.value;
        unwritten += frame.length;
        const sent = this.send(linkId, frame, () => {
          unwritten -= frame.length;
          if (!last) more();
          else if (unwritten === 0) done();
        });
        if (!sent) return false;
      }
      return true;
    };
    return more();
  }

  /** Holds the link's incoming frames (the layer above cannot take more yet) or lets them go on. */
  hold(linkId: PeerId, held: boolean): void {
    this.inboxes.hold(linkId, held);
  }

  /**
   * The layer above refused a message the link's peer sent: the reason is logged (a link's first
   * refusal at once, then a count every 10 s); `close` closes the link now, and counts as an
   * offence of the peer with `offence`, which OFFENCE_LIMIT of within OFFENCE_WINDOW_MS ban. An
   * offence that leaves the link up is a minor one: MINOR_LIMIT of them close it as an offence.
   */
  refused(linkId: PeerId, reason: string, how: Refused): void {
    const link = this.links.get(linkId);
    if (!link) return this.options.log.warning(`link ${linkId}: ${reason}`);
    if (link.closing !== undefined) return;
    if (how.offence && !how.close) {
      const now = Date.now();
      link.minor = [...link.minor.filter((t) => t > now - OFFENCE_WINDOW_MS), now];
      if (link.minor.length >= MINOR_LIMIT) {
        return this.refused(linkId, `${MINOR_LIMIT} refused messages within ${OFFENCE_WINDOW_MS / 1000} s, the last: ${reason}`, { offence: true, close: true });
      }
    }
    link.refusals.event(`link ${link.id}: ${reason}${how.close ? '; closing it' : ''}`);
    if (how.close && how.offence && this.offence(link, reason)) return;
    if (how.close) this.closeLink(link, CLOSE_POLICY, reason);
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
    const { remoteAddress, remotePort } = socket as Socket;
    const address = remoteAddress === undefined ? undefined : plainAddress(remoteAddress);
    const refusal = this.refusal(req, address);
    if (refusal) {
      endWithReply(socket, closingReply(refusal.status, refusal.headers, refusal.body));
      return true;
    }
    // ws reads the request's method, url and headers, which a WireRequest has as Node's does.
    this.server ??= new (websocketLibrary().WebSocketServer)({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
    this.server.handleUpgrade(req as unknown as IncomingMessage, socket, head, (ws) => {
      // The node began to stop while the handshake was written.
      if (this.stopped) return ws.close(CLOSE_GOING_AWAY, 'the node is shutting down');
      const endpoint = address === undefined ? 'local socket' : `${address.includes(':') ? `[${address}]` : address}:${remotePort}`;
      this.linkUp(ws, { outgoing: false, secure: false, local: address === undefined, endpoint, hosts: [], urls: [], ...(address !== undefined ? { address } : {}) });
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
    this.fullRefusals.end();
    this.bannedRefusals.end();
    this.offRefusals.end();
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

  /** Why an incoming link from `address` (none for a unix socket) is refused, if it is. */
  private refusal(req: WireRequest, address: string | undefined): Refusal | undefined {
    if (this.stopped) return SHUTTING_DOWN;
    const refusal = p2pRefusal(req, this.settings.p2p, this.settings.hosts);
    if (refusal) {
      if (!this.settings.p2p) this.offRefusals.event(address ?? 'a local socket');
      return refusal;
    }
    const until = address === undefined ? undefined : this.conduct.bannedUntil(address, Date.now());
    if (until !== undefined) {
      this.bannedRefusals.event(`${address} until ${isoTime(until)}`);
      return bannedRefusal(address!, until);
    }
    if (this.links.size >= this.settings.maxPeers) {
      this.fullRefusals.event();
      return fullRefusal(this.settings.maxPeers);
    }
    return undefined;
  }

  /** Autoconnect's dial of a configured URL; a banned one waits for its ban to end. */
  private dial(url: string): void {
    if (this.stopped || this.selfUrls.has(url)) return;
    const now = Date.now();
    const until = this.conduct.bannedUntil(url, now);
    if (until !== undefined) {
      this.options.log.info(`peer ${url} is banned until ${isoTime(until)}: it is dialled then`);
      this.schedule.deferFor(url, until - now);
      return;
    }
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
      socket = new (websocketLibrary().WebSocket)(address.dial, {
        headers: { host: address.host },
        // `http://tsibase.localhost:8080` as the README writes peer URLs: loopback, as browsers take it.
        lookup: localhostLookup as never,
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
    // A reply other than the upgrade: the refusal's reason, from its status and body, is the failure.
    let refused: string | undefined;
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < QUOTED_REFUSAL_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.once('close', () => {
        refused = dialRefusalReason(res.statusCode ?? 0, Buffer.concat(chunks).subarray(0, QUOTED_REFUSAL_BYTES).toString());
        socket.terminate();
      });
    });
    socket.once('open', () => {
      this.dials.delete(socket);
      this.linkUp(socket, { outgoing: true, secure: address.secure, local: address.local, endpoint: address.endpoint, hosts: address.hosts, urls: [url] });
    });
    socket.once('close', () => {
      if (!this.dials.delete(socket)) return;
      if (!this.stopped) this.options.log.info(`peer ${url}: dial failed: ${refused ?? failure}`);
      this.schedule.released(url);
    });
  }

  private linkUp(socket: WebSocket, shape: LinkShape): void {
    const id = ++this.lastId;
    const refusals = new FloodReport((m) => this.options.log.warning(m), {
      first: (line) => line!,
      more: (count, seconds) => `link ${id}: refused ${count} more frames or messages in the last ${seconds} s`,
    });
    const link = new Link(id, socket, shape, refusals);
    this.links.set(link.id, link);
    this.inboxes.open(link.id);
    socket.on('error', (err) => this.options.log.warning(`${link.describe()}: ${err.message}`));
    socket.on('message', (data) => this.inboxes.push(link.id, bytesOf(data)));
    this.timeReads(link);
    socket.once('close', (code, reason) => this.linkDown(link, link.closing ?? `closed by the peer (${code}${reason.length ? ` ${reason.toString()}` : ''})`));
    link.helloTimer = setTimeout(() => this.closeLink(link, CLOSE_POLICY, `no IdMessage and HostnamesMessage within ${HELLO_TIMEOUT_MS / 1000} s`), HELLO_TIMEOUT_MS);
    this.sendLinkMessage(link, { kind: 'id', nodeId: this.options.nodeId, connectionId: link.id });
    this.sendLinkMessage(link, { kind: 'hostnames', hosts: this.settings.hosts });
    this.options.log.info(`${link.describe()} is up`);
    this.listener?.onLinkUp(link.view());
  }

  private linkDown(link: Link, reason: string): void {
    this.links.delete(link.id);
    this.inboxes.remove(link.id);
    clearTimeout(link.helloTimer);
    link.refusals.end();
    for (const url of link.urls) this.schedule.released(url);
    this.options.log.info(`${link.describe()} is down: ${reason}`);
    this.listener?.onLinkDown(link.view(), reason);
  }

  private closeLink(link: Link, code: number, reason: string): void {
    if (link.closing !== undefined) return;
    link.closing = reason;
    // Nothing it sends from now on is handled, but it is read, so that the peer's answer to the
    // close gets through behind it; a peer that does not answer soon is cut off.
    this.inboxes.remove(link.id);
    link.socket.resume();
    link.socket.close(code, closeReason(reason));
    setTimeout(() => link.socket.terminate(), CLOSE_WAIT_MS).unref();
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
      link.refusals.event(`${link.describe()}: refused a frame: ${err.message}`);
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
        link.heardId = true;
        this.heardHello(link);
        if (message.nodeId === this.options.nodeId) return this.closeSelfLink(link);
        if (link.fixedHosts) this.sendNotices(link);
        return;
      case 'hostnames':
        link.heardHosts = true;
        this.heardHello(link);
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

  /**
   * Charges the link the time its socket's reads take: the websocket unmasks and parses the
   * frames in its listener of the socket's data, which runs between these two. (ws keeps the
   * socket in `_socket`; it has no public accessor.)
   */
  private timeReads(link: Link): void {
    const raw = (link.socket as unknown as { _socket: Socket })._socket;
    let started = 0;
    raw.prependListener('data', () => (started = performance.now()));
    raw.on('data', () => this.inboxes.charge(link.id, performance.now() - started));
  }

  private heardHello(link: Link): void {
    if (link.heardId && link.heardHosts) clearTimeout(link.helloTimer);
  }

  /**
   * Counts an offence of the link's peer; true when it brought a ban. A ban (for the longest
   * redial wait) covers the peer's address or URL and the URLs its link carries: their links
   * are closed, incoming links from them refused and autoconnect waits for its end to dial them.
   */
  private offence(link: Link, reason: string): boolean {
    if (link.key === undefined) return false;
    const until = this.conduct.offence(link.key, Date.now());
    if (until === undefined) return false;
    const keys = new Set([link.key, ...link.urls]);
    for (const key of keys) this.conduct.ban(key, until);
    this.options.log.warning(`peer ${[...keys].join(', ')} is banned until ${isoTime(until)}: ${OFFENCE_LIMIT} offences within ${OFFENCE_WINDOW_MS / 1000} s, the last: ${reason}`);
    for (const other of this.links.values()) {
      if ((other.key !== undefined && keys.has(other.key)) || other.urls.some((url) => keys.has(url))) this.closeLink(other, CLOSE_POLICY, `banned until ${isoTime(until)}`);
    }
    return true;
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
    if (link.socket.readyState === link.socket.OPEN) link.socket.send(encodeLinkMessage(message), { binary: true });
  }
}
