// docs/host-abi.md §4-5, §9: events, the subjective database, clock and randomness, sockets and the
// verify mode with its ECDSA extension, each allowed where the mode allows it and refused elsewhere.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { accountNumberFromName, bytesToHex } from '../../../../host-api/index.js';
import { withVerdicts, type ExpectedSignature } from '../../../../runtime/crypto/signature-verdicts.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Probe, accountPrefix, concat, field, lookup, probeWasm, u32, u64 } from '../../../lib/probe.js';

const test = suite<{ chain: TestChain }>('host modes');
const PROBE = accountNumberFromName('probe');
const PRIV = accountNumberFromName('privprobe');

test.before(async (ctx) => {
  const wasm = await probeWasm();
  ctx.chain = TestChain.open();
  ctx.chain.deploy('probe', wasm);
  ctx.chain.deploy('privprobe', wasm, 1n);
  ctx.chain.deploy('verifier', wasm, 2n);
});
test.after(async (ctx) => ctx.chain.close());

/** A packed event {service, type: None, data: None} of the given service: u16 8, then the account. */
function event(service: bigint): Uint8Array {
  return concat(Uint8Array.of(8, 0), u64(service));
}

const run = (chain: TestChain, service: string, method: bigint, rawData: Uint8Array, mode: 'transaction' | 'rpc' | 'callback' | 'verify' = 'transaction') =>
  chain.run({ sender: 'alice', service, method, rawData }, { mode });

test('events: appended with consecutive ids in transactions, read back by id in queries', ({ chain }) => {
  const first = run(chain, 'probe', Probe.putSequential, concat(u32(DbId.historyEvent), field(event(PROBE))));
  assert.is(first.error, undefined);
  const id = new DataView(first.retval.buffer, first.retval.byteOffset).getBigUint64(0, true);
  const second = run(chain, 'probe', Probe.putSequential, concat(u32(DbId.historyEvent), field(event(PROBE))));
  assert.is(new DataView(second.retval.buffer, second.retval.byteOffset).getBigUint64(0, true), id + 1n);
  assert.equal(second.events.map((e) => [e.db, e.id]), [[DbId.historyEvent, id + 1n]]);
  const read = lookup(run(chain, 'probe', Probe.getSequential, concat(u32(DbId.historyEvent), u64(id)), 'rpc').retval);
  assert.is(bytesToHex(read!.value), bytesToHex(event(PROBE)));
  assert.is(lookup(run(chain, 'probe', Probe.getSequential, concat(u32(DbId.historyEvent), u64(999n)), 'rpc').retval), undefined);
});

test('events: refused in the wrong mode, on non-event dbs, and when naming another service', ({ chain }) => {
  assert.is(run(chain, 'probe', Probe.putSequential, concat(u32(DbId.uiEvent), field(event(PROBE))), 'rpc').errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, 'probe', Probe.getSequential, concat(u32(DbId.uiEvent), u64(1n))).errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, 'probe', Probe.putSequential, concat(u32(DbId.service), field(event(PROBE)))).errorCode, 'HOST_ACCESS_DENIED');
  const foreign = run(chain, 'probe', Probe.putSequential, concat(u32(DbId.merkleEvent), field(event(PRIV))));
  assert.is(foreign.errorCode, 'HOST_BAD_ARGUMENT');
  assert.match(foreign.error!, /must name its own service 'probe'/);
});

test('events: a privileged service may write another service\'s events (the events service does)', ({ chain }) => {
  const written = run(chain, 'privprobe', Probe.putSequential, concat(u32(DbId.historyEvent), field(event(PROBE))));
  assert.is(written.error, undefined);
  assert.equal(written.events.map((e) => e.db), [DbId.historyEvent]);
  assert.is(run(chain, 'privprobe', Probe.putSequential, concat(u32(DbId.historyEvent), field(Uint8Array.of(8, 0)))).errorCode, 'HOST_BAD_ARGUMENT', 'a record too short to name a service');
});

