import { equalBytes } from '../../host-api/encoding/bytes.js';
import { verifySignedData } from './ecdsa.js';
import type { SignatureCheck } from './signature-batch.js';
import { signatureWorker } from './signature-worker.js';

/** One ECDSA check a verify service is expected to make: the key, the digest, the signature. */
export interface ExpectedCheck extends SignatureCheck {
  /** SHA-256 of `signedData`. */
  readonly digest: Uint8Array;
}

/**
 * A verify context's input: the check its verify service is expected to make and the verdict,
 * computed ahead on the signature worker so the chain thread does no curve arithmetic. ECDSA
 * verification is a pure function, so the verdict is exactly what verifying in place returns.
 */
export interface ExpectedSignature {
  readonly key: Uint8Array;
  readonly digest: Uint8Array;
  readonly signature: Uint8Array;
  readonly valid: boolean;
}

/** The checks with their verdicts, in order. */
export async function withVerdicts(checks: readonly ExpectedCheck[]): Promise<ExpectedSignature[]> {
  return Promise.all(checks.map(async (check) => ({
    key: check.key, digest: check.digest, signature: check.signature, valid: await signatureWorker.verify(check),
  })));
}

/**
 * The check with its verdict, computed now on this thread from the signed bytes (node:crypto,
 * ~13k/s), for callers that cannot wait for the worker (P2P messages): the verify service would
 * otherwise check the bare digest with @noble/curves, over ten times slower.
 */
export function withVerdictNow(check: ExpectedCheck): ExpectedSignature {
  return { key: check.key, digest: check.digest, signature: check.signature, valid: verifySignedData(check.key, check.signedData, check.signature) };
}

/** The verdict of `expected` when it is exactly the check of this key, digest and signature. */
export function verdictFor(expected: ExpectedSignature | undefined, key: Uint8Array, digest: Uint8Array, signature: Uint8Array): boolean | undefined {
  if (!expected || !equalBytes(expected.signature, signature) || !equalBytes(expected.key, key) || !equalBytes(expected.digest, digest)) return undefined;
  return expected.valid;
}
