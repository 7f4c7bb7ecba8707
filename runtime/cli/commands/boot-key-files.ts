import { option, UsageError, type ParsedArgs } from '../args.js';
import type { BootKeys } from '../../node/tsibase-node.js';
import { readKeyArgument, type KeyArgument } from '../key-arguments.js';

// The keys of a boot's key options (boot-keys.ts) read from their files or hex.

function keyOption(args: ParsedArgs, name: string): KeyArgument | undefined {
  const source = option(args, name);
  if (source === undefined) return undefined;
  try {
    return readKeyArgument(source);
  } catch (err) {
    throw new UsageError(`--${name}: ${(err as Error).message}`);
  }
}

export function bootKeys(args: ParsedArgs): BootKeys {
  return { accountKey: keyOption(args, 'account-key')?.publicKey, blockKey: keyOption(args, 'block-key') };
}
