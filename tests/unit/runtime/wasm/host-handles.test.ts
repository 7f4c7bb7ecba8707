// docs/host-abi.md §12: the handle generation of the host ABI, through the handle-probe service
// (tests/services/handle-probe.as.ts) on a real LMDB store, with the bundle's db, x-db and
// events services: opening databases (directly when privileged, through db::open otherwise),
// prefix-relative reads, writes and lookups against a model, kvOpenAt and kvClose, the handle
// limit, handles passed across call and return, the run modes, and the renamed system imports.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId, type Mode } from '../../../../host-api/abi/databases.js';
import { HandleDbId, KvMode, MAX_HANDLES } from '../../../../host-api/abi/handle-databases.js';
import { coreSchema } from '../../../../host-api/types/index.js';
import { accountNumberFromName, methodNumberFromName } from '../../../../host-api/index.js';
import { admitModule } from '../../../../runtime/wasm/admission/index.js';
import { TestChain, type RunResult } from '../../../../runtime/testing/test-chain.js';
import { RUN_SCRIPT, Script, found, handleProbeWasm, outputs, u32Of } from '../../../lib/handle-probe.js';
import { accountPrefix, concat } from '../../../lib/probe.js';
import { compiledService } from '../../services-wasm/program.js';

const HPROBE = accountNumberFromName('hprobe');
const HPRIV = accountNumberFromName('hpriv');
const HPRIV2 = accountNumberFromName('hpriv2');
const OTHER = accountNumberFromName('hother');
const DB = accountNumberFromName('db');
const XDB = accountNumberFromName('x-db');
const EVENTS = accountNumberFromName('events');
const OPEN = methodNumberFromName('open');
const openArgs = coreSchema.typeOf({ Object: { db: 'u32', prefix: 'bytes', mode: 'u8' } });
const eventArgs = coreSchema.typeOf({ Object: { db: 'u8', type: 'MethodNumber', rawData: 'bytes' } });

const test = suite<{ chain: TestChain }>('host kv handles');

test.before(async (ctx) => {
  const wasm = await handleProbeWasm();
  ctx.chain = TestChain.open();
  ctx.chain.deploy('hprobe', wasm);
  ctx.chain.deploy('hother', wasm);
  ctx.chain.deploy('hpriv', wasm, 1n);
  ctx.chain.deploy('hpriv2', wasm, 1n);
  ctx.chain.deploy('hverify', wasm, 3n);
  for (const service of ['db', 'x-db', 'events']) ctx.chain.deploy(service, (await compiledService(service)).binary, 1n);
});
test.after(async (ctx) => ctx.chain.close());

function run(chain: TestChain, service: string, script: Script, mode: Mode = 'transaction'): RunResult {
  return chain.run({ sender: 'alice', service, method: RUN_SCRIPT, rawData: script.bytes() }, { mode });
}

function answers(r: RunResult): Uint8Array[] {
  assert.is(r.error, undefined, r.error);
  return outputs(r.retval);
}

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (s: string) => new TextEncoder().encode(s);

/** A script that opens `db` through the db (or x-db) service, as psibase's SDK does: the handle is register `reg`. */
function dbOpen(script: Script, db: number, prefix: Uint8Array, mode: number, via = DB): Script {
  return script.call(via, OPEN, openArgs.pack({ db, prefix, mode })).importHandles();
}

test('a module importing kv handles is admitted as the handle generation; its kv names act on handles', async () => {
  const admitted = admitModule(await handleProbeWasm());
  assert.is(admitted.abi, 'handle');
  assert.ok(admitted.imports.includes('kvOpen'));
  assert.is(admitModule((await compiledService('tokens')).binary).abi, 'db-id');
});

