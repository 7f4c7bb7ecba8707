// Method numbers on a real node over HTTP: an action whose name codes to more than 64 bits
// (transact's checkFirstAuth) travels as psibase's hashed number, is dispatched by the compiled
// service, and is named in the trace by its `#` form, in JSON and in fracpack alike.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  TransactionTrace, Transaction, coreSchema, methodNameFromNumber, methodNumberFromName, signTransaction, transactionId,
} from '../../../host-api/index.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { runsNode } from '../../lib/node-suite.js';

const CHECK_FIRST_AUTH_ARGS = coreSchema.typeOf({ Object: { id: 'Checksum256', transaction: 'Transaction' } });
const HASH_FLAG = 1n << 56n;

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('method numbers on a node');

runsNode(test, 'method-numbers', (dir) => startBootedNode(dir));

/** A transaction from root asking transact.checkFirstAuth about another transaction of root's. */
async function checkFirstAuthTransaction(ctx: Ctx): Promise<Uint8Array> {
  const tapos = await new ChainClient(ctx.node.api).tapos(60);
  const inner = Transaction.pack({
    tapos, claims: [], actions: [{ sender: 'root', service: 'example', method: 'increment', rawData: new Uint8Array() }],
  });
  const args = CHECK_FIRST_AUTH_ARGS.pack({ id: transactionId(inner), transaction: Transaction.unpack(inner) });
  return signTransaction({
    tapos, claims: [], actions: [{ sender: 'root', service: 'transact', method: 'checkFirstAuth', rawData: args }],
  }, []);
}

interface TraceOf<Method, Bytes> {
  action: { service: unknown; method: Method };
  rawRetval: Bytes;
  innerTraces: { inner: { ActionTrace?: TraceOf<Method, Bytes> } }[];
}

/** Every action trace of a transaction trace, inner ones included (JSON and native forms alike). */
function allActions<M, B>(traces: readonly TraceOf<M, B>[]): TraceOf<M, B>[] {
  return traces.flatMap((t) => [t, ...allActions(t.innerTraces.flatMap((i) => (i.inner.ActionTrace ? [i.inner.ActionTrace] : [])))]);
}

const push = (ctx: Ctx, body: Uint8Array, accept: string) => httpRequest(serviceUrl(ctx.node.api, 'transact', '/push_transaction'), {
  method: 'POST', body, headers: { 'content-type': 'application/octet-stream', accept },
});

test('transact.checkFirstAuth goes out as its hashed number, is dispatched, and is named by its # form', async (ctx) => {
  const number = methodNumberFromName('checkFirstAuth');
  assert.ok((number & HASH_FLAG) !== 0n, 'checkFirstAuth is hashed');
  const shown = methodNameFromNumber(number);
  assert.match(shown, /^#[eaiotnrslcuhdpmy]{16}$/);

  const json = await push(ctx, await checkFirstAuthTransaction(ctx), 'application/json');
  assert.is(json.status, 200);
  const trace = json.json() as { error: string | null; actionTraces: TraceOf<string, string>[] };
  assert.is(trace.error, null);
  const actions = allActions(trace.actionTraces);
  const call = actions.find((t) => t.action.service === 'transact' && t.action.method === shown);
  assert.ok(call, `no transact ${shown} in ${JSON.stringify(actions.map((t) => t.action.method))}`);
  assert.is(call.rawRetval, '01'); // true: root's auth-any accepts

  const packed = await push(ctx, await checkFirstAuthTransaction(ctx), 'application/octet-stream');
  assert.is(packed.status, 200);
  const binary = TransactionTrace.unpack(packed.body);
  assert.is(binary.error, null);
  const packedCall = allActions(binary.actionTraces as TraceOf<bigint, Uint8Array>[]).find((t) => t.action.method === number);
  assert.ok(packedCall, 'the trace carries the hashed number');
  assert.equal([...packedCall.rawRetval], [1]);
});

test.run();
