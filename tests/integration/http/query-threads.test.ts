// Queries on query threads (docs/serving.md §10): the same requests, on chains booted alike with
// 0, 1 and 2 query threads, get byte-identical replies: service replies, aborts, refused
// replies, a query out of fuel, GraphQL of the open block's writes and of a committed block, a
// setCode seen by the next query, a query behind a busy thread seeing the writes made meanwhile,
// a reply of kilobytes, and the requests a thread hands back (deferred replies,
// subjective views, a reply on another request's socket), which the chain thread runs. The
// hand-offs of writes, the session database and a snapshot past the state are in
// tests/unit/runtime/db/snapshot-store.test.ts.
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BootedChain } from '../../../runtime/testing/booted-chain.js';
import type { TestHttpReply, TestHttpRequest } from '../../../runtime/testing/in-memory-http.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry, ROOT } from '../../unit/services-wasm/program.js';

const TOKENS_WASM = join(ROOT, 'build', 'services', 'tokens.wasm');
const PROBE = 'probe.tsibase.localhost';

/** A reply as bytes can compare it: status, every header but the date, the body. */
function recorded(name: string, reply: TestHttpReply): string {
  const headers = Object.entries(reply.headers).filter(([field]) => field !== 'date').sort(([a], [b]) => a.localeCompare(b));
  return `${name} ${reply.status} ${JSON.stringify(headers)} ${Buffer.from(reply.body).toString('hex')}`;
}

const graphqlRequest = (service: string, query: string): TestHttpRequest => ({
  method: 'POST', host: `${service}.tsibase.localhost`, path: '/graphql', headers: { 'Content-Type': 'application/graphql' }, body: query,
});

/** Requests whose replies depend on the state: each is asked again after every step. */
const QUERIES: readonly [string, TestHttpRequest][] = [
  ['reply', { host: PROBE, path: '/reply' }],
  ['abort', { host: PROBE, path: '/abort' }],
  ['bad status', { host: PROBE, path: '/bad-status' }],
  ['bad header', { host: PROBE, path: '/bad-header' }],
  ['echo', { method: 'POST', host: PROBE, path: '/echo?x=1', headers: { 'X-Probe': 'yes' }, body: 'body' }],
  ['out of fuel', { host: PROBE, path: '/spin' }],
  ['send', { host: PROBE, path: '/send' }],
  ['send elsewhere', { host: PROBE, path: '/send-elsewhere' }],
  ['not found', { host: PROBE, path: '/nothing' }],
  ['root', { path: '/' }],
  ['common', { path: '/common/thisservice' }],
  ['accounts', graphqlRequest('accounts', '{ alice: getAccount(account: "alice") { accountNum authService } bob: getAccount(account: "bob") { accountNum } }')],
  // A reply of kilobytes: a thread hands its body's buffer over rather than copying it.
  ['schema', graphqlRequest('accounts', '{ __schema { types { name fields { name } } } }')],
  ['head', graphqlRequest('explorer', '{ headBlock { id header { blockNum time } transactionCount } }')],
  ['swap', { host: 'swap.tsibase.localhost', path: '/reply' }],
];

interface Run {
  readonly replies: string[];
  /** The accounts query while bob's account was only in the open block. */
  readonly openBlockAccounts: string;
  readonly figures: { answered: number; handedOff: number } | undefined;
}

