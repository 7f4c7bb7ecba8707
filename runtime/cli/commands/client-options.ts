import { accountNameFromNumber, accountNumberFromName, type KeyPair } from '../../../host-api/index.js';
import { type OptionSpec, type ParsedArgs, UsageError } from '../args.js';
import { readPrivateKey } from '../chain-client.js';

// Options every command that talks to a node's chain takes.

export const CLIENT_OPTIONS: readonly OptionSpec[] = [
  { name: 'api', short: 'a' },
  { name: 'sign', short: 's', repeatable: true },
];

/** The keys of every --sign option. */
export function signingKeys(args: ParsedArgs): KeyPair[] {
  return (args.options.get('sign') ?? []).map(readPrivateKey);
}

/** An account name argument, checked before anything is sent; returns its canonical (lower case) form. */
export function accountArgument(name: string): string {
  if (name === '') throw new UsageError('an account name cannot be empty');
  try {
    return accountNameFromNumber(accountNumberFromName(name));
  } catch (err) {
    throw new UsageError(`'${name}' is not a valid account name: ${(err as Error).message}`);
  }
}
