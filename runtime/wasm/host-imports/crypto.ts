import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { verifyDigest } from '../../crypto/ecdsa.js';
import { HostError } from '../errors.js';
import type { HostBinding, ImportGroup } from '../linker.js';
import { chargeHostCall } from './fuel-schedule.js';

// The tsibase extension import for verify services: ECDSA over a 32-byte SHA-256 digest.
export function cryptoImports(host: HostBinding): ImportGroup {
  return {
    ecdsaVerify(keyPtr: number, keyLen: number, digestPtr: number, digestLen: number, sigPtr: number, sigLen: number): number {
      const ctx = host.context;
      const inst = ctx.frame.instance;
      if (ctx.mode !== 'verify') throw new HostError('HOST_ACCESS_DENIED', `ecdsaVerify is only available in verify mode, not ${ctx.mode}`);
      const digest = inst.view(digestPtr, digestLen, 'ecdsaVerify digest');
      if (digest.length !== 32) throw new HostError('HOST_BAD_ARGUMENT', `ecdsaVerify: the digest must be 32 bytes, got ${digest.length}`);
      const key = inst.view(keyPtr, keyLen, 'ecdsaVerify key');
      const signature = inst.view(sigPtr, sigLen, 'ecdsaVerify signature');
      chargeHostCall(ctx.meter, key.length + digest.length + signature.length, 0, 1);
      const valid = ctx.signatureVerdicts?.get(key, digest, signature) ?? verifyDigest(key, digest, signature, ctx.signedData.get(bytesToHex(digest)));
      return valid ? 1 : 0;
    },
  };
}
