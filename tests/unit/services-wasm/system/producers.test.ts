// producers: setProducers replaces the producer set in the native status row's consensus and
// keeps every other field of the row; getProducers reads it back; the sender and claim rules.
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

/** A status row with every field set, so a lost or changed field shows. */
function status(kind: 'CftConsensus' | 'BftConsensus') {
  const consensus = () => ({
    data: { [kind]: { producers: [{ name: n('prod'), auth: noClaim }] } } as Record<string, { producers: Producer[] }>,
    services: [{ codeNum: n('verify-sig'), codeHash: bytes(5), vmType: 0, vmVersion: 0 }],
    wasmConfig: { numExecutionMemories: 32, vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1 << 20 } },
  });
  return {
    chainId: bytes(6),
    current: header(7),
    head: { header: header(6), blockId: bytes(8) },
    consensus: { current: consensus(), next: { consensus: consensus(), blockNum: 5 } },
  };
}

function writeStatus(row: ReturnType<typeof status>): void {
  chain.store.put(DbId.native, statusKey(), StatusRow.pack(row as never));
  chain.store.commit();
}

function readStatus() {
  return StatusRow.unpack(new Uint8Array(chain.store.get(DbId.native, statusKey())!)) as ReturnType<typeof status>;
}

const setProducers = (sender: string, list: unknown[]) => producers.run(chain, sender, 'setProducers', { producers: list });
const getProducers = () => producers.call(chain, 'x', 'getProducers', {}, { mode: 'rpc' });

test('without a status row both actions abort clearly', () => {
  assert.match(setProducers('producers', [{ name: 'alice', auth: noClaim }]).error ?? '', 'missing status row');
  assert.match(producers.run(chain, 'x', 'getProducers', {}, { mode: 'rpc' }).error ?? '', 'missing status row');
});

for (const kind of ['CftConsensus', 'BftConsensus'] as const) {
  test(`${kind}: setProducers replaces the producers and keeps the rest of the status row`, () => {
    writeStatus(status(kind));
    const list: Producer[] = [
      { name: n('alice'), auth: noClaim },
      { name: n('bob'), auth: { service: n('verify-sig'), rawData: generateKeyPair().publicKey } },
    ];
    assert.is(setProducers('producers', list).error, undefined);
    const expected = status(kind);
    expected.consensus.current.data = { [kind]: { producers: list } };
    assert.equal(readStatus(), expected);
    assert.equal(getProducers(), list);
  });
}

test('only producers itself may set the producers', () => {
  writeStatus(status('CftConsensus'));
  assert.match(setProducers('alice', [{ name: 'alice', auth: noClaim }]).error ?? '', 'sender must match service account');
  assert.equal(readStatus(), status('CftConsensus'));
});

test('the set is not empty and every block-signing claim names a verify service', () => {
  writeStatus(status('CftConsensus'));
  assert.match(setProducers('producers', []).error ?? '', 'there must be at least one producer');
  const claimOf = (service: string) => ({ service, rawData: bytes(1, 3) });
  assert.match(setProducers('producers', [{ name: 'alice', auth: claimOf('auth-any') }]).error ?? '', 'service auth-any cannot be used for block production');
  assert.match(setProducers('producers', [{ name: 'alice', auth: claimOf('no-code') }]).error ?? '', 'service no-code cannot be used for block production');
  assert.equal(readStatus(), status('CftConsensus'));
});

test.run();
