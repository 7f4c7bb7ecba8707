// docs/host-abi.md §7: a module's start function (the WebAssembly start section) runs before its
// instance belongs to a context and may not call host functions. What it leaves is the module's
// alone, so a reused instance, which does not run it again, starts as a new one does on every node.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName } from '../../../../host-api/index.js';
import { DbId } from '../../../../host-api/abi/databases.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { accountPrefix } from '../../../lib/probe.js';
import { wat } from './admission-helpers.js';

const test = suite<{ chain: TestChain }>('the start function');

/** A service whose start function runs `start`, with its own 8-byte key prefix at address 0; `called` returns the word at 64. */
function service(account: string, start: string): Promise<Uint8Array> {
  const prefix = [...accountPrefix(accountNumberFromName(account))].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
  return wat(`(module
    (import "env" "kvPut" (func $kvPut (param i32 i32 i32 i32 i32)))
    (import "env" "setRetval" (func $setRetval (param i32 i32)))
    (memory (export "memory") 1)
    (data (i32.const 0) "${prefix}")
    (start $init)
    (func $init ${start})
    (func (export "called") (param $service i64) (param $sender i64)
      (call $setRetval (i32.const 64) (i32.const 4))))`);
}

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  // Stores a row under its own prefix: the write a reused instance would skip.
  ctx.chain.deploy('startput', await service('startput', '(call $kvPut (i32.const 0) (i32.const 0) (i32.const 8) (i32.const 0) (i32.const 8))'));
  ctx.chain.deploy('startpure', await service('startpure', '(i32.store (i32.const 64) (i32.const 0x01020304))'));
});
test.after(async ({ chain }) => chain.close());

const run = (chain: TestChain, account: string) => chain.run({ sender: 0n, service: account, method: 0n, rawData: '' });

test('a start function that calls a host import fails the action with HOST_ACCESS_DENIED, every time, and writes nothing', ({ chain }) => {
  for (const attempt of [1, 2]) {
    const result = run(chain, 'startput');
    assert.is(result.errorCode, 'HOST_ACCESS_DENIED', `attempt ${attempt}`);
    assert.match(result.error!, /start function called a host import/);
  }
  assert.is(chain.store.get(DbId.service, accountPrefix(accountNumberFromName('startput'))), undefined);
});

test('a start function that calls no host import runs for a new instance, and a reused one starts from what it left', ({ chain }) => {
  const retvals = [1, 2, 3].map(() => {
    const result = run(chain, 'startpure');
    assert.is(result.error, undefined);
    return [...result.retval];
  });
  assert.equal(retvals, [[4, 3, 2, 1], [4, 3, 2, 1], [4, 3, 2, 1]]);
});

test.run();
