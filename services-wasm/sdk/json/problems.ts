// A mistake in JSON a client sent (pack_action, /common/pack) is the client's: it is answered with
// a 400 naming the field, not an abort (a 500 that reads like the service failed). While problems
// are collected, the parser and the decoders record the first one and carry on with a harmless
// value, which the caller then discards; outside, a problem aborts as it always did.

import { abort } from "../abort";

let collecting = false;
let first: string | null = null;

/** Aborts with `message`; while problems are collected, records it (the first one wins) instead. */
export function jsonProblem(message: string): void {
  if (!collecting) abort(message);
  if (first === null) first = message;
}

/** Parsing and decoding record their first problem instead of aborting, until stopCollectingJsonProblems. */
export function startCollectingJsonProblems(): void {
  collecting = true;
  first = null;
}

/** Whether a problem was recorded since collecting started (what was decoded is then worthless). */
export function jsonProblemSeen(): bool {
  return first !== null;
}

/** Stops collecting; answers the first problem recorded, or null. */
export function stopCollectingJsonProblems(): string | null {
  const problem = first;
  collecting = false;
  first = null;
  return problem;
}
