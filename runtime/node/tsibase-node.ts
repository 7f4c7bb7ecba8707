import { readConsensusVote, writeConsensusVote } from '../network/consensus-vote-file.js';
import { readConsensusBft, writeConsensusBft } from '../network/consensus-bft-file.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TsibaseError, type Bundle, type KeyPair } from '../../host-api/index.js';
import { adminApi } from '../admin/admin-api.js';
import { keyEndpoints } from '../admin/key-endpoints.js';
import { LogSockets } from '../admin/log-socket.js';
import { perfEndpoints } from '../admin/perf-endpoints.js';
import { snapshotEndpoint } from '../admin/snapshot-endpoint.js';
import type { NodeControl, Peer, ShutdownRequest } from '../admin/node-control.js';
import { Chain } from '../chain/chain.js';
import { bootInProcess } from '../chain/in-process-boot.js';
import { readConfigFile, writeConfigFile } from '../config/config-file.js';
import { checkServable } from '../config/servable-config.js';
import { defaultConfig, defaultServiceThreads, parseServerConfig, type ListenSpec, type ServerConfig } from '../config/server-config.js';
import { LmdbStore } from '../db/lmdb-store.js';
import { DirectoryLock } from '../fs/directory-lock.js';
import type { SyncState } from '../../host-api/http/sync-status.js';
import { defaultLocalHosts } from '../http/local-hosts.js';
import { NodeHttpServer } from '../http/server.js';
import { SessionTokens } from '../http/session-tokens.js';
import { HttpSockets } from '../http/sockets.js';
import { NodeKeys } from '../keys/node-keys.js';
import { importKeyRequest } from '../keys/requests.js';
import { Logging } from '../log/index.js';
import type { NetworkFigures } from '../metrics/network-figures.js';
import type { ExtraGauge } from '../metrics/open-metrics.js';
import { TransactionCounters } from '../metrics/transaction-counters.js';
import { DEFAULT_MAX_PEERS, PeerLinks } from '../network/links/peer-links.js';
import { NodeNetwork } from '../network/node-network.js';
import { randomId } from '../network/random-id.js';
import { redialTimesOf } from '../network/links/redial-schedule.js';
import { Engine } from '../wasm/engine.js';
import { defaultAdmittedCodeDir } from '../wasm/admitted-code-cache.js';
import { KeptStates } from '../snapshot/kept-states.js';
import { NodeSnapshots } from '../snapshot/node-snapshots.js';
import { snapshotFile } from '../snapshot/create-snapshot.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import { databaseCacheIsSlow } from './database-cache.js';
import { devForkWarning, readDevFork, type DevFork } from './dev-fork-file.js';
import { logBlock, loggedOutcomes, logRequest } from './node-log.js';

/** How a node is started: its directory and the command line, which beats the config file (docs/http.md §6). */
export interface NodeStartOptions {
  readonly dir: string;
  readonly producer?: string;
  readonly hosts?: readonly string[];
  readonly listen?: readonly ListenSpec[];
  readonly blockIntervalMs?: number;
  /** Accept incoming peer links (`--p2p`). */
  readonly p2p?: boolean;
  /** Peer URLs to keep linked (`--peer`). */
  readonly peers?: readonly string[];
  /**
   * A node of the network to join (`--join`): added to the configuration's `peers` for good, so
   * the node syncs the network's chain from it, follows it, and keeps doing so after restarts.
   */
  readonly join?: string;
  /** Peer links past which incoming ones are refused (`--max-peers`). */
  readonly maxPeers?: number;
  /** Autoconnect's redial base (and step) in ms instead of psibase's 30 s: for tests. */
  readonly redialBaseMs?: number;
  /** Boots this bundle when the node has no chain yet (needs a producer). */
  readonly boot?: Bundle;
  /** The keys of that boot (a development chain without them). */
  readonly bootKeys?: BootKeys;
  /** Blocks between info lines about committed blocks (default 1; the blocks between are logged at debug). */
  readonly blockLogInterval?: number;
  /** A block for each pushed transaction, none while idle (`tsibase dev --instant`; ChainOptions.instantBlocks). */
  readonly instantBlocks?: boolean;
  /**
   * Runs the development fork in `dir` (`tsibase dev --fork`, docs/chain.md §9): auth services
   * bypassed, the producer alone producing, no peer links. Set by that command only: a node
   * directory that holds a fork is refused without it, and no configuration turns it on.
   */
  readonly devFork?: DevFork;
}

