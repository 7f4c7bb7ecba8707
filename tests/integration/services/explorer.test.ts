// The explorer service on a real node: blocks from the block log over GraphQL, checked against
// what the chain says elsewhere (the chain id is block 2's id; a pushed transaction's id), and
// the blocks connection paged every way psibase's explorer pages it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql as executeGraphql, parse, validate } from 'graphql';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { waitForBlocks } from '../../lib/chain-head.js';
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

interface PageInfo { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null; endCursor: string | null }
interface BlockConnection {
  edges: { node: { id: string; header: { blockNum: number; previous: string } }; cursor: string }[];
  pageInfo: PageInfo;
}

const CONNECTION_FIELDS = 'edges { node { id header { blockNum previous } } cursor } pageInfo { hasPreviousPage hasNextPage startCursor endCursor }';

/** A blocks connection's block numbers, in order. */
const numbersOf = (c: BlockConnection) => c.edges.map((e) => e.node.header.blockNum);

/** psibase's cursor of a block: its key in the block log (big-endian u32) in hex. */
const cursorOf = (num: number) => num.toString(16).toUpperCase().padStart(8, '0');

async function blocks(client: ChainClient, args: string): Promise<BlockConnection> {
  const { blocks: connection } = await client.graphql('explorer', `{ blocks(${args}) { ${CONNECTION_FIELDS} } }`) as { blocks: BlockConnection };
  for (const edge of connection.edges) assert.is(edge.cursor, cursorOf(edge.node.header.blockNum));
  return connection;
}

/** The whole reply to a query, errors included. */
async function rawQuery(node: RunningNode, query: string) {
  const r = await httpRequest(serviceUrl(node.api, 'explorer', '/graphql'), {
    method: 'POST', headers: { 'content-type': 'application/graphql' }, body: new TextEncoder().encode(query),
  });
  return { status: r.status, ...(r.json() as { data?: unknown; errors?: { message: string; path?: string[] }[] }) };
}

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
  const fields = schema.getQueryType()!.getFields();
  assert.equal(Object.keys(fields).sort(), ['block', 'blocks', 'headBlock']);
  assert.equal(fields.blocks.args.map((a) => `${a.name}: ${a.type}`),
    ['gt: Float', 'ge: Float', 'lt: Float', 'le: Float', 'first: Float', 'last: Float', 'before: String', 'after: String']);
  assert.is(String(fields.blocks.type), 'BlockConnection!');
  // A query valid for the served schema runs in graphql-js too (no resolvers: all null).
  const local = await executeGraphql({ schema, source: `{ block(num: 2) { ${BLOCK_FIELDS} } }` });
  assert.is(local.errors, undefined);
  assert.equal(validate(schema, parse(`{ blocks(ge: 2, last: 2, before: "00000009") { ${CONNECTION_FIELDS} } }`)), []);
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

test('blocks(last: 1) is the head block; first: N starts at the oldest block', async ({ client }) => {
  await waitForBlocks(client, 0, 4);
  // One query: both answers come from the same state.
  const { headBlock, blocks: last } = await client.graphql('explorer', `{ headBlock { id header { blockNum } } blocks(last: 1) { ${CONNECTION_FIELDS} } }`) as
    { headBlock: BlockView; blocks: BlockConnection };
  assert.equal(last.edges.map((e) => e.node.id), [headBlock.id]);
  const headCursor = cursorOf(headBlock.header.blockNum);
  assert.is(last.edges[0].cursor, headCursor);
  assert.equal(last.pageInfo, { hasPreviousPage: true, hasNextPage: false, startCursor: headCursor, endCursor: headCursor });

  const first = await blocks(client, 'first: 3');
  const oldest = first.edges[0].node.header.blockNum;
  assert.equal(numbersOf(first), [oldest, oldest + 1, oldest + 2]);
  assert.equal(await client.graphql('explorer', `{ block(num: ${oldest - 1}) { id } }`), { block: null });
  assert.is(first.edges[1].node.header.previous, first.edges[0].node.id);
  assert.is(first.edges[2].node.header.previous, first.edges[1].node.id);
  assert.equal(first.pageInfo, { hasPreviousPage: false, hasNextPage: true, startCursor: cursorOf(oldest), endCursor: cursorOf(oldest + 2) });
});

