import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AdmissionError } from '../../../../runtime/wasm/admission/index.js';
import { ByteReader } from '../../../../runtime/wasm/admission/binary/byte-reader.js';
import { ByteWriter } from '../../../../runtime/wasm/admission/binary/byte-writer.js';

const reader = (...bytes: number[]) => new ByteReader(Uint8Array.from(bytes));

function malformed(read: () => unknown): void {
  try {
    read();
  } catch (error) {
    assert.instance(error, AdmissionError);
    assert.is((error as AdmissionError).code, 'WASM_MALFORMED');
    return;
  }
  assert.unreachable('expected WASM_MALFORMED');
}

test('u32 LEB128 decodes minimal and padded encodings', () => {
  assert.is(reader(0x00).u32(), 0);
  assert.is(reader(0xe5, 0x8e, 0x26).u32(), 624485);
  assert.is(reader(0x80, 0x80, 0x80, 0x00).u32(), 0);
  assert.is(reader(0xff, 0xff, 0xff, 0xff, 0x0f).u32(), 0xffffffff);
});

test('u32 LEB128 refuses overlong, oversized and truncated encodings', () => {
  malformed(() => reader(0xff, 0xff, 0xff, 0xff, 0x1f).u32());
  malformed(() => reader(0x80, 0x80, 0x80, 0x80, 0x80, 0x00).u32());
  malformed(() => reader(0x80, 0x80).u32());
});

test('signed LEB128 of 32 and 33 bits', () => {
  assert.is(reader(0x7f).signed(32), -1);
  assert.is(reader(0x40).signed(33), -64);
  assert.is(reader(0xc0, 0xbb, 0x78).signed(32), -123456);
  assert.is(reader(0xff, 0xff, 0xff, 0xff, 0x07).signed(32), 0x7fffffff);
  assert.is(reader(0x80, 0x80, 0x80, 0x80, 0x78).signed(32), -0x80000000);
  assert.is(reader(0xff, 0xff, 0xff, 0xff, 0x0f).signed(33), 0xffffffff);
  malformed(() => reader(0xff, 0xff, 0xff, 0xff, 0x0f).signed(32));
  malformed(() => reader(0x80, 0x80, 0x80, 0x80, 0x70).signed(32));
  malformed(() => reader(0xff).signed(32));
});

test('signed LEB128 of 64 bits is stepped over with its unused bits checked', () => {
  const ok = reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f);
  ok.skipS64();
  assert.ok(ok.atEnd());
  malformed(() => reader(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01).skipS64());
  malformed(() => reader(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00).skipS64());
});

test('names must be valid UTF-8 and fit', () => {
  assert.is(reader(0x03, 0x61, 0xc3, 0xa9).name(), 'aé');
  malformed(() => reader(0x02, 0xc3, 0x28).name());
  malformed(() => reader(0x05, 0x61).name());
});

test('the writer round-trips LEB128 through the reader', () => {
  const values = [0, 1, 63, 64, 127, 128, 8191, 0x7fffffff, 0xffffffff];
  const signed = [0, -1, 63, -64, 64, -65, 0x7fffffff, -0x80000000, 2 ** 40, -(2 ** 40)];
  const w = new ByteWriter(1);
  for (const v of values) w.u32(v);
  for (const v of signed) w.signed(v);
  const r = new ByteReader(w.view());
  for (const v of values) assert.is(r.u32(), v);
  for (const v of signed.slice(0, 8)) assert.is(r.signed(32), v);
  const big = r.offset;
  r.skipS64();
  r.skipS64();
  assert.is(r.offset - big, 12);
  assert.ok(r.atEnd());
});

test.run();
