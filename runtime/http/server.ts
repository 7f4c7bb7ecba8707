import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Chain } from '../chain/chain.js';
import { isAdminRequest, refuseAdmin } from './admin-access.js';
import { hostPort, resolveHost } from './host-resolution.js';
import { pushBoot } from './push-boot.js';
import { RequestTooLarge } from './read-body.js';
import { defaultLocalHosts, type LocalHost } from './local-hosts.js';
import { login } from './login.js';
import { pushTransaction } from './push-transaction.js';
import { CORS_A, notFound, redirect, reply, text } from './replies.js';
import { hasHttpService, serveThroughHttpService } from './serve.js';
import type { SessionTokens } from './session-tokens.js';
import type { HttpSockets } from './sockets.js';

export interface HttpServerOptions {
  /** Open requests, shared with the chain so callbacks can answer deferred ones. */
  readonly sockets: HttpSockets;
  /** Issues and checks login tokens with the node's own key. */
  readonly tokens: SessionTokens;
  /** The node's root hosts (http.md §1), longest match wins. */
  readonly hosts: readonly string[];
  /** Node-local hosts by label (`x-admin`, …); the defaults when absent. */
  readonly localHosts?: ReadonlyMap<string, LocalHost>;
  /** Where unexpected failures are reported (the client gets a 500 `exception: …`). */
  readonly onError?: (error: Error) => void;
}

/**
 * The native front end (DESIGN decision 6): host resolution, `/native*` on every host, the
 * node-local `x-*` hosts, the behaviour before boot, and transact's push_transaction and login (answered by the node: one
 * feeds the node's transaction queue, the other signs tokens with the node's own key). Every other request for the root domain or a service subdomain
 * goes to the http-server service, which routes it to a service's serveSys.
 */
export class NodeHttpServer {
  private readonly server: Server;

  private readonly localHosts: ReadonlyMap<string, LocalHost>;

  constructor(private readonly chain: Chain, private readonly options: HttpServerOptions) {
    this.localHosts = options.localHosts ?? defaultLocalHosts();
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => {
        if (err instanceof RequestTooLarge) {
          // The rest of the body is not read: answer, then close the connection.
          if (!res.headersSent) text(res, 413, err.message, { Connection: 'close' });
          return;
        }
        options.onError?.(err);
        if (!res.headersSent) text(res, 500, `exception: ${err.message}`);
        else res.destroy();
      });
    });
    this.server.keepAliveTimeout = 4000;
  }

  listen(port: number, address = '127.0.0.1'): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, address, () => resolve(this.server.address() as AddressInfo));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '';
    if (!target.startsWith('/')) return text(res, 400, 'Invalid request target');
    const url = new URL(target, 'http://host');
    if (url.pathname.startsWith('/native')) return this.native(req, res, target, url.pathname);

    const hostHeader = req.headers.host ?? '';
    const host = resolveHost(hostHeader, this.options.hosts);
    if (host.kind === 'none') return notFound(res, target);
    const port = hostPort(hostHeader);
    const origin = (name: string) => `http://${name}${port ? `:${port}` : ''}`;
    if (host.kind === 'service') {
      const local = this.localHosts.get(host.service);
      if (local) return this.serveLocal(local, req, res, target, url.pathname);
    }
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
      if (url.pathname === '/push_transaction') return pushTransaction(this.chain, req, res, target, url.searchParams);
      if (url.pathname === '/login') return login(this.chain, this.options.tokens, req, res, target, host.root);
    }
    if (hasHttpService(this.chain)) return serveThroughHttpService(this.chain, this.options.sockets, this.options.tokens, req, res, host.root);
    // A chain without an http service (a bare test bundle) has nobody to route requests.
    if (req.method === 'OPTIONS') return reply(res, 200, undefined, '', CORS_A);
    return notFound(res, target, CORS_A);
  }

  /** A node-local host: admins only where it says so; what it does not serve is a 404 without CORS. */
  private async serveLocal(local: LocalHost, req: IncomingMessage, res: ServerResponse, target: string, path: string): Promise<void> {
    if (local.adminOnly && !isAdminRequest(req)) return refuseAdmin(res);
    if (!(await local.serve(req, res, path))) notFound(res, target);
  }

  private async native(req: IncomingMessage, res: ServerResponse, target: string, path: string): Promise<void> {
    if (path.startsWith('/native/admin/')) {
      if (!isAdminRequest(req)) return refuseAdmin(res);
      if (path === '/native/admin/push_boot') return pushBoot(this.chain, req, res, target);
    }
    return notFound(res, target);
  }
}
