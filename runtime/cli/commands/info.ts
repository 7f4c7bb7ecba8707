import { openSystemAccountsIn, systemAccountsQuery } from '../../../host-api/index.js';
import { syncText, type SyncState } from '../../../host-api/http/sync-status.js';
import { httpRequest } from '../client.js';
import { parseArgs, UsageError } from '../args.js';
import { DEFAULT_API } from '../chain-client.js';
import { chainClient } from './client-options.js';

export const INFO_USAGE = `usage: tsibase info [-a <url>]

Shows what the node at <url> (default ${DEFAULT_API}) serves: its root domain, the chain id,
the head block (number, time, producer, id, from the explorer service), its TaPoS reference,
and whether the chain is secure or a development chain (from the accounts service: on a
development chain anyone may act as root and the system accounts). From this machine (or an
admin address) also whether the node runs a development fork (tsibase dev --fork: auth
bypassed), and the block sync: blocks behind the peers, blocks/s and the time left.`;

/** The node's status and sync figures from its admin API; undefined where this client is no admin. */
async function adminSync(api: string): Promise<{ status: string[]; sync: SyncState } | undefined> {
  const r = await httpRequest(new URL('/native/admin/status?sync', api).toString());
  return r.status === 200 ? r.json() as { status: string[]; sync: SyncState } : undefined;
}

interface HeadBlock {
  id: string;
  header: { blockNum: number; time: string; producer: string };
  transactionCount: number;
}

export async function infoCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [{ name: 'api', short: 'a' }]);
  if (args.positional.length) throw new UsageError(`unexpected argument '${args.positional[0]}'\n\n${INFO_USAGE}`);
  const client = chainClient(args);
  const admin = await adminSync(client.api);
  if (admin?.status.includes('needgenesis')) {
    // A node that joins a network has no chain until its first block arrives.
    console.log(`node:        ${client.api}`);
    console.log(`chain:       none yet (${admin.sync.best > 0 ? `its peers are at block ${admin.sync.best}` : 'boot one with tsibase boot, or link it to a network with --join <url>'})`);
    return 0;
  }
  const root = await client.getJson('/common/rootdomain');
  const chainId = await client.getJson('/common/chainid');
  const reference = await client.headReference();
  const { headBlock } = await client.graphql('explorer', '{ headBlock { id header { blockNum time producer } transactionCount } }');
  const head = headBlock as HeadBlock;
  const open = openSystemAccountsIn(await client.graphql('accounts', systemAccountsQuery()));
  console.log(`node:        ${client.api}`);
  console.log(`root domain: ${root}`);
  console.log(`chain id:    ${chainId}`);
  console.log(`head block:  ${head.header.blockNum} at ${head.header.time} by ${head.header.producer}, ${head.transactionCount} transaction(s)`);
  console.log(`             id ${head.id}`);
  console.log(`TaPoS:       refBlockIndex ${reference.refBlockIndex}, refBlockSuffix ${reference.refBlockSuffix}`);
  if (admin?.status.includes('devfork')) {
    console.log('security:    DEVELOPMENT FORK (tsibase dev --fork): the auth services are bypassed on this node, anyone may act as any account;');
    console.log('             its transactions and blocks are not valid on the network it was forked from');
  } else {
    console.log(open.length === 0
      ? 'security:    secure: root and the system accounts need their keys'
      : `security:    DEVELOPMENT CHAIN: anyone may act as ${open.join(', ')} (booted without --account-key)`);
  }
  // Asked again: the chain's figures above took a while on a node that syncs fast.
  if (admin) console.log(`sync:        ${syncText((await adminSync(client.api) ?? admin).sync)}`);
  return 0;
}
