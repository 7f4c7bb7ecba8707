// The messages between the chain thread and a query thread (query-threads.ts, query-thread.ts;
// docs/serving.md §10). Each message carries every request of one event-loop turn and its answer
// every outcome of them: a message costs both threads more than the request it carries. Both
// travel as bytes (query-message-bytes.ts).

import type { StoreLocation, ViewChanges } from '../db/shared-reads.js';
import type { SocketOutcome } from '../wasm/host-state.js';

/** What a query thread starts with: where the store is, and its uncommitted writes as they are then. */
export interface QueryThreadData {
  readonly location: StoreLocation;
  readonly view: ViewChanges;
}

/** One request for the http service's serve: its socket and packed ServeArgs. */
export interface QueryRequest {
  readonly id: number;
  readonly socket: number;
  readonly rawData: Uint8Array;
}

/** To a query thread: the store's changes since the last message, if any, then requests that must see them (encodeRequests); or the end. */
export type ToQueryThread = ArrayBuffer | { readonly close: true };

/** A request's outcome, or why the chain thread must run it. */
export type QueryAnswer =
  | { readonly id: number; readonly error: string | null; readonly sockets: SocketOutcome }
  | { readonly id: number; readonly handedOff: string };

/** From a query thread: the answers to one message's requests, in their order (encodeAnswers). */
export type FromQueryThread = ArrayBuffer;
