// A received block is checked against the producer sets of its parent block (docs/p2p.md §6.1,
// psibase's BlockHeaderState), not the head's: the consensus after a block is its parent's, with
// joint consensus ended once the parent committed the change, plus the block's own newConsensus.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import type { BlockHeader, Consensus } from '../../../../host-api/types/index.js';
import type { JointConsensus } from '../../../../host-api/types/native.js';
import { BlockProducerSets } from '../../../../runtime/network/block-producer-sets.js';
import { bftGroups } from '../../../../runtime/network/producer-sets.js';

const claimless = { service: 0n, rawData: new Uint8Array(0) };
const producers = (names: bigint[]) => names.map((name) => ({ name, auth: claimless }));
const consensusOf = (data: Consensus['data']): Consensus => ({ data, services: [], wasmConfig: undefined as never });
const CFT = consensusOf({ CftConsensus: { producers: producers([1n]) } });
const BFT = consensusOf({ BftConsensus: { producers: producers([1n, 2n, 3n, 4n]) } });
const idOf = (num: number, label: string) => num.toString(16).padStart(8, '0') + label.toUpperCase().repeat(56);
const header = (num: number, previous: string, commitNum: number, newConsensus: Consensus | null = null) =>
  ({ blockNum: num, previous: hexToBytes(previous), commitNum, newConsensus }) as BlockHeader;

test('a received block is checked against the producer sets of its parent block, not those of the head', () => {
  const sets = new BlockProducerSets();
  // Block 5 (CFT) started a change to BFT; the head, block 8, has made it irreversible and runs BFT.
  const joint: JointConsensus = { current: CFT, next: { consensus: BFT, blockNum: 5 } };
  sets.applied(header(6, idOf(5, 'a'), 4), idOf(6, 'a'), joint);
  sets.applied(header(8, idOf(7, 'a'), 6), idOf(8, 'a'), { current: BFT, next: null });
  // Another fork's block 7 on block 6, which had not committed block 5 yet: still joint, CFT leading.
  const onSix = sets.received(header(7, idOf(6, 'a'), 5), idOf(7, 'b'));
  assert.equal(bftGroups(onSix!), [{ algorithm: 'cft', producers: [1n] }, { algorithm: 'bft', producers: [1n, 2n, 3n, 4n] }]);
  assert.is(onSix!.next?.blockNum, 5, 'the block that began the change, for the end of joint consensus');
  // Its child: block 7 committed block 5, so joint consensus is over for block 8.
  const onSeven = sets.received(header(8, idOf(7, 'b'), 5), idOf(8, 'b'));
  assert.equal(bftGroups(onSeven!), [{ algorithm: 'bft', producers: [1n, 2n, 3n, 4n] }]);
  assert.is(sets.received(header(9, idOf(8, 'c'), 5), idOf(9, 'c')), undefined, 'an unknown parent gives no sets');
});

test('a block\'s own newConsensus makes the next set of the consensus after it; blocks below the irreversible one are forgotten', () => {
  const sets = new BlockProducerSets();
  sets.applied(header(6, idOf(5, 'a'), 4), idOf(6, 'a'), { current: BFT, next: null });
  const after = sets.received(header(7, idOf(6, 'a'), 5, CFT), idOf(7, 'a'));
  assert.equal(after, { current: BFT, next: { consensus: CFT, blockNum: 7 } });
  sets.forgetBelow(7);
  assert.is(sets.received(header(7, idOf(6, 'a'), 5), idOf(7, 'b')), undefined);
  assert.ok(sets.received(header(8, idOf(7, 'a'), 5), idOf(8, 'a')));
});

test.run();
