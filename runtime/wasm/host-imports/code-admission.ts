import { equalBytes } from '../../../host-api/encoding/bytes.js';
import { NativeTable } from '../../../host-api/abi/keys.js';
import { sha256 } from '../../crypto/sha256.js';
import { AdmissionError } from '../admission/index.js';
import { HostError, ServiceAbort } from '../errors.js';
import type { HostState } from '../host-state.js';
import type { NativeWrite } from './native-rows.js';

// Code is admitted when it is stored (setcode writing a `codeByHash` row), not when it is first
// run: a module outside the host ABI or the admitted features is refused on chain, with
// admission's message, instead of being stored and failing every later call. The row's hash is
// the key of the compiled-code cache, so it must be the hash of the bytes that were admitted.

/**
 * Admits the code of a new `codeByHash` row `service` writes; other native writes pass, and so
 * does a row already stored under that key (a reference count changing: the same code).
 */
export function admitStoredCode(ctx: HostState, service: string, write: NativeWrite, isStored: () => boolean): void {
  if (write.table !== NativeTable.codeByHash || isStored()) return;
  const { codeHash, code } = write.row as { codeHash: Uint8Array; code: Uint8Array };
  if (!equalBytes(sha256(code), codeHash)) {
    throw new HostError('HOST_BAD_ARGUMENT', 'kvPut: a codeByHash row\'s codeHash is not the SHA-256 of its code');
  }
  try {
    ctx.admitCode(codeHash, code);
  } catch (err) {
    if (err instanceof AdmissionError) throw new ServiceAbort(service, err.message);
    throw err;
  }
}
