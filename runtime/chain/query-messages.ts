// The messages between the chain thread and a query thread (query-threads.ts, query-thread.ts;
// docs/serving.md §10).

import type { StoreLocation, ViewChanges } from '../db/shared-reads.js';
import type { SocketOutcome } from '../wasm/host-state.js';

/** What a query thread starts with: where the store is, and its uncommitted writes as they are then. */
export interface QueryThreadData {
  readonly location: StoreLocation;
  readonly view: ViewChanges;
}

/** To a query thread: the store's changes (always before the requests that must see them), or a request for the http service's serve. */
export type ToQueryThread =
  | { readonly kind: 'view'; readonly view: ViewChanges }
  | { readonly kind: 'serve'; readonly id: number; readonly socket: number; readonly rawData: Uint8Array };

/** From a query thread: a request's outcome, or why the chain thread must run it. */
export type FromQueryThread =
  | { readonly id: number; readonly error: string | null; readonly sockets: SocketOutcome }
  | { readonly id: number; readonly handedOff: string };
