import { coreSchema, hexToBytes, systemAction } from '../../../host-api/index.js';
import { TsibaseError } from '../../../host-api/errors.js';
import { findActionTrace, type ActionTraceJson } from '../../../host-api/traces/trace-json.js';
import { option, parseArgs, UsageError } from '../args.js';
import { readPublicKey } from '../key-arguments.js';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const CREATE_USAGE = `usage: tsibase create <account> (--key <key> | --insecure) [options]

Creates an account. With --key it authenticates with auth-sig and that public key (a public or
private key file, or the key as hex): its transactions must be signed with the private key.

options:
  -k, --key <key>              the account's public key
  -i, --insecure               use auth-any: anyone may act as the account (development only)
      --creator <account>      the existing account that creates it (default root; sign with its key)
${CLIENT_OPTIONS_USAGE}`;

export async function createCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [...CLIENT_OPTIONS, { name: 'key', short: 'k' }, { name: 'insecure', short: 'i', flag: true }, { name: 'creator' }]);
  const [name, extra] = args.positional;
  if (!name || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <account>'}\n\n${CREATE_USAGE}`);
  const account = accountArgument(name);
  const key = option(args, 'key');
  const insecure = args.options.has('insecure');
  if (!key === !insecure) throw new UsageError(`give exactly one of --key and --insecure\n\n${CREATE_USAGE}`);
  const creator = accountArgument(option(args, 'creator') ?? 'root');
  const action = key
    ? systemAction(creator, 'auth-sig.newAccount', { name: account, key: readPublicKey(key) })
    : systemAction(creator, 'accounts.newAccount', { name: account, authService: 'auth-any', requireMatch: true });
  const { trace } = await chainClient(args).push([action], pushOptions(args));
  // accounts::newAccount leaves an account that already uses auth-any as it is and answers false.
  const created = key ? undefined : findActionTrace(trace.actionTraces as ActionTraceJson[], 'accounts', 'newAccount');
  if (created && coreSchema.typeOf('bool').unpack(hexToBytes(created.rawRetval)) !== true) {
    throw new TsibaseError('CLI_ACCOUNT_EXISTS', `account ${name} already exists`);
  }
  console.log(`created ${account}${key ? ' (auth-sig)' : ' (auth-any)'}`);
  return 0;
}
