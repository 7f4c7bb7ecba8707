// The node's record of each committed block (runtime/node/node-log.ts): at info for every block by
// default, or at info once every `infoInterval` blocks and at debug between (tsibase dev).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, type BlockHeader } from '../../../../host-api/index.js';
import type { LogRecord } from '../../../../runtime/log/record.js';
import { logBlock } from '../../../../runtime/node/node-log.js';
import { captureLogging, tempDir } from '../log/helpers.js';

const bytes = (fill: number) => new Uint8Array(32).fill(fill);

function header(blockNum: number): BlockHeader {
  return {
    previous: bytes(1), blockNum, time: 1_700_000_000_000_000n, producer: accountNumberFromName('prod'), term: 1, commitNum: blockNum - 1,
    consensusState: bytes(2), trxMerkleRoot: bytes(3), eventMerkleRoot: bytes(4), newConsensus: null, authCode: null,
  };
}

/** The severity and message of each block record logged for blocks `from`..`to`. */
async function blockRecords(from: number, to: number, infoInterval?: number): Promise<[unknown, unknown][]> {
  const { logging } = captureLogging({}, tempDir());
  const seen: LogRecord[] = [];
  logging.subscribe((record) => seen.push(record));
  for (let n = from; n <= to; n++) logBlock(logging, header(n), bytes(n), infoInterval);
  await logging.close();
  return seen.map((r) => [r.Severity, r.Message]);
}

test('every block is an info record by default', async () => {
  assert.equal(await blockRecords(3, 4), [['info', 'committed block 3'], ['info', 'committed block 4']]);
});

test('with an interval, one info line per interval and debug records between', async () => {
  const records = await blockRecords(59, 121, 60);
  assert.equal(records.filter(([severity]) => severity === 'info'), [
    ['info', 'committed block 60 (a line every 60 blocks)'],
    ['info', 'committed block 120 (a line every 60 blocks)'],
  ]);
  assert.is(records.filter(([severity]) => severity === 'debug').length, 61);
});

test.run();
