// A trap in a built AssemblyScript service names its source file, line and function
// (docs/host-abi.md §10.2): the build's line table, moved by admission with the metered code,
// and the function's name from the module's name section.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeLineTable, LINE_TABLE_SECTION, type LineTable } from '../../../../host-api/abi/line-table.js';
import { compileSchema } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { compiledEntry, ROOT, WasmApi } from '../../services-wasm/program.js';

const SOURCE = 'tests/integration/cli/trace-shop.as.ts';
const Share = compileSchema({}).typeOf({ Object: { total: 'i32', people: 'i32' } });

const test = suite<{ chain: TestChain; binary: Uint8Array }>('trap locations');

test.before(async (ctx) => {
  ctx.binary = (await compiledEntry(SOURCE)).binary;
  ctx.chain = TestChain.open();
  ctx.chain.deploy('shop', ctx.binary);
});
test.after(async (ctx) => ctx.chain.close());

function lineTableOf(bytes: Uint8Array): LineTable {
  const module = new (WasmApi as unknown as { Module: new (b: Uint8Array) => object }).Module(bytes);
  const [section] = WasmApi.Module.customSections(module, LINE_TABLE_SECTION);
  return decodeLineTable(new Uint8Array(section!));
}

const lineOf = (text: string) => readFileSync(join(ROOT, SOURCE), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

test('the build keeps a line table of the service source and no source map URL', ({ binary }) => {
  const module = new (WasmApi as unknown as { Module: new (b: Uint8Array) => object }).Module(binary);
  assert.is(WasmApi.Module.customSections(module, 'sourceMappingURL').length, 0);
  assert.ok(lineTableOf(binary).files.includes(SOURCE));
});

test('a division by zero names the line of the division and the source function (inlined into the dispatch)', ({ chain }) => {
  const r = chain.run({ sender: 'alice', service: 'shop', method: 'share', rawData: Share.pack({ total: 10, people: 0 }) });
  assert.is(r.errorCode, 'SERVICE_TRAPPED');
  assert.match(r.error!, new RegExp(`^service 'shop' trapped: divide by zero at ${SOURCE.replace(/\./g, '\\.')}:${lineOf('return total / people;')} in Shop#share$`));
  assert.is(r.trace.error, r.error, 'the trace carries the same message');
  const again = chain.run({ sender: 'bob', service: 'shop', method: 'share', rawData: Share.pack({ total: 7, people: 0 }) });
  assert.is(again.error, r.error, 'the same trap gives the same message');
  const fine = chain.run({ sender: 'alice', service: 'shop', method: 'share', rawData: Share.pack({ total: 10, people: 2 }) });
  assert.is(fine.error, undefined);
});

test('admission moves the table with the code: the same lines in the same order, at offsets metering pushed on', ({ binary }) => {
  const original = lineTableOf(binary);
  const moved = lineTableOf(admitModule(binary).bytes);
  assert.equal(moved.files, original.files);
  assert.equal(moved.entries.map((e) => [e.file, e.line]), original.entries.map((e) => [e.file, e.line]));
  assert.ok(moved.entries.every((e, i) => i === 0 || e.offset >= moved.entries[i - 1]!.offset), 'offsets stay in order');
  assert.ok(moved.entries.every((e, i) => e.offset > original.entries[i]!.offset), 'metering adds imports and code before every line');
});

test.run();