/** The keys a boot gives the chain (docs/system-services.md, "Secure and development chains"). */
export interface BootKeys {
  /** The public key (DER) every account the boot creates authenticates with. */
  readonly accountKey?: Uint8Array;
  /** The producer's block-signing key; with its private key, which the node then stores. */
  readonly blockKey?: { readonly publicKey: Uint8Array; readonly pair?: KeyPair };
}

/**
 * A running node: its store, chain, HTTP listeners and admin API, put together from the node
 * directory's configuration. `shutdownRequested` settles when an admin asks it to stop or
 * restart; `stop` takes it down. A restart is a new TsibaseNode on the same directory.
 */
export class TsibaseNode implements NodeControl {
  readonly chain: Chain;
  readonly listeners: ListenSpec[] = [];
  readonly shutdownRequested: Promise<ShutdownRequest>;
  private requestShutdown!: (request: ShutdownRequest) => void;
  private starting = true;
  private stopping = false;
  private readonly slow: boolean;
  private current: ServerConfig;
  private readonly store: LmdbStore;
  /** The requests services have open (deferred replies among them): answered when the chain closes. */
  private readonly sockets: HttpSockets;
  private readonly server: NodeHttpServer;
  private readonly keys: NodeKeys;
  private readonly logging: Logging;
  private readonly logSockets: LogSockets;
  /** The peer links (docs/p2p.md §1): the layer above attaches to them. */
  readonly links: PeerLinks;
  /** Routing, block sync and transaction forwarding over the links (docs/p2p.md). */
  readonly network: NodeNetwork;
  /** Scheduled snapshots: kept states and signed checksums (docs/p2p.md §7.2). */
  private readonly snapshots: NodeSnapshots;