test('kvOpen needs a privileged service; others open through db::open', ({ chain }) => {
  const direct = run(chain, 'hprobe', new Script().open(HandleDbId.service, accountPrefix(HPROBE), KvMode.readWrite));
  assert.is(direct.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(direct.error!, /kvOpen: 'hprobe' is not privileged/);
  const viaDb = answers(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(HPROBE), KvMode.readWrite)
    .put(0, bytes(1), 'one').get(0, bytes(1))));
  assert.equal(viaDb.map((a) => a.length), [4, 4, 8], 'open\'s return value, the import count, the get');
  assert.equal([u32Of(viaDb[0]!), u32Of(viaDb[1]!)], [0, 1], 'the handle is index 0 of the one handle db exported');
  assert.equal(found(viaDb[2]!)?.value, text('one'));
  // The row is the service's own table row: its account, then the key.
  assert.equal(chain.store.get(DbId.service, concat(accountPrefix(HPROBE), bytes(1))), text('one'));
});

test('db::open: writes only under the own account, reads under the primary account, native writes privileged', ({ chain }) => {
  const foreign = run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(OTHER), KvMode.write));
  assert.is(foreign.errorCode, 'SERVICE_ABORTED');
  assert.match(foreign.error!, /hprobe may not write keys under hother/);
  const readForeign = run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(OTHER), KvMode.read));
  assert.match(readForeign.error!, /hprobe may not read keys under hother/);
  // The first 7 bytes (the primary account) are enough to read.
  assert.is(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(HPROBE).subarray(0, 7), KvMode.read)).error, undefined);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.native, bytes(), KvMode.readWrite)).error!, /hprobe may not write database 2/);
  assert.is(run(chain, 'hpriv', dbOpen(new Script(), HandleDbId.native, bytes(), KvMode.read)).error, undefined);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.blockLog, bytes(), KvMode.write)).error!, /may not write database 3/);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.subjective, accountPrefix(HPROBE), KvMode.read)).error!, /may not open database 64/);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(HPROBE), 0)).error!, /mode must be read/);
});

/** The lookups of a handle with prefix `prefix`, as a sorted map of its rows would answer them. */
class Model {
  private readonly rows = new Map<string, Uint8Array>();
  private readonly hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  put(key: Uint8Array, value: Uint8Array): void { this.rows.set(this.hex(key), value); }
  remove(key: Uint8Array): void { this.rows.delete(this.hex(key)); }
  private sorted(): string[] { return [...this.rows.keys()].sort(); }
  private matches(k: string, key: Uint8Array, match: number): boolean { return k.startsWith(this.hex(key.subarray(0, match))); }
  get(key: Uint8Array) { return this.rows.get(this.hex(key)); }
  greaterEqual(key: Uint8Array, match: number) { return this.sorted().find((k) => k >= this.hex(key) && this.matches(k, key, match)); }
  lessThan(key: Uint8Array, match: number) { return this.sorted().reverse().find((k) => k < this.hex(key) && this.matches(k, key, match)); }
  max(key: Uint8Array) { return this.sorted().reverse().find((k) => k.startsWith(this.hex(key))); }
}

