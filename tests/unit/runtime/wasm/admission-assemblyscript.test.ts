// AssemblyScript output, as services are built, must be admitted and compute the same
// results metered as unmetered, whatever runtime and optimisation level it was built with.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { loadAsc } from '../../../lib/asc.js';
import { assertRefused, instantiateMetered, instantiatePlain } from './admission-helpers.js';

const SOURCE = `
@external("env", "abortMessage") declare function abortMessage(ptr: usize, len: u32): void;
@external("env", "writeConsole") declare function writeConsole(ptr: usize, len: u32): void;
@external("env", "setRetval") declare function setRetval(ptr: usize, len: u32): void;

export function serviceAbort(message: string | null, file: string | null, line: u32, column: u32): void {
  const text = String.UTF8.encode(message ? message : "abort");
  abortMessage(changetype<usize>(text), text.byteLength);
  unreachable();
}

class Account {
  constructor(public name: string, public balance: i64) {}
}

export function called(receiver: u64, sender: u64): void {
  const greeting = String.UTF8.encode("hello from " + receiver.toString() + " to " + sender.toString());
  writeConsole(changetype<usize>(greeting), greeting.byteLength);
  setRetval(changetype<usize>(greeting), greeting.byteLength);
}

export function ledger(count: i32): i64 {
  const accounts = new Array<Account>();
  const byName = new Map<string, i32>();
  for (let i = 0; i < count; i++) {
    accounts.push(new Account("acct" + i.toString(), <i64>i * 1000));
    byName.set("acct" + i.toString(), i);
  }
  let total: i64 = 0;
  for (let i = 0; i < count; i += 3) total += accounts[byName.get("acct" + i.toString())].balance;
  return total;
}

export function primes(limit: i32): i32 {
  const sieve = new Uint8Array(limit + 1);
  let count = 0;
  for (let i = 2; i <= limit; i++) {
    if (sieve[i]) continue;
    count++;
    for (let j = i * i; j <= limit; j += i) sieve[j] = 1;
  }
  return count;
}

export function checksum(n: i32): u32 {
  const data = new Uint8Array(n);
  data.fill(7);
  const copy = data.slice(1);
  let h: u32 = 2166136261;
  for (let i = 0; i < copy.length; i++) h = (h ^ copy[i]) * 16777619;
  return h ^ <u32>(<f64>n * 1.5);
}

export function fail(): void {
  throw new Error("boom");
}
`;

const BUILDS: Record<string, Record<string, unknown>> = {
  'stub runtime, -O3': { optimizeLevel: 3, shrinkLevel: 1, runtime: 'stub' },
  'minimal runtime, -O2': { optimizeLevel: 2, runtime: 'minimal' },
  'incremental runtime, debug': { optimizeLevel: 0, debug: true, runtime: 'incremental' },
  'incremental runtime, -Oz, exported runtime': { optimizeLevel: 2, shrinkLevel: 2, runtime: 'incremental', exportRuntime: true },
};

const asc = await loadAsc();

async function build(options: Record<string, unknown>): Promise<Uint8Array> {
  const result = await asc.compileString(SOURCE, options);
  if (result.error || !result.binary) throw new Error(`asc failed: ${result.stderr.toString()}`);
  return result.binary;
}

interface Host {
  readonly env: Record<string, unknown>;
  readonly console: string[];
  memory?: { buffer: ArrayBuffer };
}

function host(): Host {
  const h: Host = {
    console: [],
    env: {
      writeConsole: (ptr: number, len: number) => h.console.push(Buffer.from(h.memory!.buffer, ptr, len).toString('utf8')),
      setRetval: () => {},
      abortMessage: (ptr: number, len: number) => {
        throw new Error(`aborted: ${Buffer.from(h.memory!.buffer, ptr, len).toString('utf8')}`);
      },
    },
  };
  return h;
}

function run(exports: Record<string, (...args: unknown[]) => unknown>, h: Host): unknown[] {
  h.memory = exports.memory as unknown as { buffer: ArrayBuffer };
  exports.called!(7n, 9n);
  let failure = '';
  try {
    exports.fail!();
  } catch (error) {
    failure = (error as Error).message;
  }
  return [exports.ledger!(200), exports.primes!(20000), exports.checksum!(5000), failure, ...h.console];
}

for (const [label, options] of Object.entries(BUILDS)) {
  test(`AssemblyScript (${label}) is admitted and computes the same results metered`, async () => {
    const bytes = await build({ ...options, use: ['abort=input/serviceAbort'] });
    const admitted = admitModule(bytes);
    assert.ok(admitted.imports.every((name) => ['abortMessage', 'writeConsole', 'setRetval'].includes(name)), admitted.imports.join());
    const plainHost = host();
    const plain = run(instantiatePlain(bytes, plainHost.env), plainHost);
    const meteredHost = host();
    const metered = instantiateMetered(bytes, { fuel: 1n << 40n }, meteredHost.env);
    assert.equal(run(metered.exports, meteredHost), plain);
    assert.equal(plain.slice(3), ['aborted: boom', 'hello from 7 to 9']);
    assert.ok(metered.meter.consumedFuel() > 100_000n);
  });
}

test('AssemblyScript SIMD code is admitted', async () => {
  const simd = await asc.compileString(
    'export function dot(a: f32, b: f32): f32 { const v = f32x4.splat(a); const w = f32x4.mul(v, f32x4.splat(b)); return f32x4.extract_lane(w, 0) + f32x4.extract_lane(w, 3); }',
    { optimizeLevel: 3, runtime: 'stub', enable: ['simd'], use: ['abort='] },
  );
  const { exports } = instantiateMetered(simd.binary!, { fuel: 1000n });
  assert.is(exports.dot!(2, 3), 12);
});

test("AssemblyScript's default abort import must be mapped to the host ABI", async () => {
  assertRefused(await build({ runtime: 'stub' }), 'WASM_FORBIDDEN_IMPORT', /env\.abort is not part of the host ABI/);
});

test.run();
