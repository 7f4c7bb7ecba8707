import { TsibaseError } from '../../../host-api/errors.js';
import { readBuiltService } from '../../build/built-service.js';
import { admitModule } from '../../wasm/admission/index.js';
import { option, parseArgs, UsageError } from '../args.js';
import { readPublicKey } from '../key-arguments.js';
import { deployActions } from '../../../host-api/boot/deploy-actions.js';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const DEPLOY_USAGE = `usage: tsibase deploy <account> <file.wasm> [options]

Installs <file.wasm> as the service of <account> (setcode::setCode, sent by the account), in one
transaction with the options' actions.

options:
${CLIENT_OPTIONS_USAGE}
  -i, --create-insecure-account create <account> first if missing, with auth-any (development only)
  -k, --create-account <key>    create <account> first if missing, with auth-sig and this public key
                                (a public or private key file, or the key as hex)
      --creator <account>       the account that creates it (default root)
  -r, --register-server         serve <account>'s subdomain with its serveSys (http::registerServer)
      --init                    run the service's init() action after installing it
      --no-schema               do not store the service's schema with packages::setSchema

The schema stored is <file>.schema.json beside <file.wasm> when there is one (what make services
writes), else the one the build embedded in the module (custom section service-schema).`;

/** A failure because the account to deploy to is missing gets the options that create it. */
function missingAccountHint(err: unknown, account: string, creator: string): unknown {
  if (!(err instanceof TsibaseError) || !err.message.includes(`account ${account} does not exist`)) return err;
  return new TsibaseError(err.code, `${err.message}\n  create it in the same transaction: -i (--create-insecure-account, development chains) or -k <key> (--create-account), created by ${creator} (--creator)`);
}

export async function deployCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [
    ...CLIENT_OPTIONS,
    { name: 'create-insecure-account', short: 'i', flag: true },
    { name: 'create-account', short: 'k' },
    { name: 'creator' },
    { name: 'register-server', short: 'r', flag: true },
    { name: 'init', flag: true },
    { name: 'no-schema', flag: true },
  ]);
  const [name, file, extra] = args.positional;
  if (!name || !file || extra) throw new UsageError(`${extra ? `unexpected argument '${extra}'` : 'missing <account> or <file.wasm>'}\n\n${DEPLOY_USAGE}`);
  const account = accountArgument(name);
  const { code, schema } = readBuiltService(file);
  // The node would refuse the module when it first runs; say so before anything is pushed.
  try {
    admitModule(code);
  } catch (err) {
    throw new TsibaseError('CLI_BAD_MODULE', `${file} is not a module the node accepts: ${(err as Error).message}`);
  }
  const creator = accountArgument(option(args, 'creator') ?? 'root');
  const key = option(args, 'create-account');
  if (key && args.options.has('create-insecure-account')) throw new UsageError('use --create-account or --create-insecure-account, not both');

  const actions = deployActions(account, code, {
    create: key ? { key: readPublicKey(key) } : args.options.has('create-insecure-account') ? { insecure: true } : undefined,
    creator,
    registerServer: args.options.has('register-server'),
    init: args.options.has('init'),
    schema: args.options.has('no-schema') ? null : schema,
  });
  console.log(`deploying ${file} (${code.length} bytes) as ${account}`);
  const { id } = await chainClient(args).push(actions, pushOptions(args)).catch((err: unknown) => {
    throw missingAccountHint(err, account, creator);
  });
  console.log(`deployed ${account} in transaction ${id}`);
  return 0;
}