test('reads, writes and lookups are relative to the handle prefix, as a sorted model answers them', ({ chain }) => {
  const prefix = concat(accountPrefix(HPRIV), bytes(0, 7));
  const keys = [bytes(), bytes(0x10), bytes(0x10, 0), bytes(0x10, 1), bytes(0x10, 0x10), bytes(0x10, 0x10, 0), bytes(0x11, 0x10, 2), bytes(0x11, 0x11), bytes(0x13, 0x11), bytes(0xff)];
  const model = new Model();
  const script = new Script().open(HandleDbId.service, prefix, KvMode.readWrite);
  keys.forEach((k, i) => { script.put(0, k, bytes(i)); model.put(k, bytes(i)); });
  for (const k of [keys[4]!, keys[6]!]) { script.remove(0, k); model.remove(k); }
  // A row just outside the prefix, which no lookup through the handle may find.
  chain.store.put(DbId.service, concat(accountPrefix(HPRIV), bytes(0, 8)), bytes(99));
  chain.store.commit();
  const probes = [bytes(), bytes(0x10), bytes(0x10, 0x05), bytes(0x10, 0x10), bytes(0x11), bytes(0x12, 0), bytes(0x20), bytes(0xff, 0)];
  const expected: (string | undefined)[] = [];
  for (const k of probes) {
    script.get(0, k); expected.push(model.get(k) && Buffer.from(k).toString('hex'));
    for (let match = 0; match <= k.length; match++) {
      script.greaterEqual(0, k, match); expected.push(model.greaterEqual(k, match));
      script.lessThan(0, k, match); expected.push(model.lessThan(k, match));
    }
    script.max(0, k); expected.push(model.max(k));
  }
  const got = answers(run(chain, 'hpriv', script)).map((a) => found(a));
  assert.is(got.length, expected.length);
  got.forEach((answer, i) => {
    const want = expected[i];
    if (want === undefined) return assert.is(answer, undefined, `lookup ${i} found ${answer && Buffer.from(answer.key).toString('hex')}`);
    const key = Buffer.from(want, 'hex');
    // A get answers no key; the ordered lookups answer the key without the handle's prefix.
    if (answer!.key.length > 0 || want === '') assert.equal(Buffer.from(answer!.key).toString('hex'), want, `lookup ${i}`);
    assert.equal(answer!.value, model.get(key), `lookup ${i}`);
  });
  assert.equal(chain.store.get(DbId.service, concat(prefix, bytes(0x10, 1))), bytes(3), 'stored under the full key');
});

test('kvOpenAt narrows the prefix and never widens the mode; modes are enforced', ({ chain }) => {
  const base = concat(accountPrefix(HPRIV), bytes(0, 9));
  const r = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, base, KvMode.readWrite)
    .openAt(0, bytes(5), KvMode.readWrite)
    .put(1, bytes(1), 'in five')
    .get(0, bytes(5, 1))
    .openAt(0, bytes(5), KvMode.read)
    .get(2, bytes(1))));
  assert.equal(found(r[0]!)?.value, text('in five'));
  assert.equal(found(r[1]!)?.value, text('in five'));
  const widen = run(chain, 'hpriv', new Script().open(HandleDbId.service, base, KvMode.read).openAt(0, bytes(5), KvMode.readWrite));
  assert.is(widen.errorCode, 'HOST_ACCESS_DENIED');
  assert.match(widen.error!, /kvOpenAt: mode 3 asks for more than handle 0 allows \(mode 1\)/);
  const readOnly = run(chain, 'hpriv', new Script().open(HandleDbId.service, base, KvMode.read).put(0, bytes(1), 'x'));
  assert.match(readOnly.error!, /kvPut: handle 0 .* is not open for writing/);
  const writeOnly = run(chain, 'hpriv', new Script().open(HandleDbId.service, base, KvMode.write).get(0, bytes(1)));
  assert.match(writeOnly.error!, /kvGet: handle 0 .* is not open for reading/);
  assert.match(run(chain, 'hpriv', new Script().open(HandleDbId.service, base, KvMode.read).greaterEqual(0, bytes(1), 2)).error!, /match length 2 exceeds the key length 1/);
  assert.match(run(chain, 'hpriv', new Script().open(HandleDbId.service, base, 4)).error!, /mode 4 is none of/);
  assert.match(run(chain, 'hpriv', new Script().open(HandleDbId.service, new Uint8Array(129), KvMode.read)).error!, /prefix of 129 bytes exceeds the key limit of 128/);
  const longKey = run(chain, 'hpriv', new Script().open(HandleDbId.service, base, KvMode.write).put(0, new Uint8Array(128 - base.length + 1), 'x'));
  assert.match(longKey.error!, /key of 129 bytes exceeds the limit of 128/, 'the limit counts the prefix');
});

