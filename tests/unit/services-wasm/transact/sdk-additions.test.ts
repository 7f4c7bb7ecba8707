// The SDK additions transact needs: sha256 in wasm (against node:crypto) and unpack's `invalid`
// message replacing the detailed fracpack one.
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { program, WasmAbort, type Program } from '../program.js';

let sdk: Program;

test.before(async () => {
  sdk = await program('transact-sdk-additions', `
export function hash(): void { output = sdk.sha256(input).bytes; }
export function unpackString(): void { output = sdk.pack<string>(sdk.unpack<string>(input, true, "not a string")); }
`);
});

const expected = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

test('sha256 matches node:crypto across block and padding boundaries', () => {
  for (let length = 0; length <= 200; length++) {
    const data = randomBytes(length);
    assert.equal(sdk.run('hash', data), expected(data), `length ${length}`);
  }
  const large = randomBytes(100_003);
  assert.equal(sdk.run('hash', large), expected(large));
});

test('unpack with an invalid message aborts with exactly that message on bad data', () => {
  const good = new Uint8Array([2, 0, 0, 0, 0x68, 0x69]);
  assert.equal(sdk.run('unpackString', good), good);
  for (const bad of [new Uint8Array([9, 0, 0, 0, 0x68]), new Uint8Array([1, 0, 0, 0, 0xff]), new Uint8Array([0, 0, 0, 0, 1])]) {
    assert.throws(() => sdk.run('unpackString', bad), (err: Error) => err instanceof WasmAbort && err.message === 'not a string');
  }
});

test.run();
