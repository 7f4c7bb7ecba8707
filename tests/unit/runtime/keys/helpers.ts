// Shared by the key tests: node directories, a SoftHSM token, and a check of held signers.

import { randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { verifyDigest } from '../../../../runtime/crypto/ecdsa.js';
import type { Key, Signer } from '../../../../runtime/keys/node-keys.js';
import { softHsmToken } from '../../../lib/softhsm.js';

export { SOFTHSM_MODULE } from '../../../lib/softhsm.js';

/** Asserts that `signer` signs a random digest with `key` (verified as verify-sig does); returns the signature. */
export function assertSignsFor(signer: Signer, key: Key): Uint8Array {
  const digest = randomBytes(32);
  const signature = signer(digest);
  assert.is(signature.length, 64);
  assert.ok(verifyDigest(hexToBytes(key.rawData), digest, signature), `signature by ${key.rawData} does not verify`);
  return signature;
}

/**
 * A fresh SoftHSM token store in `dir` holding one token, and SOFTHSM2_CONF pointing at it: the
 * module reads that variable when it initializes, so it must be set before a NodeKeys loads it.
 */
export function createSoftHsmToken(dir: string, label: string, pin: string, soPin: string): void {
  process.env.SOFTHSM2_CONF = softHsmToken(dir, label, pin, soPin);
}
