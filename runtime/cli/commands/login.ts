import { parseArgs, UsageError } from '../args.js';
import { SIGNING_OPTIONS, SIGNING_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const LOGIN_USAGE = `usage: tsibase login <account> -s <key.pem> [options]

Logs <account> in on the node: prints a bearer token that makes the node's services see the
account as the user of a request (send it as 'Authorization: Bearer <token>'). The token is
good for 30 days, on this node and its root domain only.

options:
${SIGNING_OPTIONS_USAGE}`;

export async function loginCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, SIGNING_OPTIONS);
  const [name, extra] = args.positional;
  if (!name || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <account>'}\n\n${LOGIN_USAGE}`);
  const account = accountArgument(name);
  const { keys, expiresIn } = pushOptions(args);
  console.log(await chainClient(args).login(account, keys!, expiresIn));
  return 0;
}
