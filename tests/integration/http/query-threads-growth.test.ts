// Query threads while the database grows (docs/serving.md §10): LMDB's map starts small and grows
// as blocks are written, while a query thread keeps a read snapshot open between commits. Queries
// asked all along must each see a whole state (a summary row and the rows it counts, written in
// one action), never an error, and the last ones the final state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coreSchema } from '../../../host-api/types/index.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';

const BLOCKS = 40;
const ROWS_A_BLOCK = 16;
/** 64 KiB rows: 1 MiB a block, 40 MiB in all, several times the store's size after boot. */
const ROW_BYTES = 64 * 1024;
const IN_FLIGHT = 4;
const FillArgs = coreSchema.typeOf({ Object: { count: 'u32', size: 'u32' } });

const growth = suite('query threads: the database grows under open snapshots');

growth('every query during 40 MiB of writes sees a whole state, and the last the final one', async () => {
  const bulk = await compiledEntry('tests/integration/services/bulk-rows.as.ts');
  const chain = await TestChain.boot({ queryThreads: 1, services: [{ account: 'bulk', code: bulk.binary, registerServer: true }] });
  try {
    const seen: number[] = [];
    const failures: string[] = [];
    let writing = true;
    const ask = async () => {
      while (writing) {
        const reply = await chain.http({ host: 'bulk.tsibase.localhost', path: '/last' });
        if (reply.status !== 200) failures.push(`${reply.status} ${reply.text()}`);
        else seen.push(Number(reply.text()));
      }
    };
    const askers = Array.from({ length: IN_FLIGHT }, ask);
    for (let block = 0; block < BLOCKS; block++) {
      const pushed = await chain.push([{ sender: 'bulk', service: 'bulk', method: 'fill', rawData: FillArgs.pack({ count: ROWS_A_BLOCK, size: ROW_BYTES }) }]);
      assert.is(pushed.error, null);
      // Let the queries run between blocks.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    writing = false;
    await Promise.all(askers);
    assert.equal(failures, []);
    assert.ok(seen.length > BLOCKS, `${seen.length} queries answered`);
    assert.ok(seen.every((rows) => rows % ROWS_A_BLOCK === 0), 'each query saw whole actions');
    assert.ok(new Set(seen).size > BLOCKS / 4, `the queries saw ${new Set(seen).size} states as the chain grew`);
    assert.ok(chain.queryFigures!.answered > BLOCKS, `the thread answered ${chain.queryFigures!.answered}`);
    assert.is((await chain.http({ host: 'bulk.tsibase.localhost', path: '/last' })).text(), String(BLOCKS * ROWS_A_BLOCK));
  } finally {
    await chain.close();
  }
});

growth.run();
