// docs/host-abi.md §3-4: the key-value imports against the access matrix, owner prefixes, privileges
// and size limits, through the probe service on a real LMDB store.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId, type Mode } from '../../../../host-api/abi/databases.js';
import { accountNumberFromName } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Probe, accountPrefix, concat, field, lookup, probeWasm, rangeRows, u32 } from '../../../lib/probe.js';
import { ROW_FUEL } from '../../../../runtime/wasm/host-imports/fuel-schedule.js';

const PROBE = accountNumberFromName('probe');
const key = (...bytes: number[]) => concat(accountPrefix(PROBE), Uint8Array.from(bytes));
const test = suite<{ chain: TestChain }>('host kv imports');

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.chain.deploy('probe', await probeWasm());
  ctx.chain.deploy('privprobe', await probeWasm(), 1n);
});
test.after(async (ctx) => ctx.chain.close());

function run(chain: TestChain, method: bigint, rawData: Uint8Array, mode: Mode = 'transaction', service = 'probe') {
  return chain.run({ sender: 'alice', service, method, rawData }, { mode });
}

test('kvPut, kvGet, kvRemove in transaction mode', ({ chain }) => {
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.service), field(key(1)), field('v1'))).error, undefined);
  assert.equal(lookup(run(chain, Probe.kvGet, concat(u32(DbId.service), field(key(1)))).retval)?.value, new TextEncoder().encode('v1'));
  run(chain, Probe.kvRemove, concat(u32(DbId.service), field(key(1))));
  assert.is(lookup(run(chain, Probe.kvGet, concat(u32(DbId.service), field(key(1)))).retval), undefined);
});

test('ordered lookups honour the match length and see writes of the same transaction', ({ chain }) => {
  for (const k of [key(5, 1), key(5, 3), key(6, 0)]) run(chain, Probe.kvPut, concat(u32(DbId.service), field(k), field('x')));
  const ge = lookup(run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(key(5, 2)), u32(9))).retval);
  assert.equal(ge?.key, key(5, 3));
  assert.is(lookup(run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(key(5, 4)), u32(9))).retval), undefined, 'prefix 5 has nothing >= 5,4');
  assert.equal(lookup(run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(key(5, 4)), u32(8))).retval)?.key, key(6, 0));
  assert.equal(lookup(run(chain, Probe.kvLessThan, concat(u32(DbId.service), field(key(5, 3)), u32(9))).retval)?.key, key(5, 1));
  assert.equal(lookup(run(chain, Probe.kvMax, concat(u32(DbId.service), field(key(5)))).retval)?.key, key(5, 3));
});

test('service db: reads are open to everyone, writes only under the own prefix', ({ chain }) => {
  const foreign = concat(accountPrefix(accountNumberFromName('alice')), Uint8Array.of(1));
  const r = run(chain, Probe.kvPut, concat(u32(DbId.service), field(foreign), field('x')));
  assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(r.error!, /only allows writing keys that start with the service's own account/);
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.service), field(foreign))).error, undefined);
});

test('lookups on prefixed databases must match the 8-byte owner prefix', ({ chain }) => {
  const r = run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(key(1)), u32(4)));
  assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(r.error!, /at least the 8-byte owner prefix/);
  assert.is(run(chain, Probe.kvMax, concat(u32(DbId.service), field(Uint8Array.of(1, 2)))).errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(key(1)), u32(10))).errorCode, 'HOST_BAD_ARGUMENT', 'match > key length');
});

test('queries (rpc) read but never write', ({ chain }) => {
  run(chain, Probe.kvPut, concat(u32(DbId.service), field(key(9)), field('q')));
  assert.ok(lookup(run(chain, Probe.kvGet, concat(u32(DbId.service), field(key(9))), 'rpc').retval));
  for (const method of [Probe.kvPut, Probe.kvRemove]) {
    const args = method === Probe.kvPut ? concat(u32(DbId.service), field(key(9)), field('w')) : concat(u32(DbId.service), field(key(9)));
    const r = run(chain, method, args, 'rpc');
    assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
    assert.match(r.error!, /read-only or unavailable in rpc mode/);
  }
});

