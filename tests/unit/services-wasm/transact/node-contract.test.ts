// transact under the node itself (runtime/chain, docs/system-services.md): a boot block with
// startBoot's list and finishBoot, then a block whose startBlock lets TaPoS reference block 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  GenesisActionData, SignedTransaction, Transaction, accountNumberFromName as account, coreSchema,
  methodNumberFromName as method, taposReference, transactionId, type Action, type Tapos,
} from '../../../../host-api/index.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { compiledService } from '../program.js';
import { ServiceCodec, type ServiceSchema } from '../../../../host-api/client/service-codec.js';

const NOW_MS = 1_735_689_600_000;
const EXPIRATION = BigInt(NOW_MS / 1000 + 120);
const BootList = coreSchema.typeOf({ List: 'SignedTransaction' });

let directory: string;
let store: LmdbStore;
let chain: Chain;
let codecs: Record<string, ServiceCodec>;
let expiration = EXPIRATION;

test.before(async () => {
  codecs = {};
  const genesisServices = [];
  for (const [name, flags] of [['transact', 1n], ['accounts', 1n], ['auth-any', 0n]] as const) {
    const compiled = await compiledService(name);
    codecs[name] = new ServiceCodec(compiled.schema as ServiceSchema);
    genesisServices.push({ service: name, flags, vmType: 0, vmVersion: 0, code: compiled.binary });
  }
  directory = mkdtempSync(join(tmpdir(), 'tsibase-transact-node-'));
  store = LmdbStore.open(directory);
  chain = new Chain(store, new Engine(), { producer: 'prod', now: () => NOW_MS });

  const genesis = transaction([{ sender: 0n, service: 0n, method: method('boot'), rawData: GenesisActionData.pack({ memo: '', services: genesisServices }) }]);
  const setUp = transaction([action('transact', 'accounts', 'init'), action('transact', 'accounts', 'setAuthServ', { authService: 'auth-any' })]);
  const finish = transaction([action('transact', 'transact', 'finishBoot')]);
  const start = transaction([action('transact', 'transact', 'startBoot', { bootTransactions: [transactionId(setUp), transactionId(finish)] })]);
  const trace = chain.boot(BootList.pack([genesis, start, setUp, finish].map(signed)));
  assert.is(trace.error, null);
});

test.after(async () => {
  chain.stop();
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

function action(sender: string, service: string, name: string, args: unknown = {}): Action {
  return { sender: account(sender), service: account(service), method: method(name), rawData: codecs[service]!.args(name, args) };
}

function transaction(actions: Action[], tapos: Partial<Tapos> = {}): Uint8Array {
  return Transaction.pack({ tapos: { expiration: expiration++, refBlockSuffix: 0, flags: 0, refBlockIndex: 0, ...tapos }, actions, claims: [] });
}

function signed(packed: Uint8Array) {
  return { transaction: packed, proofs: [], subjectiveData: null };
}

const push = (packed: Uint8Array) => chain.push(SignedTransaction.pack(signed(packed)), 'applied');

test('after the boot block, transactions reference block 2 by TaPoS and run with auth on', async () => {
  const head = chain.status!.head!;
  assert.is(head.header.blockNum, 2);
  const reference = taposReference(2, head.blockId);
  const setSnapTime = transaction([action('transact', 'transact', 'setSnapTime', { seconds: 5 })], reference);
  assert.is((await push(setSnapTime)).error, null);
  assert.match((await push(setSnapTime)).error ?? '', 'duplicate transaction');
  assert.match((await push(transaction([action('transact', 'transact', 'setSnapTime', { seconds: 6 })]))).error ?? '', 'transaction references non-existing block');
  assert.match((await push(transaction([action('nobody', 'transact', 'isTransaction')], reference))).error ?? '', 'account nobody does not exist');
});

test.run();
