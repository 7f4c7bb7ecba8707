// Admission moves a module's line table (docs/host-abi.md §10.2) with the code it meters: an entry
// at an instruction still points at that instruction in the metered module; a table that does not
// decode, or that comes before the code, is dropped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeLineTable, encodeLineTable, LINE_TABLE_SECTION, type LineTable } from '../../../../host-api/abi/line-table.js';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { binaryModule, leb, name, vec, WebAssemblyJs } from './admission-helpers.js';

const DIV_TYPE = [0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f];
/** local.get 0, local.get 1, i32.div_s: the division is the last byte. */
const DIVISION = [0x20, 0x00, 0x20, 0x01, 0x6d];

/** A module of two functions dividing their arguments (the second after a loop), with `custom` sections before or after the code. */
function divisionModule(table: (bytes: Uint8Array) => number[], where: 'before' | 'after'): Uint8Array {
  const bodies = [[0x00, ...DIVISION, 0x0b], [0x00, 0x03, 0x40, 0x0b, ...DIVISION, 0x0b]];
  const code: [number, number[]] = [10, vec(...bodies.map((b) => [...leb(b.length), ...b]))];
  const head: [number, number[]][] = [[1, vec(DIV_TYPE)], [3, vec([0x00], [0x00])]];
  const plain = binaryModule(...head, code);
  const custom: [number, number[]] = [0, [...name(LINE_TABLE_SECTION), ...table(plain)]];
  return where === 'after' ? binaryModule(...head, code, custom) : binaryModule(...head, custom, code);
}

/** Offsets of the i32.div_s bytes of `bytes`' division sequences. */
function divisions(bytes: Uint8Array): number[] {
  const found: number[] = [];
  for (let i = 0; i + DIVISION.length <= bytes.length; i++) {
    if (DIVISION.every((b, j) => bytes[i + j] === b)) found.push(i + DIVISION.length - 1);
  }
  return found;
}

function tableOf(bytes: Uint8Array): LineTable | undefined {
  const [section] = WebAssemblyJs.Module.customSections(new WebAssemblyJs.Module(bytes), LINE_TABLE_SECTION);
  return section && decodeLineTable(new Uint8Array(section));
}

test('an entry at an instruction points at the same instruction in the metered code', () => {
  const lines = (plain: Uint8Array): number[] => {
    const [first, second] = divisions(plain);
    return [...encodeLineTable({
      files: ['a.ts'],
      entries: [{ offset: first!, file: 0, line: 3 }, { offset: first! + 1, file: 0, line: 4 }, { offset: second!, file: 0, line: 9 }],
      functions: [{ file: 0, firstLine: 1, lastLine: 12, name: 'divide' }],
    })];
  };
  const original = divisionModule(lines, 'after');
  const metered = admitModule(original).bytes;
  const moved = tableOf(metered)!;
  const [first, second] = divisions(metered);
  assert.equal(moved.entries.map((e) => e.offset), [first, first! + 1, second]);
  assert.equal(moved.entries.map((e) => e.line), [3, 4, 9]);
  assert.equal(moved.functions, tableOf(original)!.functions);
  assert.ok(second! - first! > divisions(original)[1]! - divisions(original)[0]!, 'metering put code between them');
});

test('a table that does not decode, or one before the code, is dropped; the module is admitted', () => {
  assert.is(tableOf(admitModule(divisionModule(() => [1, 2, 3], 'after')).bytes), undefined);
  const table = () => [...encodeLineTable({ files: ['a.ts'], entries: [{ offset: 40, file: 0, line: 1 }], functions: [] })];
  assert.is(tableOf(admitModule(divisionModule(table, 'before')).bytes), undefined);
  assert.ok(tableOf(divisionModule(table, 'before')), 'the original has it');
});

test.run();
