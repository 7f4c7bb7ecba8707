// setcode's SHA-256 against node:crypto: every length around the block and padding boundaries,
// random data, and code-sized input.
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { program, type Program } from '../program.js';

let sha256: Program;

test.before(async () => {
  sha256 = await program('setcode-sha256', `
import { sha256 } from "../../../../services-wasm/setcode/sha256";
export function hash(): void { output = sha256(input); }
`);
});

const expected = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

test('the empty input and "abc" (FIPS 180-4 examples)', () => {
  assert.equal(Buffer.from(sha256.run('hash', new Uint8Array(0))).toString('hex'), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(Buffer.from(sha256.run('hash', new TextEncoder().encode('abc'))).toString('hex'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('every length from 0 to 200 bytes (one, two and more blocks, each padding case)', () => {
  for (let length = 0; length <= 200; length++) {
    const data = randomBytes(length);
    assert.equal(sha256.run('hash', data), expected(data), `length ${length}`);
  }
});

test('a megabyte of random data', () => {
  const data = randomBytes(1 << 20);
  assert.equal(sha256.run('hash', data), expected(data));
});

test.run();
