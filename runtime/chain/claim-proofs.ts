import { methodNumberFromName } from '../../host-api/names/index.js';
import type { Claim } from '../../host-api/types/index.js';
import { VerifyArgs } from '../../host-api/types/native.js';
import { withVerdicts, type ExpectedSignature } from '../crypto/signature-verdicts.js';
import type { Executor } from '../wasm/executor.js';

const VERIFY_SYS = methodNumberFromName('verifySys');

/** A proof of one claim over `signedData`, whose SHA-256 is `digest` (the verify service's transactionHash). */
export interface ClaimProof {
  readonly claim: Claim;
  readonly proof: Uint8Array;
  readonly signedData: Uint8Array;
  readonly digest: Uint8Array;
}

/**
 * Runs each claim's verifySys in verify mode (docs/chain.md §3), in order, and returns the error of
 * the first that aborts (undefined when all pass). The signature check each verify service is
 * expected to make (claim data as the key, the proof as the signature) runs first on the
 * signature worker; its verify context gets the verdict as input instead of computing it on the
 * chain thread. Transaction proofs and block signatures (docs/chain.md §1.2) are checked alike.
 */
export async function firstFailedProof(executor: Executor, proofs: readonly ClaimProof[]): Promise<Error | undefined> {
  if (proofs.length === 0) return undefined;
  const expected = await withVerdicts(proofs.map((p) => ({ key: p.claim.rawData, digest: p.digest, signedData: p.signedData, signature: p.proof })));
  for (const [i, proof] of proofs.entries()) {
    const error = claimProofError(executor, proof, expected[i]);
    if (error) return error;
  }
  return undefined;
}

/**
 * Runs one claim's verifySys in verify mode, now, on this thread (where a caller cannot wait for
 * the signature worker: P2P messages, docs/p2p.md §2.0); the error it aborted with, if any.
 */
export function claimProofError(executor: Executor, { claim, proof, digest }: ClaimProof, expectedSignature?: ExpectedSignature): Error | undefined {
  const { error } = executor.run({
    mode: 'verify',
    target: { action: { sender: 0n, service: claim.service, method: VERIFY_SYS, rawData: VerifyArgs.pack({ transactionHash: digest, claim, proof }) } },
    expectedSignature,
  });
  return error ?? undefined;
}
