// bench/graphql: queries/s of a GraphQL query answering a page of 100 rows (a generated @query
// root's Connection, through the node, the http service and the SDK's executor), next to
// bench/http's serveSys query reading 5 rows, measured on the same node in the same run; with
// each, the node main thread's CPU per request, which a busy machine disturbs less than the rates.
// Run: make bench (or node scripts/run-bench.js graphql).
import { formatRate } from '../lib/measure.js';
import { CONNECTIONS, PIPELINING, benchService, fillRows, requestRate, rowsService, serveSysQueryRate, startBenchNode } from '../lib/http-load.js';
import { SECONDS, WARM_UP_SECONDS } from '../lib/closed-loop.js';

const PAGE = 100;
const QUERY = `{ rows(first: ${PAGE}) { edges { node { id owner label amount } cursor } pageInfo { hasNextPage endCursor } } }`;

const node = await startBenchNode('graphql', [await rowsService(), await benchService('paged', 'bench/graphql/paged.as.ts')]);
try {
  await fillRows(node);
  await node.push('paged', 'paged', 'fill', new Uint8Array(2));
  const graphql = await requestRate(node, node.hostOf('paged'), {
    method: 'POST', path: '/graphql', contentType: 'application/graphql', body: QUERY,
  });
  const edges = (JSON.parse(graphql.body) as { data: { rows: { edges: unknown[] } } }).data.rows.edges.length;
  if (edges !== PAGE) throw new Error(`expected ${PAGE} edges, got ${edges}: ${graphql.body.slice(0, 200)}`);
  const rows = await serveSysQueryRate(node);
  console.log(`bench/graphql (node ${process.version}); ${CONNECTIONS} connections x ${PIPELINING} pipelined, ${SECONDS} s each after ${WARM_UP_SECONDS} s of warm-up`);
  const cpu = (result: { mainThreadMicros: number }) => `${result.mainThreadMicros.toFixed(0)} µs node main-thread CPU each`;
  console.log(`${`GraphQL page of ${PAGE} rows`.padEnd(40)} ${formatRate(graphql.rate).padStart(10)} queries/s  (${graphql.body.length}-byte reply, ${formatRate(graphql.rate * PAGE)} rows/s; ${cpu(graphql)})`);
  console.log(`${'bench/http: serveSys reading 5 rows'.padEnd(40)} ${formatRate(rows.rate).padStart(10)} req/s  (${rows.body.length}-byte reply; ${cpu(rows)})`);
  console.log(`${'GraphQL page / serveSys query'.padEnd(40)} ${((graphql.rate / rows.rate) * 100).toFixed(1).padStart(9)} %  (by CPU per request: ${((rows.mainThreadMicros / graphql.mainThreadMicros) * 100).toFixed(1)} %)`);
} finally {
  await node.stop();
}
