// docs/host-abi.md §10.1: host calls charge fuel for the call, the bytes they move and the rows
// they visit, so that copying a megabyte or walking many rows is not free; the charge depends only
// on the arguments and the data, and running out ends the context as metered code does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { BYTES_PER_FUEL, HOST_CALL_FUEL, ROW_FUEL } from '../../../../runtime/wasm/host-imports/fuel-schedule.js';
import { accountPrefix } from '../../../lib/probe.js';
import { wat } from './admission-helpers.js';

const MIB = 1 << 20;

/**
 * A service `account` whose `called` runs `body` with `$n` = the action's sender as an i32 (the
 * sender chooses a length or a count without changing one instruction the guest executes) and
 * the service's own 8-byte key prefix at address 0.
 */
function hostCaller(account: string, body: string): Promise<Uint8Array> {
  const prefix = [...accountPrefix(accountNumberFromName(account))].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
  return wat(`(module
    (import "env" "getResult" (func $getResult (param i32 i32 i32) (result i32)))
    (import "env" "setRetval" (func $setRetval (param i32 i32)))
    (import "env" "kvGet" (func $kvGet (param i32 i32 i32) (result i32)))
    (import "env" "kvPut" (func $kvPut (param i32 i32 i32 i32 i32)))
    (memory (export "memory") 17)
    (data (i32.const 0) "${prefix}")
    (func (export "called") (param $service i64) (param $sender i64) (local $n i32) (local $i i32)
      (local.set $n (i32.wrap_i64 (local.get $sender)))
      ${body}))`);
}

/** `$n` iterations of `call` (an expression that leaves nothing). */
const loop = (call: string) => `(block $done (loop $next
  (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
  ${call}
  (local.set $i (i32.add (local.get $i) (i32.const 1)))
  (br $next)))`;

const CALL_GET_RESULT = '(drop (call $getResult (i32.const 0) (i32.const 0) (i32.const 0)))';
// The service's own 8-byte prefix, under which these services store nothing: no value is read.
const CALL_KV_GET = '(drop (call $kvGet (i32.const 0) (i32.const 0) (i32.const 8)))';

const SERVICES = {
  copier: `(call $setRetval (i32.const 0) (local.get $n))`,
  onecall: CALL_GET_RESULT,
  twocalls: CALL_GET_RESULT + CALL_GET_RESULT,
  callloop: loop(CALL_GET_RESULT),
  getloop: loop(CALL_KV_GET),
  // $n = 0 reads the row under the service's own 8-byte prefix; else stores $n - 1 bytes there.
  row: `(if (i32.eqz (local.get $n))
    (then (drop (call $kvGet (i32.const 0) (i32.const 0) (i32.const 8))))
    (else (call $kvPut (i32.const 0) (i32.const 0) (i32.const 8) (i32.const 8) (i32.sub (local.get $n) (i32.const 1)))))`,
};
type ServiceName = keyof typeof SERVICES;

const test = suite<{ chain: TestChain }>('fuel charged by host calls');

async function deployAll(chain: TestChain): Promise<void> {
  for (const [name, body] of Object.entries(SERVICES)) chain.deploy(name, await hostCaller(name, body));
}

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  await deployAll(ctx.chain);
});
test.after(async (ctx) => ctx.chain.close());

/** Runs `service` with $n = n; fails the test when the run fails unless `fuel` is given. */
function run(chain: TestChain, service: ServiceName, n: number, fuel?: bigint) {
  const result = chain.run({ sender: BigInt(n), service: service, method: 0n, rawData: '' }, fuel ? { budget: { fuel } } : {});
  if (!fuel) assert.is(result.error, undefined, `${service}(${n})`);
  return result;
}

const bytesFuel = (bytes: number) => BigInt(Math.ceil(bytes / BYTES_PER_FUEL));

test('copying 1 MiB out of memory costs more than copying nothing by exactly the per-byte charge', ({ chain }) => {
  const none = run(chain, 'copier', 0);
  const mib = run(chain, 'copier', MIB);
  assert.is(mib.retval.length, MIB);
  assert.is(mib.fuelUsed - none.fuelUsed, bytesFuel(MIB));
  assert.is(bytesFuel(MIB), BigInt(MIB / 8));
  // Bytes are rounded up per call: 9 bytes cost two units.
  assert.is(run(chain, 'copier', 9).fuelUsed - none.fuelUsed, 2n);
});

test('a host call that copies nothing costs the base charge on top of its five instructions', ({ chain }) => {
  // (drop (call $getResult (i32.const 0) (i32.const 0) (i32.const 0))): three constants, the call and the drop.
  assert.is(run(chain, 'twocalls', 0).fuelUsed - run(chain, 'onecall', 0).fuelUsed, 5n + BigInt(HOST_CALL_FUEL));
});

test('N lookups cost N row charges (and their keys) more than N calls that visit no row', ({ chain }) => {
  for (const n of [1, 10, 250]) {
    const rows = run(chain, 'getloop', n).fuelUsed - run(chain, 'getloop', 0).fuelUsed;
    const calls = run(chain, 'callloop', n).fuelUsed - run(chain, 'callloop', 0).fuelUsed;
    assert.is(rows - calls, BigInt(n) * (BigInt(ROW_FUEL) + bytesFuel(8)), `${n} lookups`);
  }
});

test('a lookup pays for the bytes of the row it reads, a write for the bytes it stores', ({ chain }) => {
  const put = (bytes: number) => run(chain, 'row', bytes + 1).fuelUsed;
  const get = () => run(chain, 'row', 0).fuelUsed;
  const putNone = put(0);
  const getNone = get();
  assert.is(put(4096) - putNone, bytesFuel(8 + 4096) - bytesFuel(8));
  assert.is(get() - getNone, bytesFuel(8 + 4096) - bytesFuel(8));
});

test('a host charge past the budget ends the run with WASM_FUEL_EXHAUSTED at that call', ({ chain }) => {
  const needed = run(chain, 'copier', MIB).fuelUsed;
  assert.is(run(chain, 'copier', MIB, needed).error, undefined, 'the exact budget is enough');
  const short = run(chain, 'copier', MIB, needed - 1n);
  assert.is(short.errorCode, 'WASM_FUEL_EXHAUSTED');
  assert.match(short.error!, /fuel exhausted/);
  // The charge of the last call crossed zero, and all of it counts as used.
  assert.is(short.fuelUsed, needed);
});

test('a loop of host calls runs out of a small budget, at the same point every time', ({ chain }) => {
  const runs = [run(chain, 'getloop', 1_000_000, 100_000n), run(chain, 'getloop', 1_000_000, 100_000n)];
  for (const r of runs) assert.is(r.errorCode, 'WASM_FUEL_EXHAUSTED');
  assert.is(runs[1]!.fuelUsed, runs[0]!.fuelUsed);
  assert.ok(runs[0]!.fuelUsed > 100_000n);
});

test('identical runs use identical fuel, on the same engine and on a fresh one', async ({ chain }) => {
  const other = TestChain.open();
  try {
    await deployAll(other);
    for (const [service, n] of [['getloop', 100], ['copier', MIB], ['callloop', 7]] as const) {
      const fuel = [run(chain, service, n), run(chain, service, n), run(other, service, n)].map((r) => r.fuelUsed);
      assert.equal(fuel, [fuel[0], fuel[0], fuel[0]], service);
    }
  } finally {
    await other.close();
  }
});

test.run();
