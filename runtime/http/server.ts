import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { ChainQueries, TransactionIntake } from '../chain/interface.js';
import type { ListenSpec, StaticServiceSpec, TlsSpec } from '../config/server-config.js';
import { FloodReport } from '../log/flood-report.js';
import { isAdminRequest, refuseAdmin } from './admin-access.js';
import { hostName, hostPort, resolveHost } from './host-resolution.js';
import { createHttpsServer } from './https-server.js';
import { resolveInNodeDir } from '../fs/node-dir-paths.js';
import type { LocalHost } from './local-hosts.js';
import { login } from './login.js';
import { pushTransaction } from './push-transaction.js';
import { STATUS_PATH, type Routes } from './routes.js';
import { adminAppCors } from './admin-cors.js';
import { DEFAULT_CORS, corsDefaults, notFound, redirect, reply, text } from './replies.js';
import { parseTarget } from './request-target.js';
import { serveThroughHttpService } from './serve.js';
import type { SessionTokens } from './session-tokens.js';
import type { HttpSockets } from './sockets.js';
import { StaticFiles } from './static-files.js';
import { ConnectionLimit, DEFAULT_REQUEST_TIMEOUT_MS, WireServer, type WireRequest, type WireResponse } from './wire/index.js';

/** docs/http.md §1: requests are limited to 20 MiB. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;
/** Open connections (http and https listeners together) when the configuration sets no `max_connections`. */
const DEFAULT_MAX_CONNECTIONS = 1024;
/** The least time a head may take, however short `http_timeout` is: clients on slow links. */
const MIN_REQUEST_TIMEOUT_MS = 1_000;

export interface ResponseLog {
  enabled(): boolean;
  record(req: WireRequest, res: WireResponse, micros: number): void;
}

export interface HttpServerOptions {
  /** Open requests, shared with the chain so callbacks can answer deferred ones. */
  readonly sockets: HttpSockets;
  /** Issues and checks login tokens with the node's own key. */
  readonly tokens: SessionTokens;
  /** Node-local hosts by label (`x-admin`, …). */
  readonly localHosts: ReadonlyMap<string, LocalHost>;
  /** The `/native/admin/…` endpoints. */
  readonly adminRoutes: Routes;
  /** Websocket upgrades (the admin log, peer links); the node answers 404 to those it does not take. */
  readonly onUpgrade?: (req: WireRequest, socket: Socket, head: Buffer) => boolean;
  /** Plain requests for a websocket endpoint (peer links' 403 or 426); false for the rest. */
  readonly onWebSocketRequest?: (req: WireRequest, res: WireResponse, path: string) => boolean;
  /** Where unexpected failures are reported (the client gets a 500 `exception: …`). */
  readonly onError?: (error: Error) => void;
  /** Where conditions an operator should hear of are reported (connections refused past the limit). */
  readonly onWarning?: (message: string) => void;
  /** The request log: told of each request answered while it is enabled (asked as each request arrives). */
  readonly responseLog?: ResponseLog;
  /** True while the node initialises: every request but the status (docs/http.md §7) gets a 503 then; log websockets are taken. */
  readonly startingUp?: () => boolean;
}

/** The settings the configuration may change while the node runs. */
export interface LiveHttpSettings {
  readonly hosts: readonly string[];
  /** Built-in static content hosts (config `services`), roots resolved against the node directory. */
  readonly services: readonly StaticServiceSpec[];
  /** Microseconds an idle connection is kept; null = for ever. Also bounds a request's arrival. */
  readonly httpTimeoutUs: number | null;
  /** Open connections taken on the http and https listeners; undefined = DEFAULT_MAX_CONNECTIONS. */
  readonly maxConnections: number | undefined;
}

/**
 * The native front end (docs/design.md decision 6): host resolution, `/native*` on every host, the
 * node-local `x-*` hosts, the behaviour before boot, and transact's push_transaction and login
 * (answered by the node: one feeds the node's transaction queue, the other signs tokens with the
 * node's own key). Every other request for the root domain or a service subdomain goes to the
 * http-server service, which routes it to a service's serveSys. One handler serves every
 * listener of the configuration (http, https, local sockets).
 */