test('writeOnly db: written in transactions, read only by queries', ({ chain }) => {
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.writeOnly), field(key(1)), field('w'))).error, undefined);
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.writeOnly), field(key(1)))).errorCode, 'HOST_ACCESS_DENIED');
  assert.ok(lookup(run(chain, Probe.kvGet, concat(u32(DbId.writeOnly), field(key(1))), 'rpc').retval));
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.writeOnly), field(key(2)), field('c')), 'callback').error, undefined);
});

test('native db: readable, writable only by privileged services with valid rows at their key', ({ chain }) => {
  const configKey = Uint8Array.of(0, 7, 0);
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.native), field(configKey))).error, undefined);
  const r = run(chain, Probe.kvPut, concat(u32(DbId.native), field(configKey), field('bad')));
  assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(r.error!, /privileged/);
  const invalid = run(chain, Probe.kvPut, concat(u32(DbId.native), field(configKey), field('bad')), 'transaction', 'privprobe');
  assert.is(invalid.errorCode, 'HOST_BAD_ARGUMENT');
  assert.match(invalid.error!, /invalid row for native table 7/);
  const table99 = run(chain, Probe.kvPut, concat(u32(DbId.native), field(Uint8Array.of(0, 99, 0)), field('x')), 'transaction', 'privprobe');
  assert.match(table99.error!, /native table 99 cannot be written/);
});

test('blockLog is readable by queries only; unknown and internal databases are refused', ({ chain }) => {
  const block = Uint8Array.of(0, 0, 0, 2);
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.blockLog), field(block))).errorCode, 'HOST_ACCESS_DENIED');
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.blockLog), field(block)), 'rpc').error, undefined);
  for (const db of [DbId.blockProof, DbId.prevAuthServices, 9, 200]) {
    assert.is(run(chain, Probe.kvGet, concat(u32(db), field(key(1))), 'rpc').errorCode, 'HOST_ACCESS_DENIED', `db ${db}`);
  }
});

test('keys are limited to 128 bytes', ({ chain }) => {
  const long = concat(accountPrefix(PROBE), new Uint8Array(121));
  const r = run(chain, Probe.kvPut, concat(u32(DbId.service), field(long), field('x')));
  assert.is(r.errorCode, 'HOST_BAD_ARGUMENT');
  assert.match(r.error!, /key of 129 bytes exceeds the limit of 128/);
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.service), field(long.subarray(0, 128)), field('x'))).error, undefined);
});

test('temporary db: scratch space for one context, own prefix, privileged writes', ({ chain }) => {
  assert.is(run(chain, Probe.kvGet, concat(u32(DbId.temporary), field(key(1)))).errorCode, 'HOST_ACCESS_DENIED', 'not in transactions');
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.temporary), field(key(1)), field('t')), 'rpc').errorCode, 'HOST_ACCESS_DENIED');
  const priv = concat(accountPrefix(accountNumberFromName('privprobe')), Uint8Array.of(1));
  assert.is(run(chain, Probe.kvPut, concat(u32(DbId.temporary), field(priv), field('t')), 'rpc', 'privprobe').error, undefined);
  assert.is(lookup(run(chain, Probe.kvGet, concat(u32(DbId.temporary), field(priv)), 'rpc', 'privprobe').retval), undefined, 'gone with its context');
});