async function scenario(queryThreads: number): Promise<Run> {
  const probe = await compiledEntry('tests/integration/services/http-probe.as.ts');
  const chain: BootedChain = await TestChain.boot({
    queryThreads, time: '2030-01-01T00:00:00Z', services: [{ account: 'probe', code: probe.binary, flags: 1n, registerServer: true }],
  });
  try {
    const replies: string[] = [];
    const ask = async (step: string) => {
      for (const [name, request] of QUERIES) replies.push(recorded(`${step}: ${name}`, await chain.http(request)));
    };
    await chain.newAccount('alice');
    await ask('booted');
    // bob's account is applied to the open block, not yet committed: queries see it all the same.
    chain.autoBlock(false);
    await chain.newAccount('bob');
    await ask('open block');
    const openBlockAccounts = replies.find((r) => r.startsWith('open block: accounts'))!;
    // A query taken while its thread works on another (one running out of fuel) leaves after it,
    // with the writes made meanwhile: it sees carol, applied to the open block after the first
    // query left and before it was asked.
    const spinning = chain.http({ host: PROBE, path: '/spin' });
    await chain.newAccount('carol');
    replies.push(recorded('behind a busy thread', await chain.http(graphqlRequest('accounts', '{ getAccount(account: "carol") { accountNum } }'))));
    replies.push(recorded('the busy one', await spinning));
    chain.produceBlock();
    await ask('committed');
    chain.autoBlock(true);
    // A setCode in a block is what the next query runs.
    await chain.deploy('swap', probe.binary, { registerServer: true });
    await ask('swap is a probe');
    await chain.deploy('swap', TOKENS_WASM, { create: false, registerServer: true });
    await ask('swap is tokens');
    // A deferred reply: the deferring request and the answering one are handed back.
    const deferred = chain.http({ host: PROBE, path: '/defer' });
    replies.push(recorded('answer', await chain.http({ host: PROBE, path: '/answer' })));
    replies.push(recorded('deferred', await deferred));
    replies.push(recorded('nothing deferred', await chain.http({ host: PROBE, path: '/answer' })));
    // Many at once: the threads answer them in any order, each as if alone. (Not /send-elsewhere:
    // with threads the next request's socket is open at the same time, and it may be answered there.)
    const alone = QUERIES.filter(([name]) => name !== 'send elsewhere');
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => chain.http(alone[i % alone.length]![1])));
    many.forEach((reply, i) => replies.push(recorded(`together ${i}`, reply)));
    return { replies, openBlockAccounts, figures: chain.queryFigures && { ...chain.queryFigures } };
  } finally {
    await chain.close();
  }
}

const threads = suite('query threads: replies identical to the chain thread\'s');

threads('0, 1 and 2 query threads answer every request byte for byte alike', async () => {
  const here = await scenario(0);
  assert.is(here.figures, undefined);
  assert.match(here.openBlockAccounts, Buffer.from('"bob":{"accountNum":"bob"}').toString('hex'));
  assert.ok(here.replies.some((r) => r.startsWith('open block: out of fuel 500')), 'the spinning query runs out of fuel');
  assert.match(here.replies.find((r) => r.startsWith('behind a busy thread'))!, Buffer.from('"accountNum":"carol"').toString('hex'));
  const schema = here.replies.find((r) => r.startsWith('booted: schema 200'))!;
  // Larger than the small arrays that share a slab (host-api/encoding/bytes.ts): a body of its own.
  assert.ok(schema.length - schema.lastIndexOf(' ') > 2 * 1024, 'the schema reply is over a kilobyte');
  assert.ok(here.replies.some((r) => r.startsWith('booted: send elsewhere 200') && r.endsWith(Buffer.from('8').toString('hex'))), 'no other request is open');
  assert.ok(here.replies.find((r) => r.startsWith('swap is a probe: swap'))! !== here.replies.find((r) => r.startsWith('swap is tokens: swap'))!.replace('swap is tokens', 'swap is a probe'));
  for (const count of [1, 2]) {
    const run = await scenario(count);
    assert.equal(run.replies, here.replies, `${count} query thread(s)`);
    assert.ok(run.figures!.answered > QUERIES.length * 4, `${count} thread(s) answered ${run.figures!.answered}`);
    // /send-elsewhere each time it is asked (another request's socket), /defer and the two
    // /answer requests (a subjective view) come back.
    assert.ok(run.figures!.handedOff >= 5 + 3, `${count} thread(s) handed back ${run.figures!.handedOff}`);
  }
});

threads.run();
