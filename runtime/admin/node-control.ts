import type { TransactionIntake } from '../chain/interface.js';
import type { ServerConfig } from '../config/server-config.js';
import type { SyncState } from '../../host-api/http/sync-status.js';

// What the admin endpoints need from the running node, kept as an interface so the endpoints
// do not depend on how the node is put together.

/** POST /shutdown options (docs/administration.md §4.1 rule 1). */
export interface ShutdownRequest {
  readonly restart: boolean;
  readonly force: boolean;
  readonly soft: boolean;
}

/** An element of the `/native/admin/peers` reply (docs/administration.md §2). */
export interface Peer {
  readonly id: number;
  readonly endpoint: string;
  readonly url?: string;
}

export interface NodeControl {
  readonly chain: TransactionIntake;
  /** `/native/admin/status`: `slow`, `startup`, `shutdown`, `needgenesis`, `devfork`, `syncing`, in that order. */
  status(): string[];
  /** `/native/admin/status?sync`: the block sync's figures. */
  sync(): SyncState;
  /** Begins a shutdown or restart; the reply to the request is the caller's. */
  shutdown(request: ShutdownRequest): void;
  /** The configuration in effect. */
  config(): ServerConfig;
  /** Checks, persists and applies a configuration; throws ConfigError naming a bad field. */
  putConfig(value: unknown): Promise<void>;
  /** The live peer links (docs/administration.md §2 Peer). */
  peers(): Peer[];
  /** Begins dialling a peer URL (§4.1 rule 2); a URL that cannot be dialled is a LinkError. */
  connect(url: string): void;
  /** Closes a peer link (§4.1 rule 3); false when no link has that id. */
  disconnect(id: number): boolean;
}