  private constructor(private readonly options: NodeStartOptions, config: ServerConfig, private readonly lock: DirectoryLock) {
    this.current = config;
    this.logging = new Logging(config.loggers, { directory: options.dir });
    this.logSockets = new LogSockets(this.logging);
    this.links = new PeerLinks({
      nodeId: randomId(),
      log: { info: (m) => this.logging.info('p2p', m), warning: (m) => this.logging.warning('p2p', m) },
      ...(options.redialBaseMs !== undefined ? { redial: redialTimesOf(options.redialBaseMs) } : {}),
    });
    this.slow = databaseCacheIsSlow(config, this.logging);
    this.shutdownRequested = new Promise((resolve) => (this.requestShutdown = resolve));
    const dbDir = join(options.dir, 'db');
    this.store = LmdbStore.open(dbDir);
    const sockets = (this.sockets = new HttpSockets());
    const engine = new Engine({ admittedCodeDir: defaultAdmittedCodeDir() });
    const counters = new TransactionCounters(() => this.chain.unprocessed);
    // A block that cannot be produced is tried every slot: report each new reason once.
    let productionError: string | undefined;
    this.chain = new Chain(this.store, engine, {
      producer: config.producer,
      sockets,
      counters: loggedOutcomes(this.logging, counters),
      blockIntervalMs: options.blockIntervalMs,
      instantBlocks: options.instantBlocks,
      devFork: options.devFork !== undefined,
      queryThreads: config.service_threads ?? defaultServiceThreads(),
      onCallbackError: (err) => this.logging.warning('chain', `callback: ${err.message}`),
      onProductionError: (err) => {
        if (err.message !== productionError) this.logging.error('chain', `block production: ${err.message}`);
        productionError = err.message;
      },
      blockSigners: (claim) => this.keys.claimSigner(claim),
      committed: (closed, origin) => {
        const { block: { header }, blockId: id } = closed;
        productionError = undefined;
        logBlock(this.logging, header, id, options.blockLogInterval);
        this.network.committed(closed, origin);
        const irreversible = this.chain.head?.irreversible ?? 0;
        for (const signed of this.snapshots.blockCommitted(header, id, irreversible)) this.network.floodStateChecksum(signed);
      },
      forwarder: (packed) => this.network.forward(packed),
      auxConsensusData: (commitNum) => this.network.auxConsensusData(commitNum),
    });
    this.snapshots = new NodeSnapshots(this.store, this.chain.claims, KeptStates.of(options.dir),
      (claim) => this.keys.claimSigner(claim), () => accountNumberFromName(this.chain.producer),
      (m) => this.logging.warning('chain', m));
    const voteFile = join(options.dir, 'consensus-vote.json');
    const bftFile = join(options.dir, 'consensus-bft.json');
    this.network = new NodeNetwork(this.links, this.chain, {
      info: (m) => this.logging.info('p2p', m),
      warning: (m) => this.logging.warning('p2p', m),
      debug: (m) => this.logging.message('debug', 'p2p', m),
    }, {
      blockSigners: (claim) => this.keys.claimSigner(claim),
      blockIntervalMs: options.blockIntervalMs ?? 1000,
      votes: { restored: readConsensusVote(voteFile), keep: (vote) => writeConsensusVote(voteFile, vote) },
      bft: { restored: readConsensusBft(bftFile), keep: (kept) => writeConsensusBft(bftFile, kept) },
      consensusFailed: (reason) => this.logging.error('p2p', `BFT consensus failure, block production stopped: ${reason}`),
    }, this.snapshots);
    // A device module that fails to load must not keep the node (and its admin API) down.
    this.keys = NodeKeys.open(options.dir, []);
    this.applyKeyModules(config);
    const perf = { transactions: counters, network: () => this.networkFigures(), databaseFiles: [join(dbDir, 'data.mdb')], wasm: () => engine.memoryFigures() };
    const kept = KeptStates.of(options.dir);
    const admin = adminApi(this, {
      ...keyEndpoints(this.keys, () => this.network.keysChanged()), ...perfEndpoints(perf, () => this.nodeGauges()),
      ...snapshotEndpoint(() => snapshotFile(this.store, kept).file),
    });
    this.server = new NodeHttpServer(this.chain, {
      sockets,
      tokens: SessionTokens.fromKeyFile(join(options.dir, 'session-key')),
      adminRoutes: admin.native,
      localHosts: defaultLocalHosts(admin.xAdmin),
      onUpgrade: (req, socket, head) => this.logSockets.upgrade(req, socket, head) || this.links.upgrade(req, socket, head),
      onWebSocketRequest: (req, res, path) => this.links.serveRequest(req, res, path),
      onError: (err) => this.logging.error('http', err.stack ?? err.message),
      onWarning: (message) => this.logging.warning('http', message),
      responseLog: {
        enabled: () => this.logging.accepts('debug', 'http'),
        record: (req, res, micros) => logRequest(this.logging, req, res, micros),
      },
      startingUp: () => this.starting,
    });
    this.server.configure(this.liveHttpSettings(config), options.dir);
  }