export class NodeHttpServer {
  private readonly servers: WireServer[] = [];
  /** The node's root hosts (docs/http.md §1), longest match wins; set by `configure`. */
  private hosts: readonly string[] = [];
  private staticHosts = new Map<string, StaticFiles>();
  private keepAliveMs = 0;
  private requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  private readonly refusals: FloodReport;
  /** Shared by the http and https listeners; unix sockets (this machine only) stay reachable past it. */
  private readonly connectionLimit: ConnectionLimit;

  constructor(private readonly chain: TransactionIntake & ChainQueries, private readonly options: HttpServerOptions) {
    this.connectionLimit = new ConnectionLimit(DEFAULT_MAX_CONNECTIONS, () => this.refusals.event());
    const state = () => `${this.connectionLimit.openConnections} open, max_connections is ${this.connectionLimit.max}`;
    // Connections refused past max_connections are a flood: one line, then counts.
    this.refusals = new FloodReport((message) => options.onWarning?.(message), {
      first: () => `refusing new connections with 503: ${state()}`,
      more: (count, seconds) => `refused ${count} more connections in the last ${seconds} s: ${state()}`,
    });
  }

  /** Applies settings the configuration changed; they hold from the next request on. */
  configure(settings: LiveHttpSettings, baseDir: string): void {
    this.hosts = settings.hosts;
    this.staticHosts = new Map(settings.services.map((s) => [s.host, new StaticFiles(resolveInNodeDir(baseDir, s.root))]));
    // Connections idle between requests close after the timeout, which replies announce in
    // `Keep-Alive: timeout=<s>` (docs/http.md §2); 0 turns both off.
    this.keepAliveMs = settings.httpTimeoutUs === null ? 0 : Math.max(1, Math.round(settings.httpTimeoutUs / 1000));
    // A request's head must arrive within the same time (its body within that plus its size's
    // worth at a minimum rate), so a client dripping bytes cannot hold a connection for ever.
    this.requestTimeoutMs = settings.httpTimeoutUs === null ? DEFAULT_REQUEST_TIMEOUT_MS : Math.max(MIN_REQUEST_TIMEOUT_MS, this.keepAliveMs);
    this.connectionLimit.max = settings.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    for (const server of this.servers) this.applyTimeouts(server);
  }

  private applyTimeouts(server: WireServer): void {
    server.keepAliveMs = this.keepAliveMs;
    server.requestTimeoutMs = this.requestTimeoutMs;
  }

  /**
   * Opens one listener (`local` paths and TLS files relative to `baseDir`); it resolves to the
   * spec with the address and port it really got. TLS files that do not serve are a ConfigError.
   */
  async listen(spec: ListenSpec, baseDir: string, tls?: TlsSpec): Promise<ListenSpec> {
    // A TLS handshake is given the time a request head is (the one in force as the listener opens).
    const server = new WireServer(spec.protocol === 'https' ? createHttpsServer(baseDir, tls!, this.requestTimeoutMs) : createServer(), {
      request: (req, res) => this.answer(req, res),
      upgrade: (req, socket, head) => this.options.onUpgrade?.(req, socket, head) ?? false,
    }, MAX_REQUEST_BYTES, spec.protocol === 'local' ? undefined : this.connectionLimit);
    this.applyTimeouts(server);
    this.servers.push(server);
    if (spec.protocol === 'local') {
      await server.listen({ path: resolveInNodeDir(baseDir, spec.path) });
      return spec;
    }
    const address = await server.listen({ port: spec.port, address: spec.address }) as AddressInfo;
    return { protocol: spec.protocol, address: address.address, port: address.port };
  }

  /** The http and https connections open now (upgraded ones included; local sockets are not counted). */
  get openConnections(): number {
    return this.connectionLimit.openConnections;
  }

  /** Stops listening. Open connections are closed; with `force` they are dropped without a reply. */
  close(force = false): Promise<void> {
    return Promise.all(this.servers.map((server) => server.close(force))).then(() => undefined);
  }

  /** Drops every connection at once, the requesting one included (shutdown with `force`). */
  dropConnections(): void {
    for (const server of this.servers) server.dropConnections();
  }

