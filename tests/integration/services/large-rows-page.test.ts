// A GraphQL page whose rows are larger than one kvRange reply (docs/host-abi.md §3: a reply ends
// after the row that brings it to Limits.maxRangeReplyBytes): the SDK's cursor asks on, so the page
// holds every row asked for, in order, and the next page starts after it; the same on the chain
// thread and on a query thread (docs/serving.md §10).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Limits } from '../../../host-api/abi/databases.js';
import { coreSchema } from '../../../host-api/types/index.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';

const ROWS = 40;
const PAGE = 16;
/** A page of PAGE rows takes more than two kvRange replies. */
const ROW_BYTES = Math.ceil((Limits.maxRangeReplyBytes * 2.5) / PAGE);
const FillArgs = coreSchema.typeOf({ Object: { count: 'u32', size: 'u32' } });

interface Page {
  readonly ids: number[];
  readonly hasNextPage: boolean;
  readonly endCursor: string;
}

const page = suite('GraphQL pages larger than one kvRange reply');

for (const queryThreads of [0, 1]) {
  page(`pages of ${PAGE} rows of ${ROW_BYTES} bytes hold every row in order (${queryThreads} query threads)`, async () => {
    const bulk = await compiledEntry('tests/integration/services/bulk-rows.as.ts');
    const chain = await TestChain.boot({ queryThreads, services: [{ account: 'bulk', code: bulk.binary, registerServer: true }] });
    try {
      const pushed = await chain.push([{ sender: 'bulk', service: 'bulk', method: 'fill', rawData: FillArgs.pack({ count: ROWS, size: ROW_BYTES }) }]);
      assert.is(pushed.error, null);
      const pageAfter = async (after: string | undefined): Promise<Page> => {
        const args = after === undefined ? `first: ${PAGE}` : `first: ${PAGE}, after: ${JSON.stringify(after)}`;
        const reply = await chain.graphql('bulk', `{ bulks(${args}) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`);
        assert.is(reply.errors, undefined, JSON.stringify(reply.errors));
        const { edges, pageInfo } = (reply.data as { bulks: { edges: { node: { id: number } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }).bulks;
        return { ids: edges.map((edge) => edge.node.id), ...pageInfo };
      };
      const ids: number[] = [];
      let after: string | undefined;
      for (;;) {
        const next = await pageAfter(after);
        ids.push(...next.ids);
        if (!next.hasNextPage) break;
        assert.is(next.ids.length, PAGE, 'a page with a next one is full');
        after = next.endCursor;
      }
      assert.equal(ids, Array.from({ length: ROWS }, (_, i) => i));
      if (queryThreads > 0) assert.ok(chain.queryFigures!.answered >= 3, `the query thread answered ${chain.queryFigures!.answered}`);
    } finally {
      await chain.close();
    }
  });
}

page.run();
