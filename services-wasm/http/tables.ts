// The http service's tables: registered servers (objective) and deferred replies (session: a
// reply's socket does not outlive the node, so neither does the row, and keeping it costs no disk write).

import { AccountNumber, DbId, Table, httpServer } from "../sdk/index";

/** `service`'s subdomain is served by `server` (usually the service itself). */
@fracpack
export class RegisteredServer {
  constructor(public service: AccountNumber = 0, public server: AccountNumber = 0) {}
}

/** Owned by http; other services (homepage) read it through the same declaration. */
export const servers = new Table<RegisteredServer, AccountNumber>(1, (r: RegisteredServer): AccountNumber => r.service, DbId.service, httpServer());

/** A request whose reply `owner` deferred: only `owner` may send it later. */
@fracpack
export class DeferredReply {
  constructor(public socket: i32 = 0, public owner: AccountNumber = 0) {}
}

export const deferredReplies = new Table<DeferredReply, i32>(2, (r: DeferredReply): i32 => r.socket, DbId.session);
