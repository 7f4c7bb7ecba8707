// The producer sets BFT reads from a consensus (docs/p2p.md §5.1, §6.1): each set with its own
// algorithm, its names sorted as u64 (the leader of a term is taken round robin in that order),
// and the next set during joint consensus; the current set's algorithm picks the machine.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName } from '../../../../host-api/names/index.js';
import type { Consensus } from '../../../../host-api/types/index.js';
import type { JointConsensus } from '../../../../host-api/types/native.js';
import { bftGroups } from '../../../../runtime/network/producer-sets.js';

const claimless = { service: 0n, rawData: new Uint8Array(0) };
const producers = (names: string[]) => names.map((name) => ({ name: accountNumberFromName(name), auth: claimless }));
const consensusOf = (data: Consensus['data']): Consensus => ({ data, services: [], wasmConfig: undefined as never });
const sorted = (names: string[]) => names.map(accountNumberFromName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

const NAMES = ['prod', 'bprod', 'cprod', 'dprod'];

test('one BFT set: its names sorted as u64, and BFT runs', () => {
  const joint: JointConsensus = { current: consensusOf({ BftConsensus: { producers: producers(NAMES) } }), next: null };
  assert.equal(bftGroups(joint), [{ algorithm: 'bft', producers: sorted(NAMES) }]);
  assert.not.equal(sorted(NAMES), NAMES.map(accountNumberFromName), 'the names are not already in u64 order');
  assert.is(bftGroups(joint)[0]!.algorithm, 'bft', 'the current set runs BFT');
});

test('joint consensus from CFT to BFT: both sets with their algorithms, and CFT still runs', () => {
  const joint: JointConsensus = {
    current: consensusOf({ CftConsensus: { producers: producers(['prod']) } }),
    next: { consensus: consensusOf({ BftConsensus: { producers: producers(NAMES) } }), blockNum: 9 },
  };
  assert.equal(bftGroups(joint), [{ algorithm: 'cft', producers: sorted(['prod']) }, { algorithm: 'bft', producers: sorted(NAMES) }]);
  assert.is(bftGroups(joint)[0]!.algorithm, 'cft', 'the current set runs CFT');
});

test.run();