  /**
   * Opens the node directory (creating it and its configuration file) and takes its lock
   * (docs/administration.md §8 item 4: one process per node directory), listens, then boots if
   * asked: while it starts up the listeners answer the status (`startup`) and 503 to the rest.
   */
  static async start(options: NodeStartOptions): Promise<TsibaseNode> {
    mkdirSync(options.dir, { recursive: true });
    const lock = DirectoryLock.take(options.dir);
    try {
      return await TsibaseNode.startLocked(options, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  private static async startLocked(options: NodeStartOptions, lock: DirectoryLock): Promise<TsibaseNode> {
    const fork = readDevFork(options.dir);
    if (fork && !options.devFork) {
      throw new TsibaseError('NODE_DEV_FORK', `${options.dir} holds a development fork of ${fork.source} (its transactions are valid on it alone): run it with tsibase dev --fork ${fork.source} --data ${options.dir}, or start a node elsewhere`);
    }
    const stored = readConfigFile(options.dir);
    const parsed = stored === undefined ? defaultConfig() : parseServerConfig(stored, defaultConfig(), options.dir);
    const joins = options.join !== undefined && !parsed.peers.includes(options.join);
    const fromFile = joins ? { ...parsed, peers: [...parsed.peers, options.join!] } : parsed;
    if (stored === undefined || joins) writeConfigFile(options.dir, fromFile);
    const config: ServerConfig = {
      ...fromFile,
      ...(options.producer !== undefined ? { producer: options.producer } : {}),
      ...(options.hosts !== undefined ? { hosts: options.hosts } : {}),
      ...(options.listen !== undefined ? { listen: options.listen } : {}),
      ...(options.p2p !== undefined ? { p2p: options.p2p } : {}),
      ...(options.peers !== undefined ? { peers: [...new Set([...options.peers, ...(options.join !== undefined ? [options.join] : [])])] } : {}),
      ...(options.maxPeers !== undefined ? { max_peers: options.maxPeers } : {}),
    };
    const node = new TsibaseNode(options, config, lock);
    try {
      for (const spec of config.listen) node.listeners.push(await node.server.listen(spec, options.dir, config.tls));
      node.network.start();
      node.links.configure(node.linkSettings(config));
      if (options.join !== undefined) node.reportJoin(options.join);
      node.storeBlockKey();
      await node.bootIfAsked();
      node.reportDevelopmentChain();
      node.chain.start();
    } catch (err) {
      await node.stop({ restart: false, force: true, soft: false });
      throw err;
    }
    node.starting = false;
    return node;
  }

  status(): string[] {
    const values: string[] = [];
    if (this.slow) values.push('slow');
    if (this.starting) values.push('startup');
    if (this.stopping) values.push('shutdown');
    if (!this.chain.hasChain) values.push('needgenesis');
    if (this.options.devFork) values.push('devfork');
    if (this.network.syncState().syncing) values.push('syncing');
    return values;
  }

  /** What `--join` does, in the log: the operator sees the node follow before its first block arrives. */
  private reportJoin(url: string): void {
    const producing = this.chain.producer ? `; it produces as ${this.chain.producer} once the network's producers include it (tsibase producers set)` : '';
    this.logging.info('p2p', `joining the network of ${url} (kept in config peers): syncing its chain, then following it${producing}`);
  }

  sync(): SyncState {
    return this.network.syncState();
  }

  shutdown(request: ShutdownRequest): void {
    this.stopping = true;
    if (request.force) this.server.dropConnections();
    this.requestShutdown(request);
  }

  config(): ServerConfig {
    return this.current;
  }

  async putConfig(value: unknown): Promise<void> {
    const next = parseServerConfig(value, this.current, this.options.dir);
    await checkServable(next, this.options.dir);
    this.logging.reconfigure(next.loggers);
    writeConfigFile(this.options.dir, next);
    // listen and tls wait for the next start (docs/administration.md §2); the rest applies now.
    const previous = this.current;
    this.current = next;
    this.chain.setProducer(next.producer);
    this.server.configure(this.liveHttpSettings(next), this.options.dir);
    this.links.configure(this.linkSettings(next));
    if (JSON.stringify(previous['pkcs11-modules']) !== JSON.stringify(next['pkcs11-modules'])) this.applyKeyModules(next);
  }

  peers(): Peer[] {
    return this.links.list().map(({ id, endpoint, url }) => ({ id, endpoint, ...(url !== undefined ? { url } : {}) }));
  }

  connect(url: string): void {
    this.links.connect(url);
  }

  disconnect(id: number): boolean {
    return this.links.close(id, 'disconnected by an admin');
  }

  /** Closes the peer links and listeners (dropping connections with `force`), completes the open block, closes the store. */
  async stop(request: ShutdownRequest): Promise<void> {
    this.stopping = true;
    this.logging.info('chain', request.restart ? `restarting${request.soft ? ' in this process' : ''}` : 'shutting down');
    this.network.stop();
    await this.links.stop(request.restart);
    this.logSockets.closeAll(request.restart);
    // Production stops at once and the listeners at once; the query threads answer (or hand
    // back) the requests they hold; then requests left open (deferred) can have no other answer.
    const chainClosed = this.chain.close();
    const serverClosed = this.server.close(request.force);
    await chainClosed;
    this.sockets.closeAll(request.restart ? 'the node restarts: ask again' : 'the node is shutting down');
    await serverClosed;
    this.keys.close();
    await this.store.close();
    await this.logging.close();
    this.lock.release();
  }

  private applyKeyModules(config: ServerConfig): void {
    try {
      this.keys.setModules(config['pkcs11-modules']);
    } catch (err) {
      this.logging.error('service', `keys: ${(err as Error).message}`);
    }
  }

  /** The perf report's network figures, which the metrics give too. */
  private networkFigures(): NetworkFigures {
    return { links: this.links.list().length, ...this.network.counters };
  }

  /** The chain, link and connection figures the metrics give next to the perf report's. */
  private nodeGauges(): ExtraGauge[] {
    const head = this.chain.head;
    const { links, blocksReceived, blocksApplied, blocksRefused } = this.networkFigures();
    return [
      { name: 'tsibase_head_block_number', help: 'number of the newest block of the chain (0 before boot)', value: head ? head.header.blockNum : 0 },
      { name: 'tsibase_irreversible_block_number', help: 'number of the newest irreversible block (0 before boot)', value: head ? head.irreversible : 0 },
      { name: 'tsibase_p2p_links', help: 'peer links up now', value: links },
      { name: 'tsibase_sync_blocks_behind', help: 'blocks between the head and the best block the peers have shown (0 when synced)', value: this.network.syncState().behind },
      { name: 'tsibase_blocks_received', help: 'blocks received from peers since the node started', value: blocksReceived },
      { name: 'tsibase_blocks_applied', help: 'received blocks applied since the node started', value: blocksApplied },
      { name: 'tsibase_blocks_refused', help: 'received blocks refused since the node started', value: blocksRefused },
      { name: 'tsibase_http_connections', help: 'http and https connections open (upgraded ones included), which max_connections bounds', value: this.server.openConnections },
      { name: 'tsibase_queries_on_threads', help: 'queries answered on the query threads since the node started (service_threads)', value: this.chain.queryFigures?.answered ?? 0 },
      { name: 'tsibase_queries_handed_back', help: 'queries a query thread handed back to the chain thread, which ran them', value: this.chain.queryFigures?.handedOff ?? 0 },
      { name: 'tsibase_consensus_timeout_ms', help: 'the running consensus timeout: BFT view change, or the base of CFT elections', value: this.network.consensusTimeoutMs },
    ];
  }

  /**
   * What the peer links follow. The names announced to peers (docs/p2p.md §1.4) are the configured
   * hosts and the addresses this node listens on, so that a peer that dialled an address can tell a
   * second link from us for a duplicate.
   */
  private linkSettings(config: ServerConfig) {
    // A fork's blocks are valid on it alone: it neither takes nor makes peer links, whatever the configuration says.
    if (this.options.devFork) config = { ...config, p2p: false, peers: [], autoconnect: false };
    const addresses = this.listeners.flatMap((l) => (l.protocol !== 'local' && l.address && !['0.0.0.0', '::'].includes(l.address) ? [l.address] : []));
    return {
      p2p: config.p2p, peers: config.peers, autoconnect: config.autoconnect, hosts: [...new Set([...config.hosts, ...addresses])],
      maxPeers: config.max_peers ?? DEFAULT_MAX_PEERS,
    };
  }

  private liveHttpSettings(config: ServerConfig) {
    return { hosts: config.hosts, services: config.services, httpTimeoutUs: config.http_timeout, maxConnections: config.max_connections };
  }

  /** A private block key given on the command line joins the node's keys, so it can sign. */
  private storeBlockKey(): void {
    const pair = this.options.bootKeys?.blockKey?.pair;
    if (pair) this.keys.add(importKeyRequest(pair));
  }

  /** Says at every start that anyone may act as the system accounts of a development chain. */
  private reportDevelopmentChain(): void {
    const fork = this.options.devFork;
    if (fork) this.logging.warning('chain', devForkWarning(fork));
    if (!this.chain.hasChain) return;
    const open = this.chain.openSystemAccounts();
    if (open.length === 0) return;
    this.logging.warning('chain', `this is a development chain (booted without --account-key): anyone may act as ${open.join(', ')}, and through them as any account`);
  }

  private async bootIfAsked(): Promise<void> {
    const bundle = this.options.boot;
    if (!bundle || this.chain.hasChain) return;
    if (!this.chain.producer) throw new TsibaseError('BOOT_NEEDS_PRODUCER', 'booting needs a producer: --producer <name>, or "producer" in config.json');
    const started = performance.now();
    const { accountKey, blockKey } = this.options.bootKeys ?? {};
    await bootInProcess(this.chain, bundle, { producer: this.chain.producer, accountKey, blockKey: blockKey?.publicKey },
      (applied, total) => this.logging.info('chain', `boot: ${applied} of ${total} transactions applied`));
    this.logging.info('chain', `booted a chain with ${bundle.services.length} services in ${Math.round(performance.now() - started)} ms`);
  }
}