test('after and before page a ge/le range forward and back', async ({ client }) => {
  await waitForBlocks(client, 0, 9);
  const range = 'ge: 3, le: 8';
  assert.equal(numbersOf(await blocks(client, range)), [3, 4, 5, 6, 7, 8]);
  assert.equal(numbersOf(await blocks(client, 'gt: 2, lt: 9')), [3, 4, 5, 6, 7, 8]);

  // Forward with first/after: hasNextPage tells whether more follow (docs/serving.md §4.7).
  const page1 = await blocks(client, `${range}, first: 4`);
  assert.equal(numbersOf(page1), [3, 4, 5, 6]);
  assert.equal(page1.pageInfo, { hasPreviousPage: false, hasNextPage: true, startCursor: cursorOf(3), endCursor: cursorOf(6) });
  const page2 = await blocks(client, `${range}, first: 4, after: "${page1.pageInfo.endCursor}"`);
  assert.equal(numbersOf(page2), [7, 8]);
  assert.equal(page2.pageInfo, { hasPreviousPage: false, hasNextPage: false, startCursor: cursorOf(7), endCursor: cursorOf(8) });

  // Backward with last/before, as psibase's explorer pages from the head: hasPreviousPage tells.
  const back1 = await blocks(client, `${range}, last: 4`);
  assert.equal(numbersOf(back1), [5, 6, 7, 8]);
  assert.equal(back1.pageInfo, { hasPreviousPage: true, hasNextPage: false, startCursor: cursorOf(5), endCursor: cursorOf(8) });
  const back2 = await blocks(client, `${range}, last: 4, before: "${back1.pageInfo.startCursor}"`);
  assert.equal(numbersOf(back2), [3, 4]);
  assert.equal(back2.pageInfo, { hasPreviousPage: false, hasNextPage: false, startCursor: cursorOf(3), endCursor: cursorOf(4) });

  // Both cursors: the blocks between them; cursors in lower case are the same cursors.
  assert.equal(numbersOf(await blocks(client, `after: "${cursorOf(3)}", before: "${cursorOf(6).toLowerCase()}"`)), [4, 5]);
  // Every page's node is the block of that number.
  const { block } = await client.graphql('explorer', '{ block(num: 5) { id } }') as { block: { id: string } };
  assert.is(back1.edges[0].node.id, block.id);
});

test('empty ranges and pages give no edges and null cursors', async ({ client }) => {
  const empty = { hasPreviousPage: false, hasNextPage: false, startCursor: null, endCursor: null };
  for (const args of ['ge: 8, le: 3', 'ge: 999999', 'gt: 4, lt: 5', `after: "${cursorOf(999999)}"`, `before: "${cursorOf(1)}"`]) {
    const c = await blocks(client, args);
    assert.equal(c.edges, [], args);
    assert.equal(c.pageInfo, empty, args);
  }
  // A page of none still tells that blocks lie beyond it.
  assert.equal((await blocks(client, 'first: 0')).pageInfo, { ...empty, hasNextPage: true });
  assert.equal((await blocks(client, 'ge: 3, le: 8, last: 0')).pageInfo, { ...empty, hasPreviousPage: true });
});

test('bad arguments are GraphQL errors; the explorer keeps answering', async ({ node, client }) => {
  const fieldErrors: [string, string][] = [
    ['first: -1', 'Argument "first" must be a non-negative whole number.'],
    ['last: 1.5', 'Argument "last" must be a whole number.'],
    ['after: "xyz"', 'Argument "after" is not a cursor.'],
    ['ge: -1', 'Argument "ge" is not a u32: -1'],
    ['le: 4294967296', 'Argument "le" is not a u32: 4294967296'],
  ];
  for (const [args, message] of fieldErrors) {
    const r = await rawQuery(node, `{ blocks(${args}) { edges { cursor } } }`);
    assert.is(r.status, 200, args);
    assert.is(r.data, null, args);
    assert.is(r.errors?.length, 1, args);
    assert.is(r.errors![0].message, message, args);
    assert.equal(r.errors![0].path, ['blocks'], args);
  }
  // What a validator refuses: no data at all.
  for (const args of ['ge: "3"', 'first: true', 'num: 3']) {
    const r = await rawQuery(node, `{ blocks(${args}) { edges { cursor } } }`);
    assert.is(r.status, 200, args);
    assert.is(r.data, undefined, args);
    assert.ok(r.errors?.length, args);
  }
  assert.equal(numbersOf(await blocks(client, 'ge: 3, first: 1')), [3]);
});

test("psibase explorer's block query runs: header fields and each transaction's actions", async ({ client }) => {
  const { blocks: connection } = await client.graphql('explorer', `{ blocks(ge: 2, le: 2) { edges { node {
    header { blockNum previous time producer term commitNum }
    transactions { transaction { tapos { expiration } actions { sender service method } } proofs } } } } }`) as {
      blocks: { edges: { node: { header: { blockNum: number; time: string; producer: string }; transactions: { transaction: { actions: unknown[] }; proofs: string[] }[] } }[] };
    };
  const { block } = await client.graphql('explorer', `{ block(num: 2) { ${BLOCK_FIELDS} } }`) as { block: BlockView };
  assert.is(connection.edges.length, 1);
  const node = connection.edges[0].node;
  assert.is(node.header.blockNum, 2);
  assert.is(node.header.producer, 'prod');
  assert.ok(!Number.isNaN(Date.parse(node.header.time)), node.header.time);
  assert.equal(node.transactions.map((t) => t.transaction.actions), block.transactions.map((t) => t.actions));
});

test.run();
