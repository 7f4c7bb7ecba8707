// A producer's term and vote survive a restart (docs/p2p.md §4): written atomically, read back
// exactly, absent before the first election, and a damaged file is refused by name.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TsibaseError } from '../../../../host-api/errors.js';
import { readConsensusVote, writeConsensusVote } from '../../../../runtime/network/consensus-vote-file.js';
import { assertFails } from '../../../lib/assert-error.js';
import { inTempDir } from '../../../lib/temp-dir.js';

test('no file before the first election; a written vote reads back, a later one replaces it', () => inTempDir((dir) => {
  const path = join(dir, 'consensus-vote.json');
  assert.is(readConsensusVote(path), undefined);
  writeConsensusVote(path, { term: 7, votedFor: 0xffff_ffff_ffff_fff0n });
  assert.equal(readConsensusVote(path), { term: 7, votedFor: 0xffff_ffff_ffff_fff0n });
  writeConsensusVote(path, { term: 8, votedFor: null });
  assert.equal(readConsensusVote(path), { term: 8, votedFor: null });
}));

test('a file that is not {term, votedFor} is refused, naming the file', () => inTempDir((dir) => {
  const path = join(dir, 'consensus-vote.json');
  writeFileSync(path, '{"term":"x","votedFor":null}');
  assertFails(() => readConsensusVote(path), TsibaseError, 'NODE_BAD_CONSENSUS_FILE', [path]);
}));

test.run();
