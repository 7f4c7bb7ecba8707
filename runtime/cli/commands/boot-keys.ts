import type { OptionSpec } from '../args.js';

// The key options of a boot (`tsibase boot` and `tsibase node --boot`), with psibase's flag names.
// Reading the keys is boot-key-files.ts': a supervising `tsibase node` parses these options but
// leaves the keys (and the crypto code they need) to the node's process.

export const BOOT_KEY_OPTIONS: readonly OptionSpec[] = [{ name: 'account-key', short: 'k' }, { name: 'block-key' }];

/** The options' lines of a usage text whose descriptions start at column `column`. */
export function bootKeyUsage(column: number): string {
  const line = (head: string, text: string) => `${head.padEnd(column)}${text}`;
  return [
    line('  -k, --account-key <key>', 'every account the boot creates authenticates with auth-sig and'),
    line('', '<key>; without it the chain is a development chain: anyone may act'),
    line('', 'as root and every system account'),
    line('      --block-key <key>', 'the producer signs its blocks with <key> (verify-sig) from the'),
    line('', "block after the boot on; a private key file is also stored in the"),
    line('', "node's keys"),
    '  <key>: a public or private key file (PEM or DER), or a public key as hex',
  ].join('\n');
}
