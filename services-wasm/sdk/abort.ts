// Aborting: every failure ends the whole execution context through the host's abortMessage
// (docs/host-abi.md §3), so a service never continues after a failed check.

import { abortMessage } from "./host";
import { encodeUtf8 } from "./utf8";

/** Aborts the current action with `message` (the node reports it verbatim). */
export function abort(message: string): void {
  const bytes = encodeUtf8(message);
  abortMessage(bytes.dataStart, bytes.length);
  unreachable();
}

/** Aborts with `message` unless `condition` holds. */
export function check(condition: bool, message: string): void {
  if (!condition) abort(message);
}
