// The tsibase.lines section (docs/host-abi.md §10.2): its encoding both ways, the lookup of a
// byte offset, and refusals of bytes that are not a table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeLineTable, encodeLineTable, sourceLineAt, type LineTable } from '../../../../host-api/abi/line-table.js';
import { TsibaseError } from '../../../../host-api/errors.js';

const TABLE: LineTable = {
  files: ['assembly/index.ts', '~lib/rt/stub.ts', 'só.ts'],
  entries: [
    { offset: 100, file: 0, line: 3 },
    { offset: 140, file: 0, line: 2 },
    { offset: 150, file: 1, line: 1200 },
    { offset: 70_000, file: 2, line: 1 },
  ],
  functions: [
    { file: 0, firstLine: 1, lastLine: 9, name: 'Shop#buy' },
    { file: 0, firstLine: 2, lastLine: 2, name: 'Shop#buy~anonymous|0' },
    { file: 1, firstLine: 1000, lastLine: 1300, name: 'memcpy' },
  ],
};

test('a table decodes to what was encoded', () => {
  assert.equal(decodeLineTable(encodeLineTable(TABLE)), TABLE);
  assert.equal(decodeLineTable(encodeLineTable({ files: [], entries: [], functions: [] })), { files: [], entries: [], functions: [] });
});

test('an offset takes the entry at or before it, and the innermost function holding its line', () => {
  assert.is(sourceLineAt(TABLE, 99), undefined);
  assert.equal(sourceLineAt(TABLE, 100), { file: 'assembly/index.ts', line: 3, function: 'Shop#buy' });
  assert.equal(sourceLineAt(TABLE, 139), { file: 'assembly/index.ts', line: 3, function: 'Shop#buy' });
  assert.equal(sourceLineAt(TABLE, 145), { file: 'assembly/index.ts', line: 2, function: 'Shop#buy~anonymous|0' });
  assert.equal(sourceLineAt(TABLE, 69_999), { file: '~lib/rt/stub.ts', line: 1200, function: 'memcpy' });
  assert.equal(sourceLineAt(TABLE, 1 << 30), { file: 'só.ts', line: 1 }, 'no function holds it');
});

test('bytes that are not a table are LINE_TABLE_MALFORMED, naming what is wrong', () => {
  const bytes = encodeLineTable(TABLE);
  const refusal = (b: Uint8Array) => {
    try {
      decodeLineTable(b);
    } catch (error) {
      assert.instance(error, TsibaseError);
      assert.is((error as TsibaseError).code, 'LINE_TABLE_MALFORMED');
      return (error as TsibaseError).message;
    }
    assert.unreachable('decoded');
    return '';
  };
  assert.match(refusal(bytes.subarray(0, bytes.length - 1)), 'function name 2 runs past its end');
  assert.match(refusal(Uint8Array.of(1)), 'it ends inside a number');
  assert.match(refusal(Uint8Array.of(...bytes, 0)), 'bytes follow the last function');
  const one = (entries: LineTable['entries'], functions: LineTable['functions'] = []) => encodeLineTable({ files: ['a'], entries, functions });
  assert.match(refusal(one([{ offset: 1, file: 2, line: 1 }])), 'entry 0 names file 2 of 1');
  assert.match(refusal(one([{ offset: 1, file: 0, line: 0 }])), 'entry 0 has line 0');
  assert.match(refusal(one([], [{ file: 1, firstLine: 1, lastLine: 1, name: 'f' }])), 'function 0 names file 1 of 1');
  assert.match(refusal(Uint8Array.of(1, 1, 0xff, 0)), 'file name 0 is not UTF-8');
  assert.match(refusal(Uint8Array.of(0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01)), 'longer than 5 bytes');
});

test.run();
