import { option, parseArgs, UsageError } from '../args.js';
import { ChainClient, DEFAULT_API } from '../chain-client.js';

export const INFO_USAGE = `usage: tsibase info [-a <url>]

Shows what the node at <url> (default ${DEFAULT_API}) serves: its root domain, the chain id
and the TaPoS of the head block.`;

export async function infoCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'api', short: 'a' }]);
  if (args.positional.length) throw new UsageError(`unexpected argument '${args.positional[0]}'\n\n${INFO_USAGE}`);
  const client = new ChainClient(option(args, 'api') ?? DEFAULT_API);
  const root = await client.getJson('/common/rootdomain');
  const chainId = await client.getJson('/common/chainid');
  const head = await client.headReference();
  console.log(`node:        ${client.api}`);
  console.log(`root domain: ${root}`);
  console.log(`chain id:    ${chainId}`);
  console.log(`head block:  refBlockIndex ${head.refBlockIndex}, refBlockSuffix ${head.refBlockSuffix}`);
  return 0;
}