test('kvRange (rpc only): the rows kvGreaterEqual steps through, within the match, the upper bound and the count', ({ chain }) => {
  const stored = [key(20, 1), key(20, 2), key(20, 3), key(21, 0)];
  for (const [i, k] of stored.entries()) run(chain, Probe.kvPut, concat(u32(DbId.service), field(k), field(`r${i}`)));
  const range = (start: Uint8Array, match: number, upper: Uint8Array, maxRows: number, mode: Mode = 'rpc') =>
    run(chain, Probe.kvRange, concat(u32(DbId.service), field(start), u32(match), field(upper), u32(maxRows)), mode);
  const keys = (start: Uint8Array, match: number, upper: Uint8Array, maxRows: number) => rangeRows(range(start, match, upper, maxRows).retval).map((r) => [...r.key]);
  const none = new Uint8Array(0);
  assert.equal(rangeRows(range(key(20), 9, none, 10).retval), stored.slice(0, 3).map((k, i) => ({ key: k, value: new TextEncoder().encode(`r${i}`) })));
  // The same rows as a walk of kvGreaterEqual at each key followed by 0x00.
  const walked: number[][] = [];
  for (let at = key(20); ;) {
    const entry = lookup(run(chain, Probe.kvGreaterEqual, concat(u32(DbId.service), field(at), u32(8)), 'rpc').retval);
    if (!entry || entry.key[8]! > 21) break;
    walked.push([...entry.key]);
    at = concat(entry.key, Uint8Array.of(0));
  }
  assert.equal(keys(key(20), 8, key(22), 10), walked);
  assert.equal(keys(key(20, 2), 9, none, 10), [[...key(20, 2)], [...key(20, 3)]], 'from the given key on');
  assert.equal(keys(key(20), 8, key(20, 3), 10), [[...key(20, 1)], [...key(20, 2)]], 'below the upper bound');
  assert.equal(keys(key(20), 8, none, 2), [[...key(20, 1)], [...key(20, 2)]], 'at most maxRows');
  assert.equal(keys(key(20), 8, none, 0), []);
  assert.equal(keys(key(30), 9, none, 5), [], 'no row: V empty');
  assert.ok(range(key(20), 9, none, 3).fuelUsed - range(key(20), 9, none, 1).fuelUsed >= BigInt(2 * ROW_FUEL), 'each row read is charged');
  for (const mode of ['transaction', 'callback'] as const) {
    const refused = range(key(20), 9, none, 3, mode);
    assert.is(refused.errorCode, 'HOST_ACCESS_DENIED', mode);
    assert.match(refused.error!, /kvRange is only available in rpc mode/);
  }
  assert.is(range(key(20), 4, none, 3).errorCode, 'HOST_ACCESS_DENIED', 'must match the owner prefix');
});

test('kvRange asked again answers the same rows, and after a commit the rows it changed', ({ chain }) => {
  const put = (sub: number, value: string) => run(chain, Probe.kvPut, concat(u32(DbId.service), field(key(50, sub)), field(value)));
  const page = () => rangeRows(run(chain, Probe.kvRange, concat(u32(DbId.service), field(key(50)), u32(9), field(new Uint8Array(0)), u32(10)), 'rpc').retval)
    .map((r) => `${r.key[9]}=${new TextDecoder().decode(r.value)}`);
  put(1, 'a');
  put(3, 'c');
  assert.equal(page(), ['1=a', '3=c']);
  assert.equal(page(), ['1=a', '3=c'], 'the same page again');
  put(2, 'b');
  assert.equal(page(), ['1=a', '2=b', '3=c'], 'a row written into the range');
  put(3, 'C');
  assert.equal(page(), ['1=a', '2=b', '3=C'], 'a row changed');
  run(chain, Probe.kvRemove, concat(u32(DbId.service), field(key(50, 1))));
  assert.equal(page(), ['2=b', '3=C'], 'a row removed');
});

test('kvRange ends its reply after the row that brings it to 1 MiB: never an empty one while rows remain', ({ chain }) => {
  const big = new Uint8Array(600 * 1024).fill(7);
  for (const sub of [1, 2, 3]) run(chain, Probe.kvPut, concat(u32(DbId.service), field(key(40, sub)), field(big)));
  const rows = (start: Uint8Array) => rangeRows(run(chain, Probe.kvRange, concat(u32(DbId.service), field(start), u32(9), field(new Uint8Array(0)), u32(10)), 'rpc').retval);
  const first = rows(key(40));
  assert.equal(first.map((r) => [...r.key]), [[...key(40, 1)], [...key(40, 2)]], 'two rows of 600 KiB reach 1 MiB');
  assert.ok(first.every((r) => r.value.length === big.length));
  assert.equal(rows(concat(key(40, 2), Uint8Array.of(0))).map((r) => [...r.key]), [[...key(40, 3)]], 'asked again from after the last, the rest');
});

test.run();
