import { TsibaseError } from '../../../host-api/errors.js';
import { option, parseArgs, UsageError } from '../args.js';
import { DEFAULT_API } from '../chain-client.js';
import { httpRequest } from '../client.js';

export const INFO_USAGE = `usage: tsibase info [-a <url>]

Shows what the node at <url> (default ${DEFAULT_API}) serves: its root domain, the chain id
and the TaPoS of the head block.`;

export async function infoCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'api', short: 'a' }]);
  if (args.positional.length) throw new UsageError(`unexpected argument '${args.positional[0]}'\n\n${INFO_USAGE}`);
  const api = option(args, 'api') ?? DEFAULT_API;
  const get = async (path: string) => {
    const r = await httpRequest(new URL(path, api).toString());
    if (r.status !== 200) throw new TsibaseError('CLI_NODE_ERROR', `GET ${path}: ${r.status} ${r.text()}`);
    return r.json();
  };
  const root = await get('/common/rootdomain');
  const chainId = await get('/common/chainid');
  const head = (await get('/common/tapos/head')) as { refBlockIndex: number; refBlockSuffix: number };
  console.log(`node:        ${api}`);
  console.log(`root domain: ${root}`);
  console.log(`chain id:    ${chainId}`);
  console.log(`head block:  refBlockIndex ${head.refBlockIndex}, refBlockSuffix ${head.refBlockSuffix}`);
  return 0;
}