test('kvClose frees the number for the next open; a closed or unknown handle aborts; at most 64', ({ chain }) => {
  const prefix = accountPrefix(HPRIV);
  const reuse = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.read).open(HandleDbId.service, prefix, KvMode.read)
    .close(0).open(HandleDbId.service, prefix, KvMode.read).handle(1).handle(2)));
  assert.equal(reuse.map(u32Of), [1, 0]);
  const closed = run(chain, 'hpriv', new Script().open(HandleDbId.service, prefix, KvMode.read).close(0).get(0, bytes(1)));
  assert.is(closed.errorCode, 'HOST_BAD_ARGUMENT');
  assert.match(closed.error!, /kvGet: 0 is not an open kv handle of this service/);
  assert.match(run(chain, 'hpriv', new Script().literal(7).get(0, bytes())).error!, /7 is not an open kv handle/);
  const many = new Script();
  for (let i = 0; i < MAX_HANDLES; i++) many.open(HandleDbId.service, prefix, KvMode.read);
  assert.is(run(chain, 'hpriv', many).error, undefined);
  const tooMany = run(chain, 'hpriv', many.open(HandleDbId.service, prefix, KvMode.read));
  assert.is(tooMany.errorCode, 'HOST_LIMIT');
  assert.match(tooMany.error!, /at most 64 kv handles/);
});

test('handles cross a call: the callee imports what the caller exported, and the caller what the callee returned', ({ chain }) => {
  const prefix = concat(accountPrefix(HPRIV), bytes(0, 11));
  // psibase's TestExport: the callee increments a value under the caller's prefix through the handle.
  const callee = new Script().importHandles().get(0, bytes(1)).put(0, bytes(1), 'forty-three');
  const r = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.readWrite).put(0, bytes(1), 'forty-two')
    .exportRegs(0).close(0)
    .call(HPROBE, RUN_SCRIPT, callee.bytes())
    .open(HandleDbId.service, prefix, KvMode.read).get(1, bytes(1))));
  const inner = outputs(r[0]!);
  assert.is(u32Of(inner[0]!), 1, 'one handle imported');
  assert.equal(found(inner[1]!)?.value, text('forty-two'));
  assert.equal(found(r[1]!)?.value, text('forty-three'));
  // The return way: the callee exports, the caller imports after the call.
  const back = answers(run(chain, 'hprobe', new Script()
    .call(HPRIV, RUN_SCRIPT, new Script().open(HandleDbId.service, prefix, KvMode.read).exportRegs(0).bytes())
    .importHandles().get(0, bytes(1)).importHandles()));
  assert.is(u32Of(back[1]!), 1);
  assert.equal(found(back[2]!)?.value, text('forty-three'));
  assert.is(u32Of(back[3]!), 0, 'importHandles empties the import set');
});

test('the export set starts empty at every entry and return; what is not imported is gone at the next crossing', ({ chain }) => {
  const prefix = accountPrefix(HPRIV);
  const noExport = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.read).exportRegs(0)
    .call(HPROBE, RUN_SCRIPT, new Script().bytes())
    .importHandles()));
  assert.is(u32Of(noExport[1]!), 0, 'the callee exported nothing, so nothing comes back');
  const leftOver = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.read).exportRegs(0)
    .call(HPROBE, RUN_SCRIPT, new Script().call(OTHER, RUN_SCRIPT, new Script().importHandles().bytes()).bytes())));
  const nested = outputs(outputs(leftOver[0]!)[0]!);
  assert.is(u32Of(nested[0]!), 0, 'hprobe did not pass the handle on, so hother gets none');
  const malformed = run(chain, 'hpriv', new Script().exportRaw(bytes(8, 0, 0, 0, 1, 0, 0, 0)));
  assert.match(malformed.error!, /exportHandles: expected a packed list of u32 handles, got 8 bytes/);
  assert.match(run(chain, 'hpriv', new Script().literal(3).exportRegs(0)).error!, /exportHandles: 3 is not an open kv handle/);
  const imported = new Script();
  for (let i = 0; i < MAX_HANDLES; i++) imported.open(HandleDbId.service, prefix, KvMode.read);
  imported.exportRegs(0).call(HPRIV2, RUN_SCRIPT, new Script().importHandles().bytes());
  assert.is(run(chain, 'hpriv', imported).error, undefined, 'the callee has its own table: 64 open in the caller do not count');
  const full = new Script();
  for (let i = 0; i < MAX_HANDLES; i++) full.open(HandleDbId.service, prefix, KvMode.read);
  full.call(HPRIV2, RUN_SCRIPT, new Script().open(HandleDbId.service, prefix, KvMode.read).exportRegs(0).bytes()).importHandles();
  const overflow = run(chain, 'hpriv', full);
  assert.is(overflow.errorCode, 'HOST_LIMIT');
  assert.match(overflow.error!, /importHandles: a service may hold at most 64 kv handles/);
});

