import { accountNameFromNumber, accountNumberFromName } from '../../../host-api/index.js';
import { option, type OptionSpec, type ParsedArgs, UsageError } from '../args.js';
import { ChainClient, DEFAULT_API, type PushOptions } from '../chain-client.js';
import { readPrivateKey } from '../key-arguments.js';

// Options every command that talks to a node's chain takes.

/** Options of every command that signs a transaction. */
export const SIGNING_OPTIONS: readonly OptionSpec[] = [
  { name: 'api', short: 'a' },
  { name: 'sign', short: 's', repeatable: true },
  { name: 'expire-after' },
];

export const SIGNING_OPTIONS_USAGE = `  -a, --api <url>              the node (default ${DEFAULT_API})
  -s, --sign <key.pem>         sign with this private key (repeatable)
      --expire-after <s>       seconds until the transaction expires (default 10)`;

/** Options of every command that pushes a transaction. */
export const CLIENT_OPTIONS: readonly OptionSpec[] = [...SIGNING_OPTIONS, { name: 'wait', short: 'w' }];

export const CLIENT_OPTIONS_USAGE = `${SIGNING_OPTIONS_USAGE}
  -w, --wait <applied|final>   answer once applied, or once in a final block (default final;
                               a failed transaction is reported at its expiration then)`;

/** What the options say about signing and pushing. */
export function pushOptions(args: ParsedArgs): PushOptions {
  const wait = option(args, 'wait') ?? 'final';
  if (wait !== 'applied' && wait !== 'final') throw new UsageError(`--wait must be applied or final, not '${wait}'`);
  const expiresIn = Number(option(args, 'expire-after') ?? '10');
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 3600) throw new UsageError('--expire-after must be a whole number of seconds from 1 to 3600');
  return { keys: (args.options.get('sign') ?? []).map(readPrivateKey), waitFor: wait, expiresIn };
}

/** The client for the node the options name. */
export function chainClient(args: ParsedArgs): ChainClient {
  return new ChainClient(option(args, 'api') ?? DEFAULT_API);
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