test('event ids roll back with a failed transaction', ({ chain }) => {
  const before = run(chain, 'probe', Probe.putSequential, concat(u32(DbId.uiEvent), field(event(PROBE))));
  const id = new DataView(before.retval.buffer, before.retval.byteOffset).getBigUint64(0, true);
  // putThenAbort writes into a db, then aborts; counters of events are undone the same way.
  run(chain, 'probe', Probe.putThenAbort, concat(u32(DbId.service), field(concat(accountPrefix(PROBE), Uint8Array.of(1))), field('x'), field('stop')));
  const after = run(chain, 'probe', Probe.putSequential, concat(u32(DbId.uiEvent), field(event(PROBE))));
  assert.is(new DataView(after.retval.buffer, after.retval.byteOffset).getBigUint64(0, true), id + 1n);
});

test('subjective db: only in rpc/callback, inside a checkout, written by privileged services', ({ chain }) => {
  assert.is(run(chain, 'privprobe', Probe.checkoutSubjective, new Uint8Array()).errorCode, 'HOST_ACCESS_DENIED', 'not in transactions');
  const key = concat(accountPrefix(PRIV), Uint8Array.of(1));
  const read = run(chain, 'privprobe', Probe.kvGet, concat(u32(DbId.subjective), field(key)), 'rpc');
  assert.is(read.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(read.error!, /needs an open subjective view/);
});

test('session db (66): the subjective rules (rpc/callback only, inside a checkout)', ({ chain }) => {
  const key = concat(accountPrefix(PRIV), Uint8Array.of(1));
  const read = run(chain, 'privprobe', Probe.kvGet, concat(u32(DbId.session), field(key)), 'rpc');
  assert.is(read.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(read.error!, /database 66 needs an open subjective view/);
  const inTransaction = run(chain, 'privprobe', Probe.kvGet, concat(u32(DbId.session), field(key)));
  assert.is(inTransaction.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(inTransaction.error!, /database 66 is not readable in transaction mode/);
});

test('subjective views: commit persists, abort discards, views left open are discarded, depth 8', ({ chain }) => {
  const key = concat(accountPrefix(PRIV), Uint8Array.of(2));
  const get = () => lookup(run(chain, 'privprobe', Probe.subjectiveGet, field(key), 'rpc').retval)?.value;
  assert.is(run(chain, 'probe', Probe.subjectivePut, concat(field(concat(accountPrefix(PROBE), Uint8Array.of(1))), field('x'), u32(1)), 'rpc').errorCode,
    'HOST_ACCESS_DENIED', 'writes need a privileged service');
  run(chain, 'privprobe', Probe.subjectivePut, concat(field(key), field('kept'), u32(0)), 'rpc');
  assert.is(get(), undefined, 'aborted view');
  run(chain, 'privprobe', Probe.subjectivePutLeftOpen, concat(field(key), field('open')), 'callback');
  assert.is(get(), undefined, 'view left open by the action');
  const committed = run(chain, 'privprobe', Probe.subjectivePut, concat(field(key), field('kept'), u32(1)), 'callback');
  assert.is(new DataView(committed.retval.buffer, committed.retval.byteOffset).getUint32(0, true), 1);
  assert.equal(get(), new TextEncoder().encode('kept'));
  assert.is(run(chain, 'privprobe', Probe.checkoutMany, u32(8), 'rpc').error, undefined);
  const deep = run(chain, 'privprobe', Probe.checkoutMany, u32(9), 'rpc');
  assert.is(deep.errorCode, 'HOST_LIMIT');
  assert.match(deep.error!, /at most 8 deep/);
});

test('subjective writes survive a rolled-back transaction of chain state', ({ chain }) => {
  const key = concat(accountPrefix(PRIV), Uint8Array.of(3));
  run(chain, 'privprobe', Probe.subjectivePut, concat(field(key), field('node-local'), u32(1)), 'rpc');
  run(chain, 'probe', Probe.abort, field('fail'));
  assert.ok(lookup(run(chain, 'privprobe', Probe.subjectiveGet, field(key), 'rpc').retval));
});

test('clock and randomness exist only in rpc and callback modes', ({ chain }) => {
  const clock = run(chain, 'probe', Probe.clockTimeGet, u32(0), 'rpc');
  const view = new DataView(clock.retval.buffer, clock.retval.byteOffset);
  assert.is(view.getUint32(0, true), 0);
  const ns = view.getBigUint64(4, true);
  assert.ok(ns > BigInt(Date.now() - 60_000) * 1_000_000n && ns < BigInt(Date.now() + 60_000) * 1_000_000n, 'wall clock in ns');
  assert.is(new DataView(run(chain, 'probe', Probe.clockTimeGet, u32(7), 'callback').retval.buffer).getUint32(0, true), 28, 'EINVAL');
  assert.is(run(chain, 'probe', Probe.clockTimeGet, u32(0)).errorCode, 'HOST_ACCESS_DENIED');
  const a = run(chain, 'probe', Probe.getRandom, u32(32), 'rpc').retval;
  const b = run(chain, 'probe', Probe.getRandom, u32(32), 'rpc').retval;
  assert.is(a.length, 32);
  assert.is.not(bytesToHex(a), bytesToHex(b));
  assert.is(run(chain, 'probe', Probe.getRandom, u32(8)).errorCode, 'HOST_ACCESS_DENIED');
});

function signed(curve: 'prime256v1' | 'secp256k1', message: Uint8Array) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const key = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }));
  const signature = new Uint8Array(sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
  const digest = new Uint8Array(createHash('sha256').update(message).digest());
  return { key, signature, digest };
}

