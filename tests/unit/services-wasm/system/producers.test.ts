// producers (docs/p2p.md §6.1): setProducers and setConsensus make a change of producers pending
// in the native status row's consensus.next from the current block, keeping every other field;
// "Consensus update pending"; getProducers reads the current set; the sender, size and claim rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { statusKey } from '../../../../host-api/abi/keys.js';
import { accountNumberFromName, generateKeyPair, type BlockHeader, type Producer } from '../../../../host-api/index.js';
import { StatusRow } from '../../../../host-api/types/native.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { loadServices, type SystemService } from './system-services.js';

let chain: TestChain;
let producers: SystemService;

test.before(async () => {
  let verifySig: SystemService;
  let authAny: SystemService;
  ({ producers, 'verify-sig': verifySig, 'auth-any': authAny } = await loadServices('producers', 'verify-sig', 'auth-any'));
  chain = TestChain.open();
  for (const service of [producers, verifySig, authAny]) service.deploy(chain);
});

test.after(async () => {
  await chain.close();
});

const n = accountNumberFromName;
const bytes = (fill: number, length = 32) => new Uint8Array(length).fill(fill);
const noClaim = { service: 0n, rawData: new Uint8Array(0) };

function header(blockNum: number): BlockHeader {
  return {
    previous: bytes(1), blockNum, time: 1_700_000_000_000_000n, producer: n('prod'), term: 3, commitNum: blockNum - 1,
    consensusState: bytes(2), trxMerkleRoot: bytes(3), eventMerkleRoot: bytes(4), newConsensus: null,
    authCode: [{ vmType: 0, vmVersion: 0, code: bytes(9, 5) }],
  };
}

/** A status row with every field set, so a lost or changed field shows; `pendingFrom`: a change pending since that block. */
function status(kind: 'CftConsensus' | 'BftConsensus', pendingFrom: number | null = null) {
  const consensus = () => ({
    data: { [kind]: { producers: [{ name: n('prod'), auth: noClaim }] } } as Record<string, { producers: Producer[] }>,
    services: [{ codeNum: n('verify-sig'), codeHash: bytes(5), vmType: 0, vmVersion: 0 }],
    wasmConfig: { numExecutionMemories: 32, vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1 << 20 } },
  });
  return {
    chainId: bytes(6),
    current: header(7),
    head: { header: header(6), blockId: bytes(8) },
    consensus: {
      current: consensus(),
      next: pendingFrom === null ? null : { consensus: { ...consensus(), data: { [kind]: { producers: [{ name: n('carol'), auth: noClaim }] } } }, blockNum: pendingFrom },
    } as { current: ReturnType<typeof consensus>; next: { consensus: ReturnType<typeof consensus>; blockNum: number } | null },
  };
}

function writeStatus(row: ReturnType<typeof status>): void {
  chain.store.put(DbId.native, statusKey(), StatusRow.pack(row as never));
  chain.store.commit();
}

function readStatus() {
  return StatusRow.unpack(new Uint8Array(chain.store.get(DbId.native, statusKey())!)) as ReturnType<typeof status>;
}

const setProducers = (sender: string, list: unknown[]) => producers.run(chain, sender, 'setProducers', { prods: list });
const setConsensus = (sender: string, consensus: unknown) => producers.run(chain, sender, 'setConsensus', { consensus });
const getProducers = () => producers.call(chain, 'x', 'getProducers', {}, { mode: 'rpc' });
const list: Producer[] = [
  { name: n('alice'), auth: noClaim },
  { name: n('bob'), auth: { service: n('verify-sig'), rawData: generateKeyPair().publicKey } },
];

test('without a status row both actions abort clearly', () => {
  assert.match(setProducers('producers', [{ name: 'alice', auth: noClaim }]).error ?? '', 'missing status row');
  assert.match(producers.run(chain, 'x', 'getProducers', {}, { mode: 'rpc' }).error ?? '', 'missing status row');
});

for (const kind of ['CftConsensus', 'BftConsensus'] as const) {
  test(`${kind}: setProducers makes the change pending from the current block, same algorithm, services and wasm config kept`, () => {
    writeStatus(status(kind));
    assert.is(setProducers('producers', list).error, undefined);
    const expected = status(kind);
    expected.consensus.next = { consensus: { ...status(kind).consensus.current, data: { [kind]: { producers: list } } }, blockNum: 7 };
    assert.equal(readStatus(), expected);
    assert.equal(getProducers(), [n('prod')], 'the current set is unchanged until the change is irreversible');
  });
}

test('setConsensus names the algorithm: CFT to BFT', () => {
  writeStatus(status('CftConsensus'));
  assert.is(setConsensus('producers', { BftConsensus: { producers: list } }).error, undefined);
  const next = readStatus().consensus.next!;
  assert.equal(next.consensus.data, { BftConsensus: { producers: list } });
  assert.is(next.blockNum, 7);
});

test('a change pending from an earlier block refuses another: "Consensus update pending"; one from this block is replaced', () => {
  writeStatus(status('CftConsensus', 5));
  assert.match(setProducers('producers', list).error ?? '', 'Consensus update pending');
  assert.match(setConsensus('producers', { CftConsensus: { producers: list } }).error ?? '', 'Consensus update pending');
  assert.equal(readStatus(), status('CftConsensus', 5));
  writeStatus(status('CftConsensus', 7));
  assert.is(setProducers('producers', list).error, undefined);
  assert.equal(readStatus().consensus.next!.consensus.data, { CftConsensus: { producers: list } });
});

test('only producers itself may change the producers or their maximum', () => {
  writeStatus(status('CftConsensus'));
  assert.match(setProducers('alice', [{ name: 'alice', auth: noClaim }]).error ?? '', 'sender must match service account');
  assert.match(setConsensus('alice', { CftConsensus: { producers: list } }).error ?? '', 'sender must match service account');
  assert.match(producers.run(chain, 'alice', 'setMaxProds', { maxProds: 1 }).error ?? '', 'sender must match service account');
  assert.equal(readStatus(), status('CftConsensus'));
});

test('the set holds 1 to maxProds producers (13 unless set) and every block-signing claim names a verify service', () => {
  writeStatus(status('CftConsensus'));
  assert.is(producers.call(chain, 'x', 'getMaxProds', {}, { mode: 'rpc' }), 13);
  assert.match(setProducers('producers', []).error ?? '', 'There must be at least one producer');
  const many = [...Array(14).keys()].map((i) => ({ name: `p${String.fromCharCode(97 + i)}`, auth: noClaim }));
  assert.match(setProducers('producers', many).error ?? '', 'Maximum producers (13) exceeded');
  assert.is(producers.run(chain, 'producers', 'setMaxProds', { maxProds: 1 }).error, undefined);
  assert.match(setProducers('producers', list).error ?? '', 'Maximum producers (1) exceeded');
  assert.is(producers.run(chain, 'producers', 'setMaxProds', { maxProds: 13 }).error, undefined);
  const claimOf = (service: string) => ({ service, rawData: bytes(1, 3) });
  assert.match(setProducers('producers', [{ name: 'alice', auth: claimOf('auth-any') }]).error ?? '', 'Service account auth-any cannot be used for block production');
  assert.match(setProducers('producers', [{ name: 'alice', auth: claimOf('no-code') }]).error ?? '', 'Unknown service account: no-code');
  assert.equal(readStatus(), status('CftConsensus'));
});

test.run();
