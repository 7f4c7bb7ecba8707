// One core's P-256 verifications per second with node:crypto: the ceiling a signed transfer's
// rate is read against, and what sizes a closed-loop run's prepared transfers.
import { availableParallelism } from 'node:os';
import { createVerify, generateKeyPairSync, sign } from 'node:crypto';
import { SECONDS, WARM_UP_SECONDS } from './closed-loop.js';

export function verifiesPerSecond(): number {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const data = Buffer.alloc(200, 7);
  const signature = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    createVerify('sha256').update(data).verify({ key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

/**
 * Transfers to sign for one closed-loop run (warm-up and window): no node verifies faster than
 * every core at `verifyRate`, so the loops never run out before the window ends.
 */
export function closedLoopTransfers(verifyRate: number): number {
  return Math.ceil(availableParallelism() * verifyRate * (WARM_UP_SECONDS + SECONDS));
}
