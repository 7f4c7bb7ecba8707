// A client's mistakes in JSON it sends to a real node are 400 text/plain naming the member (with
// CORS, so a page can read why): /pack_action/<action> of the services' SDK and /common/pack/*.
// Members left out are not mistakes: they take psibase's defaults (docs/formats.md §3.1).
// A service's own abort is still a 500.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SignedTransaction, Transaction, bytesToHex, compileSchema } from '../../../host-api/index.js';
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

test('pack_action: bad JSON, an unknown or mistyped argument, a body that is not UTF-8 are 400s naming the argument', async (ctx) => {
  const ok = await post(ctx, 'example', '/pack_action/increment', '{"name": "a", "by": 2}');
  assert.is(ok.status, 200);
  assert.equal(ok.body, compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'a', by: 2n }));
  const cases: [body: string | Uint8Array, message: string | RegExp][] = [
    // Cut short: the parser stops at the end of the text.
    ['{"name": "a", "by": 2', /^invalid JSON at 21: /],
    ['', /^invalid JSON at 0: /],
    ['{"name": "a", "by": 1, "times": 2}', "action 'increment' does not have argument 'times'"],
    ['{"name": "a", "by": "many"}', 'increment.by: expected an integer in range'],
    ['{"name": 7, "by": 1}', 'increment.name: expected a string'],
    ['[1]', 'increment: expected an object'],
    [Uint8Array.of(0x7b, 0xff, 0x7d), 'pack_action: the body is not UTF-8'],
  ];
  for (const [body, message] of cases) assertMistake(await post(ctx, 'example', '/pack_action/increment', body), message, String(body));
  assertMistake(await post(ctx, 'example', '/pack_action/get', '{"owner": "Not Valid", "name": ""}'), 'get.owner: invalid account name "Not Valid"', 'get');
  // Arguments left out are their defaults; unknown keys inside records are skipped.
  const args = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } });
  for (const [body, value] of [['{"name": "a"}', { name: 'a', by: 0n }], ['{"by": 3}', { name: '', by: 3n }], ['{}', { name: '', by: 0n }]] as const) {
    const r = await post(ctx, 'example', '/pack_action/increment', body);
    assert.is(r.status, 200, body);
    assert.equal(r.body, args.pack(value), body);
  }
  // An action the service does not have is not the packer's: 404 as before.
  assert.is((await post(ctx, 'example', '/pack_action/nosuchaction', '{')).status, 404);
});

