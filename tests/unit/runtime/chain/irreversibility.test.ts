// Which block is irreversible with a given head (docs/p2p.md §4, §5.4): under CFT a header's
// commitNum counts; under BFT only a single producer's does, and otherwise only what consensus
// established here (its commits or a checked commit proof).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BlockHeader, Consensus } from '../../../../host-api/types/index.js';
import type { JointConsensus } from '../../../../host-api/types/native.js';
import { irreversibleAt } from '../../../../runtime/chain/consensus.js';

const claimless = { service: 0n, rawData: new Uint8Array(0) };
const producers = (count: number) => [...Array(count).keys()].map((i) => ({ name: BigInt(i + 1), auth: claimless }));
const consensusOf = (data: Consensus['data']): Consensus => ({ data, services: [], wasmConfig: undefined as never });
const bft = (count: number): JointConsensus => ({ current: consensusOf({ BftConsensus: { producers: producers(count) } }), next: null });
const cft = (count: number): JointConsensus => ({ current: consensusOf({ CftConsensus: { producers: producers(count) } }), next: null });
const head = (blockNum: number, commitNum: number) => ({ blockNum, commitNum }) as BlockHeader;

test('irreversibility under BFT does not trust header.commitNum: only the commits BFT established count', () => {
  assert.is(irreversibleAt(bft(4), head(20, 18), 5), 5, 'a header naming block 18 makes nothing irreversible');
  assert.is(irreversibleAt(bft(4), head(20, 18), 0), 0);
  assert.is(irreversibleAt(bft(4), head(20, 3), 5), 5, 'what was committed stays irreversible');
  // During joint consensus the current set decides, as it made the block.
  const bftToCft: JointConsensus = { ...bft(4), next: { consensus: cft(3).current, blockNum: 15 } };
  assert.is(irreversibleAt(bftToCft, head(20, 18), 5), 5);
});

test('a single BFT producer commits through its own headers; CFT headers count as before', () => {
  assert.is(irreversibleAt(bft(1), head(20, 19), 5), 19);
  assert.is(irreversibleAt(cft(3), head(20, 18), 5), 18);
  assert.is(irreversibleAt(cft(3), head(20, 18), 19), 19, 'a leader\'s own commit index counts when further');
  assert.is(irreversibleAt(cft(3), head(20, 18), 25), 20, 'never beyond the head');
  const cftToBft: JointConsensus = { ...cft(3), next: { consensus: bft(4).current, blockNum: 15 } };
  assert.is(irreversibleAt(cftToBft, head(20, 18), 5), 18);
});

test.run();