test('a call that changes the run mode: the callee runs in RPC or CB mode in a context of its own; no handle crosses it', ({ chain }) => {
  const prefix = concat(accountPrefix(HPRIV), bytes(0, 12));
  // psibase's TestExport::testRpc: a handle exported before the call does not reach the callee.
  const callee = new Script().importHandles().time(0).call(HPROBE, RUN_SCRIPT, new Script().importHandles().bytes());
  const r = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.readWrite).put(0, bytes(1), 'tx row')
    .exportRegs(0).call(HPROBE, RUN_SCRIPT, callee.bytes(), 1n)
    .importHandles()
    .exportRegs(0).call(HPROBE, RUN_SCRIPT, new Script().importHandles().time(1).bytes(), 2n)));
  const rpc = outputs(r[0]!);
  assert.is(u32Of(rpc[0]!), 0, 'the RPC callee imports nothing');
  assert.is(rpc[1]!.length, 8, 'the RPC callee reads the clock, which only subjective modes have');
  assert.is(u32Of(outputs(rpc[2]!)[0]!), 0, 'a plain call inside it passes nothing either');
  assert.is(u32Of(r[1]!), 0, 'nothing comes back to the caller');
  const callback = outputs(r[2]!);
  assert.is(u32Of(callback[0]!), 0, 'the CB callee imports nothing');
  assert.is(callback[1]!.length, 8);
  assert.equal(chain.store.get(DbId.service, concat(prefix, bytes(1))), text('tx row'), 'the transaction\'s own write stays');  // psibase empties both sets around such a call: an export made before it reaches no later call,
  // and what a plain call returned is gone once one has run.
  const later = answers(run(chain, 'hpriv', new Script()
    .open(HandleDbId.service, prefix, KvMode.read).exportRegs(0)
    .call(HPROBE, RUN_SCRIPT, new Script().bytes(), 1n)
    .call(HPROBE, RUN_SCRIPT, new Script().importHandles().bytes())));
  assert.is(u32Of(outputs(later[1]!)[0]!), 0, 'the export did not outlive the run-mode call');
  const returned = answers(run(chain, 'hprobe', new Script()
    .call(HPRIV, RUN_SCRIPT, new Script().open(HandleDbId.service, prefix, KvMode.read).exportRegs(0).bytes())
    .call(HPRIV2, RUN_SCRIPT, new Script().bytes(), 2n)
    .importHandles()));
  assert.is(u32Of(returned[2]!), 0, 'the returned handle did not outlive the run-mode call');
});

