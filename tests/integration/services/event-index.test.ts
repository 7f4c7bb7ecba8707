// transact::regEvIdx on a real node process (docs/system-services.md "Event tables"): only transact
// registers the event index service; once `events` is registered, transact has it sync at the end
// of every transaction (inside the transaction, sender transact) and start with every block, and
// the chain goes on; no one else may drive it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coreSchema } from '../../../host-api/types/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { headBlockNum, waitForBlocks } from '../../lib/chain-head.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { runsNode, type NodeContext } from '../../lib/node-suite.js';
import { actionsUnder } from '../../../host-api/traces/trace-json.js';

interface Ctx extends NodeContext { client: ChainClient }
const test = suite<Ctx>('event index registration');

const RegEvIdxArgs = coreSchema.typeOf({ Object: { service: 'AccountNumber' } });
const NO_ARGS = coreSchema.typeOf({ Object: {} }).pack({});

const regEvIdx = (sender: string, service: string) => ({ sender, service: 'transact', method: 'regEvIdx', rawData: RegEvIdxArgs.pack({ service }) });

runsNode(test, 'event-index', async (dir, ctx) => {
  const node = await startBootedNode(dir);
  ctx.client = new ChainClient(node.api);
  return node;
});

test('only transact registers the event index service', async ({ client }) => {
  assert.match(await rejectionMessage(client.push([regEvIdx('root', 'events')], { waitFor: 'applied' }), 'root registered an index'), 'sender must be transact');
});

test('registered, events syncs after every transaction and starts with every block; the chain goes on', async ({ client }) => {
  await client.push([regEvIdx('transact', 'events')]);
  const { trace } = await client.push([{ sender: 'root', service: 'accounts', method: 'newAccount', rawData: coreSchema.typeOf({ Object: { name: 'AccountNumber', authService: 'AccountNumber', requireMatch: 'bool' } }).pack({ name: 'indexed', authService: 'auth-any', requireMatch: true }) }]);
  const calls = trace.actionTraces.flatMap(actionsUnder).map((t) => `${t.action.sender}->${t.action.service}::${t.action.method}`);
  assert.ok(calls.includes('transact->events::sync'), `events synced: ${calls.join(', ')}`);
  assert.ok(calls.indexOf('transact->events::sync') > calls.indexOf('root->accounts::newAccount'), 'after the transaction\'s actions');
  // Each new block's startBlock calls events::startBlock; blocks keep coming.
  await waitForBlocks(client, await headBlockNum(client), 2);
});

test('no one but transact drives the index', async ({ client }) => {
  for (const method of ['sync', 'startBlock']) {
    const refused = await rejectionMessage(client.push([{ sender: 'root', service: 'events', method, rawData: NO_ARGS }], { waitFor: 'applied' }), `root called events::${method}`);
    assert.match(refused, 'wrong sender');
  }
});

test.run();