  /**
   * Answers one request: one a listener read from a connection, or one made in this process
   * (runtime/testing's in-memory requests), which the same routing serves. The reply may come
   * later (a service's deferred reply), through `res`.
   */
  answer(req: WireRequest, res: WireResponse): void {
    const log = this.options.responseLog;
    // Watching for the end of every request costs a listener each: only while the log wants them.
    if (log?.enabled()) {
      const started = performance.now();
      res.onFinish(() => log.record(req, res, Math.round((performance.now() - started) * 1000)));
    }
    this.handle(req, res).catch((err: Error) => {
      this.options.onError?.(err);
      if (!res.answered) text(res, 500, `exception: ${err.message}`);
    });
  }

  private async handle(req: WireRequest, res: WireResponse): Promise<void> {
    const target = req.url;
    if (!target.startsWith('/')) return text(res, 400, 'Invalid request target');
    const { path, query } = parseTarget(target);
    if (this.options.startingUp?.() && path !== STATUS_PATH) {
      return text(res, 503, 'The node is starting up; try again in a moment.', { 'Retry-After': '1' });
    }
    if (this.options.onWebSocketRequest?.(req, res, path)) return;
    if (path.startsWith('/native')) return this.native(req, res, target, path);

    const hostHeader = req.headers.host ?? '';
    const staticHost = this.staticHost(hostHeader);
    if (staticHost) {
      if (!(await staticHost.serve(req, res, path))) notFound(res, target);
      return;
    }
    const host = resolveHost(hostHeader, this.hosts);
    if (host.kind === 'none') return notFound(res, target);
    const port = hostPort(hostHeader);
    const origin = (name: string) => `http://${name}${port ? `:${port}` : ''}`;
    if (host.kind === 'service') {
      const local = this.options.localHosts.get(host.service);
      if (local) return this.serveLocal(local, req, res, target, path);
    }
    // The node always accepts CORS requests (docs/serving.md §1.6): every reply of a chain host carries
    // CORS, refusals and aborts included, so a browser app can read why it failed.
    res.defaultFields = DEFAULT_CORS;
    if (host.kind === 'other') {
      return redirect(res, `${origin(host.root)}${target}`, 'This psibase server is hosted at ', '.');
    }
    if (!this.chain.hasChain) {
      if (req.method === 'GET' || req.method === 'HEAD') {
        return redirect(res, `${origin(`x-admin.${host.root}`)}/`, 'Node is not connected to any psibase network.  Visit ', ' for node setup.');
      }
      return text(res, 503, '<html><body>Node is not connected to any psibase network.</body></html>');
    }
    if (host.kind === 'service' && host.service === 'transact') {
      if (path === '/push_transaction') return pushTransaction(this.chain, req, res, target, query);
      if (path === '/login') return login(this.chain, this.options.tokens, req, res, target, host.root);
    }
    if (this.chain.servesHttp) return serveThroughHttpService(this.chain, this.options.sockets, this.options.tokens, req, res, host.root);
    // A chain without an http service (a bare test bundle) has nobody to route requests.
    if (req.method === 'OPTIONS') return reply(res, 200, undefined, '');
    return notFound(res, target);
  }

  /** The static content host (config `services`) a request's Host header names, if any. */
  private staticHost(hostHeader: string): StaticFiles | undefined {
    if (this.staticHosts.size === 0) return undefined;
    const name = hostName(hostHeader);
    for (const [host, files] of this.staticHosts) {
      if (host.endsWith('.') ? this.hosts.some((root) => name === `${host}${root}`) : name === host) return files;
    }
    return undefined;
  }

  /** A node-local host: admins only where it says so; what it does not serve is a 404 without CORS. */
  private async serveLocal(local: LocalHost, req: WireRequest, res: WireResponse, target: string, path: string): Promise<void> {
    if (local.adminOnly && !isAdminRequest(req)) return refuseAdmin(res);
    if (!(await local.serve(req, res, target, path))) notFound(res, target);
  }

  private async native(req: WireRequest, res: WireResponse, target: string, path: string): Promise<void> {
    if (path.startsWith('/native/admin/')) {
      const cors = adminAppCors(req, this.hosts);
      if (req.method === 'OPTIONS') return reply(res, 204, undefined, '', cors);
      if (cors) res.defaultFields = corsDefaults(cors);
      if (!isAdminRequest(req)) return refuseAdmin(res);
      if (await this.options.adminRoutes.serve(req, res, target, path)) return;
    }
    return notFound(res, target);
  }
}