test('run-mode calls: only from a transaction, only flags 1 and 2; the callee cannot write chain state', ({ chain }) => {
  const call = (flags: bigint, inner = new Script()) => new Script().call(HPRIV2, RUN_SCRIPT, inner.bytes(), flags);
  assert.match(run(chain, 'hpriv', call(3n)).error!, /call: invalid call flags: 3/);
  for (const mode of ['rpc', 'callback'] as const) {
    assert.match(run(chain, 'hpriv', call(1n), mode).error!, new RegExp(`call: can only change run mode in a transaction \\(this is ${mode} mode\\)`));
  }
  assert.match(run(chain, 'hpriv', call(1n, call(2n))).error!, /can only change run mode in a transaction \(this is rpc mode\)/, 'not again inside the callee');
  const write = run(chain, 'hpriv', call(1n, new Script().open(HandleDbId.service, accountPrefix(HPRIV2), KvMode.write)));
  assert.match(write.error!, /database 0 in rpc mode: database cannot be written in subjective context/);
  assert.is(run(chain, 'hprobe', new Script().call(HPRIV, RUN_SCRIPT, new Script().bytes(), 1n)).error, undefined, 'any service may make one');
  // The callee's failure is the transaction's where it runs first: the producer's.
  assert.match(run(chain, 'hpriv', call(1n, new Script().literal(9).get(0, bytes(1)))).error!, /9 is not an open kv handle/);
});

test('kvOpen follows the run modes: chain tables written in transactions, node-local ones in queries and callbacks', ({ chain }) => {
  const own = accountPrefix(HPRIV);
  const refused = (db: number, mode: number, runMode: Mode) => run(chain, 'hpriv', new Script().open(db, own, mode), runMode).error ?? '';
  assert.match(refused(HandleDbId.service, KvMode.write, 'rpc'), /database 0 in rpc mode: database cannot be written in subjective context/);
  assert.match(refused(HandleDbId.writeOnly, KvMode.read, 'transaction'), /database 1 in transaction mode: subjective databases cannot be read in a deterministic context/);
  assert.is(refused(HandleDbId.writeOnly, KvMode.write, 'callback'), '');
  assert.match(refused(HandleDbId.writeOnly, KvMode.write, 'rpc'), /cannot be written in async context/);
  assert.match(refused(HandleDbId.subjective, KvMode.read, 'transaction'), /subjective databases cannot be accessed in a deterministic context/);
  assert.match(refused(HandleDbId.nativeSubjective, KvMode.write, 'rpc'), /nativeSubjective holds the node's own tables/);
  assert.match(refused(HandleDbId.nativeSession, KvMode.read, 'rpc'), /nativeSession is not kept by this node/);
  assert.match(refused(HandleDbId.blockProof, KvMode.read, 'rpc'), /database 4 in rpc mode: service may not read this db/);
  const verifying = run(chain, 'hverify', new Script().open(HandleDbId.service, accountPrefix(accountNumberFromName('hverify')), KvMode.read), 'verify');
  assert.match(verifying.error!, /disabled during proof verification/);
  // Subjective rows need a checkout, as in the database-id generation; temporary (68 here) does not.
  const outside = run(chain, 'hpriv', new Script().open(HandleDbId.subjective, own, KvMode.readWrite).put(0, bytes(1), 's'), 'rpc');
  assert.match(outside.error!, /needs an open subjective view/);
  const inside = answers(run(chain, 'hpriv', new Script().open(HandleDbId.subjective, own, KvMode.readWrite).checkout().put(0, bytes(1), 's').commit(), 'rpc'));
  assert.is(u32Of(inside[0]!), 1);
  assert.equal(chain.store.get(DbId.subjective, concat(own, bytes(1))), text('s'));
  // A callee cannot end the view its caller opened (psibase's SubjectiveDb::nestFail1a).
  for (const end of [new Script().commit(), new Script().checkout().commit().commit()]) {
    const across = run(chain, 'hpriv', new Script().checkout().call(HPRIV2, RUN_SCRIPT, end.bytes()).commit(), 'rpc');
    assert.match(across.error!, /commitSubjective: the open view belongs to a calling action \(commitSubjective requires checkoutSubjective in the same action\)/);
  }
  const temporary = answers(run(chain, 'hpriv', new Script().open(HandleDbId.temporary, own, KvMode.readWrite).put(0, bytes(2), 't').get(0, bytes(2)), 'rpc'));
  assert.equal(found(temporary[0]!)?.value, text('t'));
});

test('x-db opens the node-local databases under the own account; writing them needs a privileged service', ({ chain }) => {
  const read = answers(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.subjective, accountPrefix(HPROBE), KvMode.read, XDB).checkout().get(0, bytes(1)), 'rpc'));
  assert.is(found(read[2]!), undefined);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.subjective, accountPrefix(HPROBE), KvMode.write, XDB), 'rpc').error!, /hprobe may not write database 64: only privileged services write node-local databases/);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.session, accountPrefix(OTHER), KvMode.read, XDB), 'rpc').error!, /hprobe may not read keys under hother/);
  const written = answers(run(chain, 'hpriv', dbOpen(new Script(), HandleDbId.session, accountPrefix(HPRIV), KvMode.readWrite, XDB).checkout().put(0, bytes(3), 'session row').get(0, bytes(3)).commit(), 'rpc'));
  assert.equal(found(written[2]!)?.value, text('session row'));
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.native, bytes(), KvMode.write, XDB)).error!, /may not write database 2/);
  assert.match(run(chain, 'hprobe', dbOpen(new Script(), HandleDbId.service, accountPrefix(HPROBE), KvMode.read, XDB)).error!, /may not open database 0/);
});

