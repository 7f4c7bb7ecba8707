// setcode writes the native code tables the host runs services from: code rows with flags and
// hash, code stored once per hash with a reference count, and the sender rules.
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { codeByHashKey, codeKey } from '../../../../host-api/abi/keys.js';
import { accountNumberFromName, compileSchema } from '../../../../host-api/index.js';
import { CodeByHashRow, CodeRow } from '../../../../host-api/types/native.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { AdmissionError, admitModule } from '../../../../runtime/wasm/admission/index.js';
import { readServiceCode } from '../../../../runtime/wasm/service-code.js';
import { compiledService } from '../program.js';
import { loadServices, PRIVILEGED, type SystemService } from './system-services.js';

let chain: TestChain;
let setcode: SystemService;
let exampleCode: Uint8Array;
let otherCode: Uint8Array;

test.before(async () => {
  let authAny: SystemService;
  ({ setcode, 'auth-any': authAny } = await loadServices('setcode', 'auth-any'));
  exampleCode = (await compiledService('example')).binary;
  otherCode = authAny.binary;
  chain = TestChain.open();
  setcode.deploy(chain);
});

test.after(async () => {
  await chain.close();
});

const hashOf = (code: Uint8Array) => new Uint8Array(createHash('sha256').update(code).digest());

// The store may hand out Buffers; plain Uint8Arrays compare equal to the expected rows.
function nativeRow(key: Uint8Array): Uint8Array | undefined {
  const row = chain.store.get(DbId.native, key);
  return row && new Uint8Array(row);
}

function codeRow(account: string) {
  const row = nativeRow(codeKey(accountNumberFromName(account)));
  return row && CodeRow.unpack(row);
}

function storedCode(code: Uint8Array) {
  const row = nativeRow(codeByHashKey(hashOf(code)));
  return row && CodeByHashRow.unpack(row);
}

function setCode(sender: string, service: string, code: Uint8Array, vmType = 0, vmVersion = 0) {
  return setcode.run(chain, sender, 'setCode', { service, vmType, vmVersion, code });
}

/** example::increment, which only works when example's code runs. */
function increment(service: string) {
  const rawData = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'n', by: 1n });
  return chain.run({ sender: 'alice', service, method: 'increment', rawData });
}

test('setCode deploys a service: the host reads the rows and runs its actions', () => {
  assert.is(setCode('ex-one', 'ex-one', exampleCode).error, undefined);
  assert.equal(codeRow('ex-one'), { codeNum: accountNumberFromName('ex-one'), flags: 0n, codeHash: hashOf(exampleCode), vmType: 0, vmVersion: 0 });
  assert.equal(storedCode(exampleCode), { codeHash: hashOf(exampleCode), vmType: 0, vmVersion: 0, numRefs: 1, code: exampleCode });
  assert.is(readServiceCode(chain.store, accountNumberFromName('ex-one'))?.flags, 0n);
  assert.is(increment('ex-one').error, undefined);
});

test('the same code for a second account is stored once and counted twice; unchanged code changes nothing', () => {
  assert.is(setCode('ex-two', 'ex-two', exampleCode).error, undefined);
  assert.is(storedCode(exampleCode)?.numRefs, 2);
  assert.is(setCode('ex-two', 'ex-two', exampleCode).error, undefined);
  assert.is(storedCode(exampleCode)?.numRefs, 2);
  assert.is(increment('ex-two').error, undefined);
});

test('new code releases the old: counted down, removed with its last reference', () => {
  assert.is(setCode('ex-two', 'ex-two', otherCode).error, undefined);
  assert.is(storedCode(exampleCode)?.numRefs, 1);
  assert.is(storedCode(otherCode)?.numRefs, 1);
  assert.equal(codeRow('ex-two')?.codeHash, hashOf(otherCode));
  assert.is(setCode('ex-one', 'ex-one', otherCode).error, undefined);
  assert.is(storedCode(exampleCode), undefined);
  assert.is(storedCode(otherCode)?.numRefs, 2);
});

test('empty code removes the account\'s code (and its row when it has no flags)', () => {
  assert.is(setCode('ex-one', 'ex-one', new Uint8Array(0)).error, undefined);
  assert.is(codeRow('ex-one'), undefined);
  assert.is(storedCode(otherCode)?.numRefs, 1);
  assert.match(increment('ex-one').error ?? '', 'ex-one');
});

