// docs/host-abi.md §6-7: call with the sender rules, re-entrancy into the same instance, the 32-service
// limit, the current action, return values, abort unwinding and rollback of a failed transaction.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { Action, accountNumberFromName, bytesToHex } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Probe, accountPrefix, concat, field, lookup, packedAction, probeWasm, u32 } from '../../../lib/probe.js';

const test = suite<{ chain: TestChain }>('host call');
const PROBE = accountNumberFromName('probe');

test.before(async (ctx) => {
  const wasm = await probeWasm();
  ctx.chain = TestChain.open();
  ctx.chain.deploy('probe', wasm);
  ctx.chain.deploy('other', wasm);
  ctx.chain.deploy('privprobe', wasm, 1n);
  for (let i = 0; i < 33; i++) ctx.chain.deploy(`chain${i}`, wasm);
});
test.after(async (ctx) => ctx.chain.close());

test('getCurrentAction returns the packed action; setRetval/getResult carry bytes back', ({ chain }) => {
  const action = { sender: 'alice', service: 'probe', method: Probe.currentAction, rawData: 'ABCD' };
  assert.is(bytesToHex(chain.run(action).retval), bytesToHex(Action.pack(action)));
  assert.is(bytesToHex(chain.run({ ...action, method: Probe.setRetval, rawData: field(Uint8Array.of(9, 8, 7)) }).retval), '090807');
});

test('start(thisService) runs first; called receives the sender', ({ chain }) => {
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getBigUint64(0, true);
  assert.is(view(chain.run({ sender: 'alice', service: 'probe', method: Probe.thisService, rawData: '' }).retval), PROBE);
  assert.is(view(chain.run({ sender: 'alice', service: 'probe', method: Probe.sender, rawData: '' }).retval), accountNumberFromName('alice'));
});

test('call: a service may send as itself; the callee sees it as sender and returns a value', ({ chain }) => {
  const inner = packedAction('probe', 'other', Probe.sender, new Uint8Array());
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.call, rawData: field(inner) });
  assert.is(r.error, undefined);
  assert.is(new DataView(r.retval.buffer, r.retval.byteOffset).getBigUint64(0, true), PROBE);
  const nested = r.trace.innerTraces.find((t) => 'ActionTrace' in t.inner);
  assert.ok(nested, 'the callee has its own trace node');
});

test('call: sending as another account needs a privileged caller', ({ chain }) => {
  const asAlice = packedAction('alice', 'other', Probe.sender, new Uint8Array());
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.call, rawData: field(asAlice) });
  assert.is(r.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(r.error!, /service 'probe' may not send an action as 'alice'/);
  assert.is(chain.run({ sender: 'alice', service: 'privprobe', method: Probe.call, rawData: field(asAlice) }).error, undefined);
});

test('call: a malformed action and a service without code fail with clear errors', ({ chain }) => {
  const bad = chain.run({ sender: 'alice', service: 'probe', method: Probe.call, rawData: field(Uint8Array.of(1, 2, 3)) });
  assert.is(bad.errorCode, 'HOST_BAD_ARGUMENT');
  assert.match(bad.error!, /malformed action/);
  const missing = chain.run({ sender: 'alice', service: 'probe', method: Probe.call, rawData: field(packedAction('probe', 'nobody', 1n, new Uint8Array())) });
  assert.is(missing.errorCode, 'SERVICE_NOT_FOUND');
});

test('re-entrancy: a service already on the stack is re-entered in the same instance', ({ chain }) => {
  // probe(countEntries, nested: other(call -> probe(countEntries))) : the inner entry is the 2nd.
  const innermost = packedAction('other', 'probe', Probe.countEntries, new Uint8Array());
  const middle = packedAction('probe', 'other', Probe.call, field(innermost));
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.countEntries, rawData: field(middle) });
  assert.is(r.error, undefined);
  assert.is(new DataView(r.retval.buffer, r.retval.byteOffset).getUint32(0, true), 2);
  const fresh = chain.run({ sender: 'alice', service: 'probe', method: Probe.countEntries, rawData: '' });
  assert.is(new DataView(fresh.retval.buffer, fresh.retval.byteOffset).getUint32(0, true), 1, 'memory starts fresh in each context');
});

test('at most 32 distinct services per execution context', ({ chain }) => {
  // chain0 calls chain1 ... calls chainN; each sends as itself.
  const nest = (depth: number): Uint8Array => {
    let action = packedAction(`chain${depth - 1}`, `chain${depth}`, Probe.thisService, new Uint8Array());
    for (let i = depth - 1; i >= 1; i--) action = packedAction(`chain${i - 1}`, `chain${i}`, Probe.call, field(action));
    return action;
  };
  const ok = chain.run({ sender: 'alice', service: 'chain0', method: Probe.call, rawData: field(nest(31)) });
  assert.is(ok.error, undefined, '32 services');
  const over = chain.run({ sender: 'alice', service: 'chain0', method: Probe.call, rawData: field(nest(32)) });
  assert.is(over.errorCode, 'HOST_LIMIT');
  assert.match(over.error!, /more than 32 services/);
});

test('abortMessage unwinds every frame with its message; the trace records it', ({ chain }) => {
  const inner = packedAction('probe', 'other', Probe.abort, field('inner failure'));
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.call, rawData: field(inner) });
  assert.is(r.errorCode, 'SERVICE_ABORTED');
  assert.is(r.error, "service 'other' aborted with message: inner failure");
  assert.is(r.trace.error, r.error);
});

test('a failed transaction rolls back all its writes, including those of its callers', ({ chain }) => {
  const k = concat(accountPrefix(PROBE), Uint8Array.of(42));
  const failing = packedAction('probe', 'other', Probe.abort, field('no'));
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.putThenCall, rawData: concat(field(k), field(failing)) });
  assert.is(r.errorCode, 'SERVICE_ABORTED');
  assert.is(lookup(chain.run({ sender: 'alice', service: 'probe', method: Probe.kvGet, rawData: concat(u32(DbId.service), field(k)) }).retval), undefined);
  const succeeding = packedAction('probe', 'other', Probe.thisService, new Uint8Array());
  chain.run({ sender: 'alice', service: 'probe', method: Probe.putThenCall, rawData: concat(field(k), field(succeeding)) });
  assert.ok(lookup(chain.run({ sender: 'alice', service: 'probe', method: Probe.kvGet, rawData: concat(u32(DbId.service), field(k)) }).retval));
});

test('speculative runs execute fully and keep nothing', ({ chain }) => {
  const k = concat(accountPrefix(PROBE), Uint8Array.of(43));
  assert.is(chain.run({ sender: 'alice', service: 'probe', method: Probe.kvPut, rawData: concat(u32(DbId.service), field(k), field('s')) }, { mode: 'speculative' }).error, undefined);
  assert.is(lookup(chain.run({ sender: 'alice', service: 'probe', method: Probe.kvGet, rawData: concat(u32(DbId.service), field(k)) }).retval), undefined);
});

test('console output is collected into the trace, adjacent writes merged', ({ chain }) => {
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.writeConsole, rawData: field('hello') });
  assert.is(r.console, 'hello');
  assert.equal(r.trace.innerTraces, [{ inner: { ConsoleTrace: { console: 'hello' } } }]);
});

test.run();
