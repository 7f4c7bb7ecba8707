import { equalBytes } from '../../host-api/encoding/bytes.js';
import { toBinaryString } from '../db/binary-string.js';
import type { SignatureCheck } from './signature-batch.js';
import { signatureWorker } from './signature-worker.js';

/** One ECDSA check a verify service is expected to make: the key, the digest, the signature. */
export interface ExpectedCheck extends SignatureCheck {
  /** SHA-256 of `signedData`. */
  readonly digest: Uint8Array;
}

/**
 * Verdicts of ECDSA checks computed ahead of a verify context on the signature worker, so the
 * chain thread does not spend its time on curve arithmetic. ECDSA verification is a pure
 * function, so a verdict found here is exactly what verifying in the import would return; a
 * check nobody predicted is simply not found and is verified in place.
 */
export class SignatureVerdicts {
  private constructor(private readonly verdicts: ReadonlyMap<string, { readonly check: ExpectedCheck; readonly valid: boolean }>) {}

  static async compute(checks: readonly ExpectedCheck[]): Promise<SignatureVerdicts> {
    const verdicts = await Promise.all(checks.map(async (check) => ({ check, valid: await signatureWorker.verify(check) })));
    return new SignatureVerdicts(new Map(verdicts.map((v) => [toBinaryString(v.check.signature), v])));
  }

  /** The verdict computed for exactly this key, digest and signature, or undefined. */
  get(key: Uint8Array, digest: Uint8Array, signature: Uint8Array): boolean | undefined {
    const found = this.verdicts.get(toBinaryString(signature));
    if (!found || !equalBytes(found.check.key, key) || !equalBytes(found.check.digest, digest)) return undefined;
    return found.valid;
  }
}