test('setCode: the sender must be the service, vmType and vmVersion 0', () => {
  assert.match(setCode('alice', 'ex-three', exampleCode).error ?? '', 'sender must match service account');
  assert.match(setCode('ex-three', 'ex-three', exampleCode, 1, 0).error ?? '', 'unsupported type or version');
  assert.match(setCode('ex-three', 'ex-three', exampleCode, 0, 1).error ?? '', 'unsupported type or version');
  assert.is(codeRow('ex-three'), undefined);
});

test('setFlags: only setcode may set flags; flags and code are kept apart', () => {
  assert.match(setcode.run(chain, 'ex-two', 'setFlags', { service: 'ex-two', flags: PRIVILEGED }).error ?? '', 'only setcode may set flags');
  assert.is(setcode.run(chain, 'setcode', 'setFlags', { service: 'ex-two', flags: PRIVILEGED }).error, undefined);
  assert.equal(codeRow('ex-two'), { codeNum: accountNumberFromName('ex-two'), flags: PRIVILEGED, codeHash: hashOf(otherCode), vmType: 0, vmVersion: 0 });
  assert.is(readServiceCode(chain.store, accountNumberFromName('ex-two'))?.flags, PRIVILEGED);
  assert.is(setCode('ex-two', 'ex-two', exampleCode).error, undefined);
  assert.is(codeRow('ex-two')?.flags, PRIVILEGED, 'new code keeps the flags');
});

test('setFlags on an account without code keeps a row for the flags until they are cleared', () => {
  assert.is(setcode.run(chain, 'setcode', 'setFlags', { service: 'ex-four', flags: 2n }).error, undefined);
  assert.equal(codeRow('ex-four'), { codeNum: accountNumberFromName('ex-four'), flags: 2n, codeHash: new Uint8Array(32), vmType: 0, vmVersion: 0 });
  assert.is(readServiceCode(chain.store, accountNumberFromName('ex-four')), undefined);
  assert.is(setcode.run(chain, 'setcode', 'setFlags', { service: 'ex-four', flags: 0n }).error, undefined);
  assert.is(codeRow('ex-four'), undefined);
});

/** A module of `size` bytes: an empty one carrying random bytes in a custom section (code admission accepts). */
function paddedModule(size: number): Uint8Array {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const name = [3, 0x70, 0x61, 0x64]; // "pad"
  const leb = (n: number) => { const out: number[] = []; do { out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0)); n >>>= 7; } while (n > 0); return out; };
  let payload = size - header.length - 1 - name.length;
  while (header.length + 1 + leb(name.length + payload).length + name.length + payload > size) payload--;
  return Uint8Array.from([...header, 0, ...leb(name.length + payload), ...name, ...randomBytes(payload)]);
}

/** Admission's message refusing `code`. */
function refusalOf(code: Uint8Array): string {
  try {
    admitModule(code);
  } catch (err) {
    if (err instanceof AdmissionError) return err.message;
    throw err;
  }
  return assert.unreachable('admitted') as never;
}

test('a module admission refuses aborts setCode with the admission message; nothing is stored', () => {
  const notWasm = new Uint8Array(randomBytes(64));
  notWasm[0] = 0xff;
  const admission = refusalOf(notWasm);
  assert.match(admission, 'bad magic number');
  assert.is(setCode('ex-bad', 'ex-bad', notWasm).error, `service 'setcode' aborted with message: ${admission}`);
  assert.is(codeRow('ex-bad'), undefined);
  assert.is(storedCode(notWasm), undefined);
});

test('a megabyte of code is hashed and stored within the default fuel', () => {
  const code = paddedModule(1 << 20);
  assert.is(code.length, 1 << 20);
  const result = setCode('ex-big', 'ex-big', code);
  assert.is(result.error, undefined);
  assert.equal(codeRow('ex-big')?.codeHash, hashOf(code));
  assert.equal(storedCode(code)?.code, code);
});

test('a failed setCode leaves the tables as they were', () => {
  const before = storedCode(exampleCode);
  assert.ok(setCode('alice', 'ex-two', otherCode).error);
  assert.equal(storedCode(exampleCode), before);
});

test.run();
