// Shared by the key tests: node directories, a SoftHSM token, and a check of held signers.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { verifyDigest } from '../../../../runtime/crypto/ecdsa.js';
import type { Key, Signer } from '../../../../runtime/keys/node-keys.js';

/** Where Debian's softhsm2 puts its PKCS#11 module (scripts/install-softhsm.sh installs it). */
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

/** Runs `run` in a fresh temporary directory, removed afterwards. */
export function withTempDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-keys-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
  const tokens = join(dir, 'tokens');
  const config = join(dir, 'softhsm2.conf');
  mkdirSync(tokens);
  writeFileSync(config, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = config;
  try {
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', soPin], { stdio: 'pipe' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('softhsm2 is not installed (softhsm2-util not found): run scripts/install-softhsm.sh');
    }
    throw err;
  }
}
