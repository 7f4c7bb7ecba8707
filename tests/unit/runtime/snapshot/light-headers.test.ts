// Which headers a snapshot carries (docs/p2p.md §7.3, psibase's write_consensus_change_blocks):
// start, commit and end of each finished change up to the snapshot block, every block from a
// change still pending at it, and the snapshot block itself; signatures and aux data for the
// ending blocks, each block of a pending tail and the snapshot block.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ConsensusChangeRow, StatusRow } from '../../../../host-api/types/native.js';
import { genesisConsensus } from '../../../../runtime/chain/block-builder.js';
import { lightHeaders } from '../../../../runtime/snapshot/light-headers.js';

const test = suite('light headers');

/** A status row whose head is block `head`, in joint consensus since `jointSince` when given. */
function statusAt(head: number, jointSince?: number): StatusRow {
  const { current } = genesisConsensus();
  const header = { blockNum: head } as StatusRow['current'];
  return {
    chainId: new Uint8Array(32),
    current: header,
    head: { header, blockId: new Uint8Array(32) },
    consensus: { current, next: jointSince === undefined ? null : { consensus: current, blockNum: jointSince } },
  };
}

const change = (start: number, commit: number, end: number): ConsensusChangeRow => ({ start, commit, end });

test('each finished change gives its start, commit and end headers, the end proven; the snapshot block comes last', () => {
  const selected = lightHeaders([change(2, 2, 2), change(5, 7, 8), change(12, 12, 13)], statusAt(20));
  assert.equal(selected.headers, [2, 5, 7, 8, 12, 13, 20]);
  assert.equal(selected.proven, [2, 8, 13, 20]);
});

test('blocks shared by the changes and the snapshot block appear once', () => {
  const selected = lightHeaders([change(2, 2, 2), change(3, 3, 4), change(4, 4, 6)], statusAt(6));
  assert.equal(selected.headers, [2, 3, 4, 6]);
  assert.equal(selected.proven, [2, 4, 6]);
});

test('a snapshot inside joint consensus carries every block from the pending change on, each proven', () => {
  const selected = lightHeaders([change(2, 2, 2), change(5, 6, 7)], statusAt(12, 9));
  assert.equal(selected.headers, [2, 5, 6, 7, 9, 10, 11, 12]);
  assert.equal(selected.proven, [2, 7, 9, 10, 11, 12]);
});

test('changes after the snapshot block are left out; one that ended after it counts as pending', () => {
  const selected = lightHeaders([change(2, 2, 2), change(8, 9, 11), change(15, 15, 16)], statusAt(10, 8));
  assert.equal(selected.headers, [2, 8, 9, 10]);
  assert.equal(selected.proven, [2, 8, 9, 10]);
});

test.run();