test('/common/pack/*: bad JSON, mistyped members and hex that is no transaction are 400s naming the member', async (ctx) => {
  const tapos = '{"expiration": "2030-01-01T00:00:00Z", "refBlockSuffix": 1, "flags": 0, "refBlockIndex": 7}';
  const transaction = `{"tapos": ${tapos}, "actions": [], "claims": []}`;
  assert.is((await post(ctx, 'example', '/common/pack/Transaction', transaction)).status, 200);
  const cases: [path: string, body: string, message: string | RegExp][] = [
    ['Transaction', '{"tapos": ', /^invalid JSON at 10: /],
    ['Transaction', `{"tapos": ${tapos.replace('2030-01-01T00:00:00Z', 'soon')}, "actions": [], "claims": []}`,
      "transaction.tapos.expiration: 'soon' is not a time of the form YYYY-MM-DDThh:mm:ss[.ffffff]Z"],
    ['Transaction', `{"tapos": ${tapos}, "actions": [{"sender": "-x"}]}`, 'transaction.actions[0].sender: invalid account name "-x"'],
    ['Transaction', '[]', 'transaction: expected an object'],
    ['SignedTransaction', `{"transaction": ${transaction}, "proofs": ["xyz"]}`, 'proofs[0]: expected hex'],
    ['SignedTransaction', '{"transaction": "not hex", "proofs": []}', 'transaction: expected hex'],
    ['SignedTransaction', `{"transaction": {"tapos": 1}}`, 'transaction.tapos: expected an object'],
    // Valid hex, but no packed transaction: cut short, a bad offset, bytes left over.
    ['SignedTransaction', '{"transaction": "ABCD"}', /^transaction: the hex is not a packed transaction \(fracpack: /],
    ['SignedTransaction', '{"transaction": "0C00FFFFFFFF0000000000000000"}', /^transaction: the hex is not a packed transaction \(fracpack: /],
    ['SignedTransaction', '{"transaction": "00"}', /^transaction: the hex is not a packed transaction \(fracpack: /],
    ['SignedTransaction', '{"transaction": ""}', /^transaction: the hex is not a packed transaction \(fracpack: /],
    ['SignedTransaction', `{"transaction": "${'FF'.repeat(64)}"}`, /^transaction: the hex is not a packed transaction \(fracpack: /],
  ];
  for (const [path, body, message] of cases) assertMistake(await post(ctx, 'example', `/common/pack/${path}`, body), message, `${path} ${body}`);
});

test("/common/pack/*: psibase's shapes pack: members left out are defaults, unknown keys skipped, as host-api's fromJson", async (ctx) => {
  const tapos = { refBlockIndex: 3, refBlockSuffix: 4096, expiration: '2030-01-01T00:00:00.250Z' };
  const action = { sender: 'alice', service: 'example', method: 'increment', rawData: '0A' };
  const shapes: [string, object][] = [
    ['three-field TaPoS, no flags, no claims, milliseconds', { tapos, actions: [action] }],
    ['no actions either', { tapos }],
    ['nothing at all', {}],
    ['an action of only a sender, unknown keys at each level', { tapos: { ...tapos, extra: 1 }, actions: [{ sender: 'bob', note: 'x' }], memo: { any: [1] } }],
  ];
  for (const [what, trx] of shapes) {
    const packed = Transaction.pack(Transaction.fromJson(trx));
    const r = await post(ctx, 'example', '/common/pack/Transaction', JSON.stringify(trx));
    assert.is(r.status, 200, `${what}: ${r.text()}`);
    assert.equal(r.body, packed, what);
    const signed = await post(ctx, 'example', '/common/pack/SignedTransaction', JSON.stringify({ transaction: trx }));
    assert.is(signed.status, 200, `${what}: ${signed.text()}`);
    assert.equal(signed.body, SignedTransaction.pack({ transaction: packed, proofs: [], subjectiveData: null }), what);
  }
  // The packed hex of a transaction is taken as it is; a SignedTransaction left empty holds a transaction of defaults.
  const packed = Transaction.pack(Transaction.fromJson({ tapos, actions: [action] }));
  const fromHex = await post(ctx, 'example', '/common/pack/SignedTransaction', JSON.stringify({ transaction: bytesToHex(packed), proofs: ['AB'], subjectiveData: ['CD'] }));
  assert.is(fromHex.status, 200, fromHex.text());
  assert.equal(fromHex.body, SignedTransaction.pack({ transaction: packed, proofs: [Uint8Array.of(0xab)], subjectiveData: [Uint8Array.of(0xcd)] }));
  const empty = await post(ctx, 'example', '/common/pack/SignedTransaction', '{}');
  assert.equal(empty.body, SignedTransaction.pack(SignedTransaction.fromJson({})));
});

test('/common/pack/*: whatever the body, the answer is a 200 or a 400, never a 500', async (ctx) => {
  const bodies = [
    '', 'null', '0', '"x"', '[]', '[{}]', '{"tapos": null}', '{"tapos": {"expiration": 5}}', '{"tapos": {"refBlockIndex": 256}}',
    '{"tapos": {"expiration": "99999-01-01T00:00:00Z"}}', '{"actions": [null]}', '{"actions": {}}', '{"actions": [{"method": "NOT A METHOD"}]}',
    '{"claims": [{"rawData": "0"}]}', '{"transaction": 5}', '{"transaction": null, "proofs": null}', '{"proofs": [1]}',
    '{"subjectiveData": "AB"}', `{"transaction": "${'0'.repeat(10000)}"}`, '{"a": ' + '['.repeat(300) + ']'.repeat(300) + '}',
  ];
  for (const body of bodies) {
    for (const type of ['Transaction', 'SignedTransaction']) {
      const r = await post(ctx, 'example', `/common/pack/${type}`, body);
      assert.ok(r.status === 200 || r.status === 400, `${type} ${body.slice(0, 60)}: ${r.status} ${r.text()}`);
    }
  }
});

test('a service that aborts is still a 500 with its message', async (ctx) => {
  const r = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/abort'));
  assert.is(r.status, 500);
  assert.is(r.text(), "service 'probe' aborted with message: probe refused");
});

test.run();
