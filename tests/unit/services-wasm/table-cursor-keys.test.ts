// A table cursor reads each entry's whole key from the host's key buffer (docs/host-abi.md §2 getKey):
// keys that fit the SDK's scratch area come out in one call, longer ones in two. A service on
// the in-process test chain walks a string-keyed table whose keys run from well under to well
// over that size, forward and backward, and reports each key it read next to the one the row
// is stored under.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry, utf8 } from './program.js';
import { ServiceCodec, type ServiceSchema } from '../../../host-api/client/service-codec.js';

const ENTRY = 'tests/unit/services-wasm/programs/long-keys.ts';
const SOURCE = `
import * as sdk from "../../../../services-wasm/sdk/index";

@fracpack class Entry { constructor(public label: string = "") {} }
const entries = new sdk.Table<Entry, string>(1, (e: Entry): string => e.label);

@fracpack class Step { constructor(public label: string = "", public key: Array<u8> = [], public stored: Array<u8> = []) {} }

function bytes(b: Uint8Array): Array<u8> {
  const out = new Array<u8>(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b[i];
  return out;
}

function step<K>(c: sdk.Cursor<Entry, K>): Step {
  const row = c.row();
  return new Step(row.label, bytes(c.key), bytes(entries.primary.rowKey(row)));
}

@service("longkeys")
class LongKeys {
  @action add(labels: Array<string>): void {
    for (let i = 0; i < labels.length; i++) entries.put(new Entry(labels[i]));
  }
  @action forward(): Array<Step> {
    const out = new Array<Step>();
    for (const c = entries.primary.first(); c.valid; c.next()) out.push(step<string>(c));
    return out;
  }
  @action backward(): Array<Step> {
    const out = new Array<Step>();
    for (const c = entries.primary.last(); c.valid; c.prev()) out.push(step<string>(c));
    return out;
  }
}
`;

interface Step { label: string; key: number[]; stored: number[] }

// Lengths 1 to 110: around the 64-byte scratch area whatever the table's key prefix adds.
const LABELS = [1, ...Array.from({ length: 41 }, (_, i) => 40 + i), 100, 110]
  .map((length, i) => String.fromCharCode(97 + (i % 26)).repeat(length));
const SORTED = [...LABELS].sort((a, b) => Buffer.compare(utf8(a), utf8(b)));

let chain: TestChain;
let codec: ServiceCodec;

function walk(method: 'forward' | 'backward'): Step[] {
  const result = chain.run({ sender: 'longkeys', service: 'longkeys', method, rawData: codec.args(method, {}) }, { mode: 'rpc' });
  assert.is(result.error, undefined);
  return codec.result(method, result.retval) as Step[];
}

test.before(async () => {
  const compiled = await compiledEntry(ENTRY, { [ENTRY]: SOURCE });
  codec = new ServiceCodec(compiled.schema as ServiceSchema);
  chain = TestChain.open();
  chain.deploy('longkeys', compiled.binary);
  const add = chain.run({ sender: 'longkeys', service: 'longkeys', method: 'add', rawData: codec.args('add', { labels: LABELS }) });
  assert.is(add.error, undefined);
});

test.after(async () => {
  await chain?.close();
});

test('a forward walk reads every key whole, short and long, in key order', () => {
  const steps = walk('forward');
  assert.equal(steps.map((s) => s.label), SORTED);
  for (const s of steps) assert.equal(s.key, s.stored, `key of '${s.label}'`);
  const lengths = new Set(steps.map((s) => s.key.length));
  assert.ok(lengths.has(64) && lengths.has(65) && Math.max(...lengths) > 100, `key lengths ${[...lengths].join(', ')}`);
});

test('a backward walk reads the same keys in reverse', () => {
  const forward = walk('forward');
  const backward = walk('backward');
  assert.equal(backward.map((s) => s.label), [...SORTED].reverse());
  assert.equal(backward.map((s) => s.key), forward.map((s) => s.key).reverse());
});

test.run();
