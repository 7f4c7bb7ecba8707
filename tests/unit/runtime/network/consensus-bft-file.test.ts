// A BFT producer's term, best prepared and confirmed blocks and its last committed block with its
// commit proof survive a restart (docs/p2p.md §5.2, §5.4, §6.1): written atomically, read back
// exactly (signatures too), absent before the first write, and a damaged file is refused by name.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TsibaseError } from '../../../../host-api/errors.js';
import { readConsensusBft, writeConsensusBft } from '../../../../runtime/network/consensus-bft-file.js';
import { assertFails } from '../../../lib/assert-error.js';
import { inTempDir } from '../../../lib/temp-dir.js';

const ID_A = `00000007${'ab'.repeat(28)}`;
const ID_B = `00000009${'cd'.repeat(28)}`;

test('no file before the first write; a written state reads back, a later one replaces it', () => inTempDir((dir) => {
  const path = join(dir, 'consensus-bft.json');
  assert.is(readConsensusBft(path), undefined);
  const kept = {
    term: 5,
    bestConfirm: { id: ID_B, num: 9, term: 5 },
    bestPrepared: { id: ID_A, num: 7, term: 4, prepares: [{ producer: 0xffff_ffff_ffff_fff0n, signature: new Uint8Array([1, 2, 255]) }, { producer: 3n, signature: new Uint8Array(0) }] },
    committed: { id: ID_A, num: 7, term: 4, proof: { blockNum: 7, commits: [{ producer: 2n, signature: new Uint8Array([9]) }], nextCommits: [{ producer: 5n, signature: new Uint8Array([8, 7]) }] } },
  };
  writeConsensusBft(path, kept);
  assert.equal(readConsensusBft(path), kept);
  writeConsensusBft(path, { term: 6 });
  assert.equal(readConsensusBft(path), { term: 6 });
}));

test('irreversibility under BFT survives a restart: the committed block and its commit proof read back', () => inTempDir((dir) => {
  const path = join(dir, 'consensus-bft.json');
  const proof = { blockNum: 9, commits: [{ producer: 1n, signature: new Uint8Array([9]) }, { producer: 2n, signature: new Uint8Array([8, 7]) }], nextCommits: [{ producer: 4n, signature: new Uint8Array([6]) }] };
  const kept = { term: 5, committed: { id: ID_B, num: 9, term: 5, proof } };
  writeConsensusBft(path, kept);
  assert.equal(readConsensusBft(path), kept);
  // A single producer's commit has no proof.
  writeConsensusBft(path, { term: 5, committed: { id: ID_B, num: 9, term: 5 } });
  assert.equal(readConsensusBft(path), { term: 5, committed: { id: ID_B, num: 9, term: 5 } });
  const outsideJoint = { term: 7, committed: { id: ID_B, num: 9, term: 5, proof: { blockNum: 9, commits: [{ producer: 4n, signature: new Uint8Array([1]) }] } } };
  writeConsensusBft(path, outsideJoint);
  assert.equal(readConsensusBft(path), outsideJoint, 'a proof without next commits reads back without them');
  writeFileSync(path, JSON.stringify({ term: 5, committed: { id: ID_B, num: 9, term: 5, proof: { blockNum: 9, commits: 'none', nextCommits: null } } }));
  assertFails(() => readConsensusBft(path), TsibaseError, 'NODE_BAD_CONSENSUS_FILE', [path]);
}));

test('a file that is not the BFT state is refused, naming the file', () => inTempDir((dir) => {
  const path = join(dir, 'consensus-bft.json');
  writeFileSync(path, JSON.stringify({ term: 1, bestConfirm: null, bestPrepared: { id: ID_A, num: 7, term: 1, prepares: [{ producer: '3', signature: 'xyz' }] } }));
  assertFails(() => readConsensusBft(path), TsibaseError, 'NODE_BAD_CONSENSUS_FILE', [path]);
  writeFileSync(path, '{"term":1,"bestConfirm":{"id":"00","num":1,"term":1}}');
  assertFails(() => readConsensusBft(path), TsibaseError, 'NODE_BAD_CONSENSUS_FILE', [path]);
}));

test.run();
