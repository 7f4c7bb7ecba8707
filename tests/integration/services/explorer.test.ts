// The explorer service on a real node: blocks from the block log over GraphQL, checked against
// what the chain says elsewhere (the chain id is block 2's id; a pushed transaction's id).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql as executeGraphql } from 'graphql';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient }
const test = suite<Ctx>('explorer');

interface BlockView {
  id: string;
  header: { blockNum: number; previous: string; producer: string };
  transactionCount: number;
  transactions: { id: string; actions: { sender: string; service: string; method: string }[] }[];
}

const BLOCK_FIELDS = 'id header { blockNum previous producer } transactionCount transactions { id actions { sender service method } }';

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-explorer-'));
  ctx.node = await startBootedNode(ctx.dir);
  ctx.client = new ChainClient(ctx.node.api);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the served SDL builds with graphql-js and has the Query fields', async ({ node }) => {
  const r = await httpRequest(serviceUrl(node.api, 'explorer', '/graphql'));
  assert.is(r.status, 200);
  const schema = buildSchema(r.text());
  assert.equal(Object.keys(schema.getQueryType()!.getFields()).sort(), ['block', 'headBlock']);
  // A query valid for the served schema runs in graphql-js too (no resolvers: all null).
  const local = await executeGraphql({ schema, source: `{ block(num: 2) { ${BLOCK_FIELDS} } }` });
  assert.is(local.errors, undefined);
});

test('block 2 is the boot block: its id is the chain id; blocks link by previous', async ({ client }) => {
  const chainId = await client.getJson('/common/chainid');
  const { block } = await client.graphql('explorer', `{ block(num: 2) { ${BLOCK_FIELDS} } }`) as { block: BlockView };
  assert.is(block.id, chainId);
  assert.is(block.header.blockNum, 2);
  assert.is(block.header.producer, 'prod');
  assert.is(block.transactionCount, block.transactions.length);
  assert.ok(block.transactionCount > 0);
  // Blocks come every 200 ms: wait for a head past block 3, then check the links.
  let head: BlockView;
  do {
    ({ headBlock: head } = await client.graphql('explorer', `{ headBlock { ${BLOCK_FIELDS} } }`) as { headBlock: BlockView });
  } while (head.header.blockNum < 4);
  const { before } = await client.graphql('explorer', `{ before: block(num: ${head.header.blockNum - 1}) { id } }`) as { before: { id: string } };
  assert.is(head.header.previous, before.id);
  assert.is(parseInt(head.id.slice(0, 8), 16), head.header.blockNum);
  assert.equal(await client.graphql('explorer', '{ block(num: 999999) { id } }'), { block: null });
});

test('a pushed transaction shows up in its block with its id and actions', async ({ client }) => {
  const rawData = await client.packAction('example', 'increment', { name: 'seen', by: '1' });
  const pushed = await client.push([{ sender: 'example', service: 'example', method: 'increment', rawData }], { waitFor: 'final' });
  const { headBlock } = await client.graphql('explorer', '{ headBlock { header { blockNum } } }') as { headBlock: BlockView };
  let found: BlockView['transactions'][number] | undefined;
  for (let num = headBlock.header.blockNum; num > 2 && !found; num--) {
    const { block } = await client.graphql('explorer', `{ block(num: ${num}) { ${BLOCK_FIELDS} } }`) as { block: BlockView };
    found = block.transactions.find((t) => t.id.toLowerCase() === pushed.id.toLowerCase());
  }
  assert.ok(found, 'the transaction is in a block');
  assert.equal(found!.actions, [{ sender: 'example', service: 'example', method: 'increment' }]);
});

test.run();
