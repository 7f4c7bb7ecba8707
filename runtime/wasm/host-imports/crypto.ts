import { verifyDigest } from '../../crypto/ecdsa.js';
import { verdictFor } from '../../crypto/signature-verdicts.js';
import { HostError } from '../errors.js';
import type { ImportGroup } from './import-group.js';
import { chargeHostCall } from './fuel-schedule.js';

// The tsibase extension import for verify services: ECDSA over a 32-byte SHA-256 digest. The
// check the context was given with its verdict is answered from that verdict; any other check is
// verified here (same answer, on the chain thread).
export const cryptoImports: ImportGroup = {
  ecdsaVerify: (host) => (keyPtr: number, keyLen: number, digestPtr: number, digestLen: number, sigPtr: number, sigLen: number): number => {
    const ctx = host.context;
    const inst = ctx.frame.instance;
    if (ctx.mode !== 'verify') throw new HostError('HOST_ACCESS_DENIED', `ecdsaVerify is only available in verify mode, not ${ctx.mode}`);
    const digest = inst.view(digestPtr, digestLen, 'ecdsaVerify digest');
    if (digest.length !== 32) throw new HostError('HOST_BAD_ARGUMENT', `ecdsaVerify: the digest must be 32 bytes, got ${digest.length}`);
    const key = inst.view(keyPtr, keyLen, 'ecdsaVerify key');
    const signature = inst.view(sigPtr, sigLen, 'ecdsaVerify signature');
    chargeHostCall(ctx.meter, key.length + digest.length + signature.length, 0, 1);
    const valid = verdictFor(ctx.expectedSignature, key, digest, signature) ?? verifyDigest(key, digest, signature);
    return valid ? 1 : 0;
  },
};
