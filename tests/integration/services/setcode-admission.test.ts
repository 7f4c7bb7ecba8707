// setcode admits code on chain (a real node process): a module outside the host ABI or the
// admitted features is refused by setCode with admission's message, the account keeps its old
// code and the chain keeps producing; a valid module still deploys; a genesis service whose
// code would never run stops the boot with an error naming it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as wat } from '@bytecodealliance/jco-transpile/wasm-tools';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { deployActions } from '../../../host-api/boot/deploy-actions.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { headBlockNum } from '../../lib/chain-head.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';
import { runsNode } from '../../lib/node-suite.js';
import { testBundle } from '../../lib/test-bundle.js';
import { calledActions } from '../../../host-api/traces/trace-json.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient }
const test = suite<Ctx>('setcode admission');

/** A service that answers every action with the one byte `retval` (its code is told apart by it). */
function answering(retval: number): Promise<Uint8Array> {
  return wat(`(module
    (import "env" "setRetval" (func $setRetval (param i32 i32)))
    (memory (export "memory") 1)
    (data (i32.const 0) "\\${retval.toString(16).padStart(2, '0')}")
    (func (export "called") (param i64 i64) (call $setRetval (i32.const 0) (i32.const 1))))`);
}

const REFUSED: [what: string, text: string, message: RegExp][] = [
  ['an import outside the host ABI', '(module (import "env" "notAHostFunction" (func)) (func (export "called") (param i64 i64)))', /import env\.notAHostFunction is not part of the host ABI/],
  ['multi-value', '(module (func (export "called") (param i64 i64)) (func (result i32 i32) (i32.const 1) (i32.const 2)))', /2 results is not allowed \(feature: multi-value\)/],
  ['shared memory', '(module (memory 1 1 shared) (func (export "called") (param i64 i64)))', /shared memory is not allowed \(feature: threads\)/],
];

let actionsSent = 0;

/** What the account's code answers an action with: its trace's raw return value (hex). */
async function answerOf(client: ChainClient, account: string): Promise<string> {
  // The code ignores the action's data, which keeps each transaction distinct.
  const rawData = (++actionsSent).toString(16).padStart(8, '0');
  const { trace } = await client.push([{ sender: account, service: account, method: 'run', rawData }], { waitFor: 'applied' });
  // transact's trace holds the auth checks, then the action itself.
  const run = calledActions(trace.actionTraces[0]!).find((t) => t.action.service === account);
  return run!.rawRetval.toLowerCase();
}


runsNode(test, 'setcode', async (dir, ctx) => {
  const node = await startBootedNode(dir);
  ctx.client = new ChainClient(node.api);
  return node;
});

test('a valid module deploys; inadmissible ones are refused with the admission message and change nothing', async ({ client }) => {
  await client.push(deployActions('mod', await answering(0x2a), { create: { insecure: true } }), { waitFor: 'applied' });
  assert.is(await answerOf(client, 'mod'), '2a');
  for (const [what, text, message] of REFUSED) {
    const before = await headBlockNum(client);
    const code = await wat(text);
    const error = await rejectionMessage(client.push(deployActions('mod', code), { waitFor: 'applied' }), `${what} was stored`);
    assert.match(error, "service 'setcode' aborted with message: ", what);
    assert.match(error, message, what);
    assert.is(await answerOf(client, 'mod'), '2a', `${what}: the old code runs`);
    // A new account gets no code either.
    const fresh = `fresh-${REFUSED.findIndex(([w]) => w === what)}`;
    assert.match(await rejectionMessage(client.push(deployActions(fresh, code, { create: { insecure: true } }), { waitFor: 'applied' }), `${what} was stored`), message);
    while (await headBlockNum(client) <= before) await new Promise((r) => setTimeout(r, 50));
  }
  await client.push(deployActions('mod', await answering(0x2b)), { waitFor: 'applied' });
  assert.is(await answerOf(client, 'mod'), '2b', 'a valid module replaces the old one');
});

test('a genesis service whose code would never run stops the boot, naming the service and the problem', async (ctx) => {
  const code = await wat(REFUSED[0]![1]);
  const bundle = join(ctx.dir, 'bad-genesis.bundle');
  writeFileSync(bundle, await testBundle([{ account: 'badsvc', flags: 0n, code, genesis: true, server: null, initActions: [], files: [] }]));
  const started = startNode(join(ctx.dir, 'bad-genesis'), ['-p', 'prod', '--boot', bundle]);
  const output = await rejectionMessage(started.then((node) => node.stop()), 'the node booted');
  assert.match(output, "genesis: the code of service 'badsvc' is refused: import env.notAHostFunction is not part of the host ABI");
});

test.run();
