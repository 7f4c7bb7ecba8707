import { readFileSync, writeFileSync } from 'node:fs';
import {
  bytesToHex, fromPem, generateKeyPair, keyPairFromPkcs8, privateKeyToPkcs8, toPem, type KeyCurve,
} from '../../../host-api/index.js';
import { option, parseArgs, UsageError } from '../args.js';

export const KEYS_USAGE = `usage: tsibase keys [--curve p256|k1] [--out <file.pem>]
       tsibase keys --show <file.pem>

Generates a key pair (P-256 by default, or secp256k1) and prints the private key (PKCS#8 PEM)
and the public key (SubjectPublicKeyInfo as PEM and as hex, the form claims carry).
With --out the private key is written to a file instead of printed. --show prints the public
key of an existing private key file.`;

const CURVES: Record<string, KeyCurve> = { p256: 'P-256', 'p-256': 'P-256', k1: 'secp256k1', secp256k1: 'secp256k1' };

export function keysCommand(argv: string[]): number {
  const args = parseArgs(argv, [{ name: 'curve' }, { name: 'out' }, { name: 'show' }]);
  if (args.positional.length) throw new UsageError(`unexpected argument '${args.positional[0]}'\n\n${KEYS_USAGE}`);
  const show = option(args, 'show');
  let pair;
  if (show) {
    pair = keyPairFromPkcs8(fromPem(readFileSync(show, 'utf8')).der);
  } else {
    const curveName = (option(args, 'curve') ?? 'p256').toLowerCase();
    const curve = CURVES[curveName];
    if (!curve) throw new UsageError(`unknown curve '${curveName}' (use p256 or k1)`);
    pair = generateKeyPair(curve);
    const privatePem = toPem('PRIVATE KEY', privateKeyToPkcs8(pair));
    const out = option(args, 'out');
    if (out) {
      writeFileSync(out, privatePem, { mode: 0o600 });
      console.log(`private key written to ${out}`);
    } else {
      process.stdout.write(privatePem);
    }
  }
  process.stdout.write(toPem('PUBLIC KEY', pair.publicKey));
  console.log(`curve: ${pair.curve}`);
  console.log(`public key (hex): ${bytesToHex(pair.publicKey)}`);
  return 0;
}
