// A client's mistakes in JSON it sends to a real node are 400 text/plain naming the member (with
// CORS, so a page can read why): /pack_action/<action> of the services' SDK and /common/pack/*.
// A service's own abort is still a 500.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema } from '../../../host-api/index.js';
import { httpRequest, serviceUrl, type HttpReply } from '../../../runtime/cli/client.js';
import { startHttpProbeNode } from '../../lib/http-probe-node.js';
import type { RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('client mistakes');

const post = (ctx: Ctx, service: string, path: string, body: string | Uint8Array) => httpRequest(serviceUrl(ctx.node.api, service, path), {
  method: 'POST',
  body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  headers: { 'content-type': 'application/json' },
});

/** Asserts `r` is the 400 of a client mistake saying `message`. */
function assertMistake(r: HttpReply, message: string | RegExp, what: string): void {
  assert.is(r.status, 400, `${what}: ${r.text()}`);
  assert.is(r.contentType, 'text/plain', what);
  assert.is(r.headers['access-control-allow-origin'], '*', what);
  if (typeof message === 'string') assert.is(r.text(), message, what);
  else assert.match(r.text(), message, what);
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-mistakes-'));
  ctx.node = await startHttpProbeNode(ctx.dir);
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('pack_action: bad JSON, a missing or mistyped argument, a body that is not UTF-8 are 400s naming the argument', async (ctx) => {
  const ok = await post(ctx, 'example', '/pack_action/increment', '{"name": "a", "by": 2}');
  assert.is(ok.status, 200);
  assert.equal(ok.body, compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'a', by: 2n }));
  const cases: [body: string | Uint8Array, message: string | RegExp][] = [
    // Cut short: the parser stops at the end of the text.
    ['{"name": "a", "by": 2', /^invalid JSON at 21: /],
    ['', /^invalid JSON at 0: /],
    ['{"name": "a"}', 'increment.by: missing'],
    ['{"by": 1}', 'increment.name: missing'],
    ['{"name": "a", "by": "many"}', 'increment.by: expected an integer in range'],
    ['{"name": 7, "by": 1}', 'increment.name: expected a string'],
    ['[1]', 'increment: expected an object'],
    [Uint8Array.of(0x7b, 0xff, 0x7d), 'pack_action: the body is not UTF-8'],
  ];
  for (const [body, message] of cases) assertMistake(await post(ctx, 'example', '/pack_action/increment', body), message, String(body));
  assertMistake(await post(ctx, 'example', '/pack_action/get', '{"owner": "Not Valid", "name": ""}'), 'get.owner: invalid account name "Not Valid"', 'get');
  // An action the service does not have is not the packer's: 404 as before.
  assert.is((await post(ctx, 'example', '/pack_action/nosuchaction', '{')).status, 404);
});

test('/common/pack/*: bad JSON and missing or mistyped members are 400s naming the member', async (ctx) => {
  const tapos = '{"expiration": "2030-01-01T00:00:00Z", "refBlockSuffix": 1, "flags": 0, "refBlockIndex": 7}';
  const transaction = `{"tapos": ${tapos}, "actions": [], "claims": []}`;
  assert.is((await post(ctx, 'example', '/common/pack/Transaction', transaction)).status, 200);
  const cases: [path: string, body: string, message: string | RegExp][] = [
    ['Transaction', '{"tapos": ', /^invalid JSON at 10: /],
    ['Transaction', '{}', 'transaction.tapos: missing'],
    ['Transaction', `{"tapos": ${tapos}, "claims": []}`, 'transaction.actions: missing'],
    ['Transaction', `{"tapos": ${tapos.replace('2030-01-01T00:00:00Z', 'soon')}, "actions": [], "claims": []}`,
      "transaction.tapos.expiration: 'soon' is not a time of the form YYYY-MM-DDThh:mm:ss[.ffffff]Z"],
    ['Transaction', `{"tapos": ${tapos}, "actions": [{"sender": "a", "service": "b", "method": "c"}], "claims": []}`, 'transaction.actions[0].rawData: missing'],
    ['SignedTransaction', '{"proofs": []}', 'signed transaction: transaction is missing'],
    ['SignedTransaction', `{"transaction": ${transaction}, "proofs": ["xyz"]}`, 'proofs[0]: expected hex'],
    ['SignedTransaction', '{"transaction": "not hex", "proofs": []}', 'transaction: expected hex'],
    ['SignedTransaction', `{"transaction": {"tapos": 1}}`, 'transaction.tapos: expected an object'],
  ];
  for (const [path, body, message] of cases) assertMistake(await post(ctx, 'example', `/common/pack/${path}`, body), message, `${path} ${body}`);
});

test('a service that aborts is still a 500 with its message', async (ctx) => {
  const r = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/abort'));
  assert.is(r.status, 500);
  assert.is(r.text(), "service 'probe' aborted with message: probe refused");
});

test.run();