for (const curve of ['prime256v1', 'secp256k1'] as const) {
  test(`verify mode: ecdsaVerify checks ${curve} signatures, in place or from the verdict the context was given`, async ({ chain }) => {
    const message = new TextEncoder().encode(`signed by ${curve}`);
    const { key, signature, digest } = signed(curve, message);
    const forged = signature.slice();
    forged[10] ^= 1;
    const [good, bad] = await withVerdicts([signature, forged].map((sig) => ({ key, digest, signedData: message, signature: sig })));
    const verify = (sig: Uint8Array, expectedSignature?: ExpectedSignature) =>
      chain.run({ sender: 0n, service: 'verifier', method: Probe.ecdsaVerify, rawData: concat(field(key), field(digest), field(sig)) },
        { mode: 'verify', expectedSignature }).retval[0];
    assert.is(verify(signature), 1, 'verified in place');
    assert.is(verify(signature, good), 1, 'from the verdict');
    assert.is(verify(forged), 0);
    assert.is(verify(forged, bad), 0);
    // A verdict answers only its own check: the other signature is verified in place.
    assert.is(verify(forged, good), 0);
    assert.is(verify(signature, bad), 1);
  });
}

test('verify mode: only verify services load; ecdsaVerify is refused elsewhere; no database access', ({ chain }) => {
  const r = chain.run({ sender: 0n, service: 'probe', method: Probe.thisService, rawData: '' }, { mode: 'verify' });
  assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(r.error!, /not a verify service/);
  const { key, signature, digest } = signed('prime256v1', Uint8Array.of(1));
  assert.is(run(chain, 'verifier', Probe.ecdsaVerify, concat(field(key), field(digest), field(signature)), 'rpc').errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, 'verifier', Probe.kvGet, concat(u32(DbId.service), field(accountPrefix(PROBE))), 'verify').errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, 'verifier', Probe.ecdsaVerify, concat(field(key), field(digest.subarray(0, 31)), field(signature)), 'verify').errorCode, 'HOST_BAD_ARGUMENT');
});

test.run();