test('events::event writes the sender\'s events to the history and merkle dbs; other dbs abort', ({ chain }) => {
  const type = methodNumberFromName('sold');
  const data = coreSchema.typeOf({ Object: { item: 'string', price: 'u32' } }).pack({ item: 'tea', price: 3 });
  const EVENT = methodNumberFromName('event');
  const r = run(chain, 'hprobe', new Script()
    .call(EVENTS, EVENT, eventArgs.pack({ db: 0, type, rawData: data }))
    .call(EVENTS, EVENT, eventArgs.pack({ db: 1, type, rawData: data })));
  const [history, merkle] = answers(r);
  assert.equal(r.events.map((e) => e.db), [DbId.historyEvent, DbId.merkleEvent]);
  assert.equal(r.events.map((e) => e.id), [new DataView(history!.buffer, history!.byteOffset).getBigUint64(0, true), new DataView(merkle!.buffer, merkle!.byteOffset).getBigUint64(0, true)]);
  const record = coreSchema.typeOf({ Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: { Object: { item: 'string', price: 'u32' } } } } });
  assert.equal(record.unpack(r.events[0]!.value), { service: HPROBE, type, data: { item: 'tea', price: 3 } });
  const bad = run(chain, 'hprobe', new Script().call(EVENTS, EVENT, eventArgs.pack({ db: 2, type, rawData: data })));
  assert.match(bad.error!, /Invalid event db 2/);
});

test('setMaxCpuTime, readFile, socketOpen, socketSetFlags and socketSend: privileges, modes and answers', ({ chain }) => {
  assert.match(run(chain, 'hprobe', new Script().setMaxCpuTime(1_000_000n)).error!, /setMaxCpuTime needs a privileged service/);
  assert.is(run(chain, 'hpriv', new Script().setMaxCpuTime(1_000_000n)).error, undefined);
  const answered = answers(run(chain, 'hpriv', new Script().readFile('/etc/hostname').socketOpen(bytes(0, 0)).socketSetFlags(5, 2, 2).clockTimeGet(0), 'rpc'));
  assert.equal(answered.map(u32Of), [0xffffffff, (-52 >>> 0), 8, 0], 'no mounted files, no outgoing sockets, no open request 5');
  assert.match(run(chain, 'hpriv', new Script().readFile('x')).error!, /readFile is only available in rpc and callback modes/);
  assert.match(run(chain, 'hprobe', new Script().socketOpen(bytes()), 'rpc').error!, /socketOpen needs a privileged service/);
  assert.match(run(chain, 'hpriv', new Script().socketSend(5, bytes(), 1), 'rpc').error!, /socketSend: flags 1 are not valid/);
  assert.equal(answers(run(chain, 'hpriv', new Script().socketSend(5, bytes(), 0), 'rpc')).map(u32Of), [8]);
});

test.run();
