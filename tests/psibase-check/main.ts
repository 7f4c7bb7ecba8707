// `make psibase-check PSIBASE_WASM=<dir>`: psibase's own C++ services, as psibase's SDK builds them
// (any build of psibase's doc examples and packages/psibase_tests), on a
// real tsibase node: each is installed with `tsibase deploy`, driven with `tsibase push` (rawData)
// and over HTTP, and must behave as psibase's tests say it does (docs/host-abi.md §12). Not part of
// `make test`: it needs psibase's build, which the project does not carry. Prints one line per
// check and exits 1 when any fails. `SECTIONS="subjectiveDb sudo"` runs only those sections (the
// functions called at the end of this file).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedTransaction, Transaction, canonicalServiceSchema, coreSchema, type AnyType } from '../../host-api/index.js';
import { calledActions, findActionTrace, type ActionTraceJson } from '../../host-api/traces/trace-json.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { runCli } from '../lib/cli-process.js';
import { startBootedNode } from '../lib/booted-node.js';
import type { RunningNode } from '../lib/node-process.js';
import { compiledEntry } from '../unit/services-wasm/program.js';

const wasmDir = process.argv[2] ?? process.env.PSIBASE_WASM;
/** The sections to run (their function names, after the directory); all when none is named. */
const only = new Set(process.argv.slice(3));
if (!wasmDir || !existsSync(wasmDir)) {
  console.error('usage: node dist/tests/psibase-check/main.js <dir of psibase-built .wasm files> (make psibase-check PSIBASE_WASM=<dir>)');
  process.exit(2);
}

let failures = 0;
let node: RunningNode;

function report(ok: boolean, what: string, detail = ''): void {
  if (!ok) failures++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
}

const pack = (type: AnyType, value: unknown) => Buffer.from(coreSchema.typeOf(type).pack(value)).toString('hex');
const unpack = (type: AnyType, hex: string) => coreSchema.typeOf(type).unpack(Buffer.from(hex, 'hex'));
const NONE = pack({ Object: {} }, {});
const NO_ARGUMENTS = Buffer.from(NONE, 'hex');

async function cli(args: string[], stdin?: string) {
  return runCli(node.api, args, stdin);
}

/** `tsibase deploy` of a psibase-built module (with --init when it has one to run), then its flags. */
async function deploy(account: string, file: string, options: { flags?: bigint; init?: boolean; server?: boolean } = {}): Promise<boolean> {
  const args = ['deploy', account, join(wasmDir!, file), '-i', '-w', 'applied', ...(options.server ? ['-r'] : [])];
  const r = await cli(args);
  if (r.status !== 0) {
    report(false, `deploy ${file} as ${account}`, r.stderr.trim());
    return false;
  }
  if (options.flags) {
    const setFlags = pack({ Object: { service: 'AccountNumber', flags: 'u64' } }, { service: account, flags: options.flags });
    if (!(await push('setcode', 'setcode', 'setFlags', setFlags)).ok) return false;
  }
  if (options.init) return (await push(account, account, 'init', NONE)).ok;
  return true;
}

interface Pushed { ok: boolean; error: string; retval: string; inner: string[] }

/** One action through `tsibase push --trace json` with rawData; its return value, and the actions it called. */
async function push(sender: string, service: string, method: string, rawData: string): Promise<Pushed> {
  const r = await cli(['push', '-', '-w', 'applied', '--trace', 'json'], JSON.stringify([{ sender, service, method, rawData }]));
  if (r.status !== 0) return { ok: false, error: r.stderr.trim(), retval: '', inner: [] };
  const trace = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'), r.stdout.lastIndexOf('}') + 1)) as { actionTraces: ActionTraceJson[] };
  const top = findActionTrace(trace.actionTraces, service, method);
  if (!top) return { ok: false, error: `no trace of ${service}::${method}`, retval: '', inner: [] };
  const inner: string[] = [];
  const walk = (a: ActionTraceJson) => calledActions(a).forEach((c) => { inner.push(`${c.action.service}::${c.action.method}`); walk(c); });
  walk(top);
  return { ok: true, error: '', retval: top.rawRetval, inner };
}

async function expectSuccess(what: string, sender: string, service: string, method: string, rawData = NONE): Promise<Pushed> {
  const r = await push(sender, service, method, rawData);
  report(r.ok, what, r.error);
  return r;
}

async function expectFailure(what: string, sender: string, service: string, method: string, rawData: string, message: RegExp): Promise<void> {
  const r = await push(sender, service, method, rawData);
  report(!r.ok && message.test(r.error), what, r.ok ? 'it succeeded' : r.error);
}

async function get(service: string, path: string, init?: Parameters<typeof httpRequest>[1]) {
  return httpRequest(serviceUrl(node.api, service, path), init);
}

let simpleDeployed: Promise<boolean> | undefined;
/** psibase's SimpleService as `simpleserv`, which several sections call: deployed once. */
const simpleService = () => (simpleDeployed ??= deploy('simpleserv', 'SimpleService.wasm'));

async function docExamples(): Promise<void> {
  const ab = pack({ Object: { a: 'i32', b: 'i32' } }, { a: 6, b: 7 });
  if (await deploy('cppexample', 'example.wasm')) {
    const add = await expectSuccess('doc example: add(6, 7)', 'root', 'cppexample', 'add', ab);
    report(add.ok && unpack('i32', add.retval) === 13, 'doc example: add returns 13', add.retval);
  }
  if (await deploy('arithmetic', 'arithmetic.wasm') && await deploy('caller', 'caller.wasm', { server: true })) {
    const r = await expectSuccess('doc example: caller::mult_add(2, 3, 4, 5) calls arithmetic', 'root', 'caller', 'mult_add', pack({ Object: { a: 'i32', b: 'i32', c: 'i32', d: 'i32' } }, { a: 2, b: 3, c: 4, d: 5 }));
    report(r.ok && unpack('i32', r.retval) === 26 && r.inner.filter((a) => a === 'arithmetic::multiply').length === 2 && r.inner.includes('arithmetic::add'), 'doc example: mult_add is 26, from two multiplies and an add', `${r.retval} ${r.inner.join(' ')}`);
  }
  if (await deploy('minimal-ui', 'minimal-ui.wasm', { server: true })) {
    const page = await get('minimal-ui', '/');
    report(page.status === 200 && page.contentType.startsWith('text/html'), 'doc example: minimal-ui serves its page from serveSys', `${page.status} ${page.contentType}`);
    const packed = await get('minimal-ui', '/pack_action/add', { method: 'POST', body: new TextEncoder().encode('{"a":6,"b":7}'), headers: { 'content-type': 'application/json' } });
    report(packed.status === 200 && Buffer.from(packed.body).toString('hex') === ab, 'doc example: minimal-ui packs add over HTTP as fracpack does', Buffer.from(packed.body).toString('hex'));
  }
}

async function kvAndTables(): Promise<void> {
  // psibase's "kv" test: TestKV's own checks of kvPut, kvRemove and every lookup through a handle.
  if (await deploy('test-kv', 'TestKV.wasm', { flags: 1n })) await expectSuccess('TestKV::test (kv handles: puts, removes, lookups, getKey)', 'test-kv', 'test-kv', 'test');
  // psibase's "table" test: TestTable opens its tables through db::open.
  if (await deploy('test-table', 'TestTable.wasm')) {
    for (const method of ['getSingle', 'getMulti', 'getCompound', 'removeSingle', 'removeMulti', 'subindex']) {
      const r = await expectSuccess(`TestTable::${method} (tables through db::open)`, 'test-table', 'test-table', method);
      if (r.ok && method === 'getSingle') report(r.inner.includes('db::open'), 'TestTable opens its table through db::open', r.inner.join(' '));
    }
  }
  // psibase's "import/export handles" test: handles cross plain calls, never a change of run mode.
  if (await deploy('testexport', 'TestExport.wasm', { flags: 1n }) && await deploy('testimport', 'TestImport.wasm')) {
    await expectSuccess('TestExport::testPlain (a handle exported to a call)', 'testexport', 'testexport', 'testPlain');
    await expectSuccess('TestImport::testPlain (a handle returned by a call)', 'testimport', 'testimport', 'testPlain');
    for (const service of ['testexport', 'testimport']) {
      for (const [method, mode] of [['testRpc', 'RPC'], ['testCallback', 'CB']] as const) {
        const r = await expectSuccess(`${service}::${method} (a call in ${mode} mode: no handle crosses it)`, service, service, method);
        // TestImport's callee opens the subjective database and writes it inside a checkout.
        if (service === 'testimport' && r.ok) report(r.inner.includes('testexport::doexport'), `${service}::${method} ran TestExport::doExport in ${mode} mode`, r.inner.join(' '));
      }
    }
  }
  // psibase's "test clock": each clock read in a call that switches to RPC mode (TestClock calls itself).
  if (await deploy('test-clock', 'TestClock.wasm')) {
    const indirect = pack({ Object: { indirect: 'bool' } }, { indirect: true });
    for (const method of ['testReal', 'testMono', 'testCpu', 'testSystem', 'testSteady', 'testHiRes']) {
      await expectSuccess(`TestClock::${method}(true) (the clock in an RPC-mode call from a transaction)`, 'test-clock', 'test-clock', method, indirect);
    }
    await expectFailure('TestClock::testReal(false): a transaction has no clock', 'test-clock', 'test-clock', 'testReal', pack({ Object: { indirect: 'bool' } }, { indirect: false }), /clockTimeGet is only available in rpc and callback modes/);
  }
  // At another account than psibase's "counter": SubjectiveCounterService calls itself by that name.
  if (await deploy('counter-a', 'CounterService.wasm', { server: true })) {
    const key = pack({ Object: { key: 'string', id: 'u32' } }, { key: 'a', id: 1 });
    const inc = await expectSuccess('CounterService::inc', 'counter-a', 'counter-a', 'inc', key);
    // psibase's inc stores the row it makes under the empty key, so `a` is never found: always 1.
    report(inc.ok && unpack('u32', inc.retval) === 1, 'CounterService::inc returns 1, as psibase\'s code does', inc.retval);
    const packed = await get('counter-a', '/pack_action/inc', { method: 'POST', body: new TextEncoder().encode('{"key":"a","id":1}'), headers: { 'content-type': 'application/json' } });
    report(packed.status === 200 && Buffer.from(packed.body).toString('hex') === key, 'CounterService serveSys packs inc over HTTP (servePackAction)', `${packed.status}`);
  }
}

async function events(): Promise<void> {
  if (!(await deploy('event-svc', 'EmitEvents.wasm', { init: true }))) return;
  const schema = await get('packages', '/schema?service=event-svc');
  const json = schema.status === 200 ? (schema.json() as { history?: Record<string, { type: unknown; access: string }>; merkle?: Record<string, unknown> }) : {};
  report(schema.status === 200 && json.history?.e !== undefined && json.merkle?.m !== undefined, 'EmitEvents::init stored its packed ServiceSchema with packages::setSchema; /schema answers it', `${schema.status}`);
  report(schema.status === 200 && JSON.stringify(canonicalServiceSchema(json)) === JSON.stringify(json), '/schema answers psibase HEAD\'s JSON form');
  const si = pack({ Object: { s: 'string', i: 'i32' } }, { s: 'hello', i: 7 });
  const foo = await expectSuccess('EmitEvents::foo emits through events::event', 'event-svc', 'event-svc', 'foo', si);
  report(foo.inner.includes('events::event'), 'EmitEvents::foo calls events::event', foo.inner.join(' '));
  const merkle = await expectSuccess('EmitEvents::emitMerkle', 'event-svc', 'event-svc', 'emitMerkle', pack({ Object: { s: 'string' } }, { s: 'm1' }));
  await expectFailure('EmitEvents::emitFail aborts, and its event goes with it', 'event-svc', 'event-svc', 'emitFail', si, /aborted with message: die/);
  const reader = await compiledEntry('tests/psibase-check/event-reader.as.ts');
  const file = join(mkdtempSync(join(tmpdir(), 'psibase-check-')), 'ev-reader.wasm');
  writeFileSync(file, reader.binary);
  const deployed = await cli(['deploy', 'ev-reader', file, '-i', '-r', '-w', 'applied', '--no-schema']);
  if (deployed.status !== 0) return report(false, 'deploy the event reader', deployed.stderr);
  const page = await get('ev-reader', '/events?table=history.event-svc.e&first=10');
  const edges = (page.json() as { edges: { cursor: string; fields: unknown }[]; error: string | null });
  const id = foo.ok ? unpack('u64', foo.retval) as bigint : -1n;
  report(edges.error === null && edges.edges.length === 1 && JSON.stringify(edges.edges[0]!.fields) === '{"s":"hello","i":7}' && BigInt(`0x${edges.edges[0]!.cursor}`) === id,
    'the history event decodes by the schema EmitEvents stored, under the id foo returned; the failed one is not there', JSON.stringify(edges));
  await expectSuccess('EmitEvents::foo again', 'event-svc', 'event-svc', 'foo', pack({ Object: { s: 'string', i: 'i32' } }, { s: 'again', i: 2 }));
  const filtered = (await get('ev-reader', `/events?table=history.event-svc.e&first=10&where=${encodeURIComponent("i < 5 AND s = 'again'")}`)).json() as { edges: { fields: unknown }[] };
  report(filtered.edges.length === 1 && JSON.stringify(filtered.edges[0]!.fields) === '{"s":"again","i":2}', 'an SQL condition on its columns selects among its events', JSON.stringify(filtered));
  const merkles = (await get('ev-reader', '/events?table=merkle.event-svc.m&first=10')).json() as { edges: { fields: unknown }[] };
  report(merkle.ok && merkles.edges.length === 1 && JSON.stringify(merkles.edges[0]!.fields) === '{"s":"m1"}', 'the merkle event decodes too', JSON.stringify(merkles));
}

/** psibase's Packages (its own user service, under another account) checks package accounts through auth-delg. */
async function packageOwners(): Promise<void> {
  if (!(await deploy('ppackages', 'Packages.wasm'))) return;
  const newAccount = pack({ Object: { name: 'AccountNumber', owner: 'AccountNumber', requireMatch: 'bool' } }, { name: 'pkg-a', owner: 'root', requireMatch: true });
  const created = await expectSuccess('auth-delg::newAccount(pkg-a, owner root)', 'root', 'auth-delg', 'newAccount', newAccount);
  report(created.ok && unpack('bool', created.retval) === true, 'auth-delg::newAccount answers true for a new account', created.retval);
  const meta = { Object: {
    name: 'string', version: 'string', scope: 'string', description: 'string',
    depends: { List: { Object: { name: 'string', version: 'string' } } },
    accounts: { List: 'AccountNumber' }, services: { List: 'AccountNumber' },
    exports: { List: { Object: { name: 'string', service: 'AccountNumber' } } },
  } } as const;
  const postinstall = (accounts: string[]) => pack({ Object: { package: meta, manifest: 'bytes' } }, {
    package: { name: 'pkg', version: '1.0.0', scope: '', description: 'a package', depends: [], accounts, services: accounts, exports: [] },
    manifest: new TextEncoder().encode('{}'),
  });
  const installed = await expectSuccess('Packages::postinstall by the owner of its auth-delg account', 'root', 'ppackages', 'postinstall', postinstall(['pkg-a']));
  // Method names come back in the lower case the number encodes.
  report(installed.inner.includes('auth-delg::getowner') && installed.inner.includes('accounts::getauthof'), 'Packages::postinstall asks accounts::getAuthOf and auth-delg::getOwner', installed.inner.join(' '));
  await expectFailure('Packages::postinstall by another account is refused: auth-delg names the owner', 'simpleserv', 'ppackages', 'postinstall', postinstall(['pkg-a']), /Account pkg-a in pkg is not owned by simpleserv/);
  await expectFailure('Packages::postinstall refuses an account that does not use auth-delg', 'root', 'ppackages', 'postinstall', postinstall(['simpleserv']), /Account simpleserv in pkg does not use auth-delg as its auth service/);
}

/** psibase's "memo" test: a Memo is a string of at most 80 bytes of UTF-8. */
async function memo(): Promise<void> {
  if (!(await deploy('memo-svc', 'TestMemo.wasm'))) return;
  const short = '00000000001111111111222222222233333333334444444444555555555566666666667777777777';
  const memoArg = (bytes: Uint8Array) => pack({ Object: { memo: 'bytes' } }, { memo: bytes });
  const utf8 = (text: string) => new TextEncoder().encode(text);
  for (const method of ['testValue', 'testView']) {
    const r = await expectSuccess(`TestMemo::${method} of 80 bytes`, 'memo-svc', 'memo-svc', method, memoArg(utf8(short)));
    report(r.ok && unpack('string', r.retval) === short, `TestMemo::${method} returns the memo`, r.retval);
    await expectFailure(`TestMemo::${method} of 81 bytes fails`, 'memo-svc', 'memo-svc', method, memoArg(utf8(`${short}8`)), /Memo exceeds 80 bytes/);
  }
  await expectFailure('TestMemo::testConstruct of invalid UTF-8 fails', 'memo-svc', 'memo-svc', 'testConstruct', memoArg(Uint8Array.from([...utf8('abcdef'), 0xff])), /Memo must be valid UTF-8/);
}

/** psibase's "subjective db" test: SubjectiveDb reaches the subjective database through calls in RPC mode. */
async function subjectiveDb(): Promise<void> {
  if (!(await deploy('subjective', 'SubjectiveDb.wasm', { flags: 1n, server: true }))) return;
  const string = (key: string) => pack({ Object: { key: 'string' } }, { key });
  const read = async (key: string) => {
    const r = await push('subjective', 'subjective', 'read', string(key));
    return r.ok ? unpack({ Option: 'string' }, r.retval) : r.error;
  };
  const call = (method: string, type: Record<string, AnyType>, value: Record<string, unknown>) => push('subjective', 'subjective', method, pack({ Object: type }, value));
  await expectSuccess('SubjectiveDb::write(a, b) (an RPC-mode call to itself)', 'subjective', 'subjective', 'write', pack({ Object: { key: 'string', value: 'string' } }, { key: 'a', value: 'b' }));
  report(await read('a') === 'b', 'SubjectiveDb::read(a) answers b', String(await read('a')));
  for (const op of [0, 1, 2]) {
    await call('abort', { key: 'string', value: 'string', op: 'i32' }, { key: 'a', value: 'WRONG', op });
    const value = await read('a');
    report(value === 'b', `SubjectiveDb::abort(a, WRONG, ${op}) leaves a = b (a view left by return, break or abort is discarded)`, String(value));
  }
  await expectSuccess('SubjectiveDb::nested(n, 1, 2)', 'subjective', 'subjective', 'nested', pack({ Object: { key: 'string', value1: 'string', value2: 'string' } }, { key: 'n', value1: '1', value2: '2' }));
  report(await read('n') === '1', 'the inner view\'s write is discarded, the outer one\'s kept', String(await read('n')));
  const failed = (r: Pushed, message: RegExp) => !r.ok && message.test(r.error);
  for (const txBefore of [false, true]) {
    for (const op of [0, 1, 2, 3]) {
      const r = await call('testRFail1', { key: 'string', txBefore: 'bool', op: 'i32' }, { key: 'a', txBefore, op });
      report(failed(r, /needs an open subjective view/), `SubjectiveDb::testRFail1(a, ${txBefore}, ${op}): reading outside a checkout fails`, r.error);
    }
  }
  for (const op of [0, 1, 2, 3]) {
    const r = await call('testRFail2', { account: 'AccountNumber', key: 'string', op: 'i32' }, { account: 'alice', key: 'a', op });
    report(failed(r, /subjective may not read keys under alice/), `SubjectiveDb::testRFail2(alice, a, ${op}): another account's rows are refused`, r.error);
  }
  const write = await call('testWFail1', { key: 'string', value: 'string' }, { key: 'a', value: 'b' });
  report(failed(write, /needs an open subjective view/), 'SubjectiveDb::testWFail1: writing outside a checkout fails', write.error);
  for (const commit of [false, true]) {
    for (const method of ['nestFail1a', 'nestFail2a']) {
      const r = await call(method, { commit: 'bool' }, { commit });
      report(failed(r, /requires checkoutSubjective in the same action|no subjective view is open/), `SubjectiveDb::${method}(${commit}): a checkout and its end in different actions fail`, r.error);
    }
    for (const commit2 of [false, true]) {
      const r = await call('nestFail3a', { commit1: 'bool', commit2: 'bool' }, { commit1: commit, commit2 });
      report(failed(r, /requires checkoutSubjective in the same action/), `SubjectiveDb::nestFail3a(${commit}, ${commit2}) fails: the inner action ends a view the outer one opened`, r.error);
    }
  }
  const json = (body: unknown) => ({ method: 'POST', body: new TextEncoder().encode(JSON.stringify(body)), headers: { 'content-type': 'application/json' } });
  const written = await get('subjective', '/write', json({ key: 'c', value: 'd' }));
  const answered = await get('subjective', '/read', json('c'));
  report(written.status === 200 && answered.status === 200 && JSON.stringify(answered.json()) === '"d"', 'SubjectiveDb serves /write and /read over HTTP (RPC mode)', `${written.status} ${answered.status} ${answered.text()}`);
}

/** psibase's "replay subjective" test, the producer's half: SubjectiveCounterService counts in RPC and CB calls. */
async function subjectiveCounter(): Promise<void> {
  if (!(await deploy('counter', 'SubjectiveCounterService.wasm', { flags: 1n, server: true }))) return;
  const value = async () => (await get('counter', '/value')).text();
  const args = (expected: number) => pack({ Object: { key: 'string', id: 'u32', expected: 'u32' } }, { key: '', id: 0, expected });
  await expectSuccess('SubjectiveCounterService::checkIncRpc("", 0, 1) (an RPC-mode call counts to 1)', 'counter', 'counter', 'checkIncRpc', args(1));
  report(await value() === '1', 'its /value is 1', await value());
  await expectSuccess('SubjectiveCounterService::checkIncCallback("", 0, 2) (a CB-mode call counts to 2)', 'counter', 'counter', 'checkIncCallback', args(2));
  report(await value() === '2', 'its /value is 2', await value());
}

/** psibase's VerifyWithCall: a verify service whose proof is a list of actions it calls. */
async function verifyWithCall(): Promise<void> {
  if (!(await simpleService()) || !(await deploy('verifycall', 'VerifyWithCall.wasm', { flags: 2n })) || !(await deploy('vcall-b', 'VerifyWithCall.wasm', { flags: 2n }))) return;
  const client = new ChainClient(node.api);
  const verifyArgs = coreSchema.typeOf({ Object: { transactionHash: 'Checksum256', claim: 'Claim', proof: 'bytes' } });
  // Proofs are not part of a transaction's id: each push expires a second later, so none is a duplicate.
  let pushes = 0;
  const withProof = async (proof: Uint8Array) => {
    const transaction = Transaction.pack({
      tapos: await client.tapos(10 + pushes++),
      actions: [{ sender: 'simpleserv', service: 'simpleserv', method: 'hello', rawData: NO_ARGUMENTS }],
      claims: [{ service: 'verifycall', rawData: new Uint8Array(0) }],
    });
    const signed = SignedTransaction.pack({ transaction, proofs: [proof], subjectiveData: null });
    const r = await httpRequest(serviceUrl(node.api, 'transact', '/push_transaction?wait_for=applied'), { method: 'POST', body: signed, headers: { 'content-type': 'application/octet-stream' } });
    return r.status === 200 ? ((r.json() as { error: string | null }).error ?? '') : `${r.status} ${r.text()}`;
  };
  const nested = (service: string) => coreSchema.typeOf({ List: 'Action' }).pack([{
    sender: 'verifycall', service, method: 'verifySys',
    rawData: verifyArgs.pack({ transactionHash: new Uint8Array(32), claim: { service, rawData: new Uint8Array(0) }, proof: new Uint8Array(0) }),
  }]);
  const empty = await withProof(new Uint8Array(0));
  report(empty === '', 'a claim of VerifyWithCall with an empty proof verifies', empty);
  const called = await withProof(nested('vcall-b'));
  report(called === '', 'its proof may call another verify service', called);
  const refused = await withProof(nested('simpleserv'));
  report(/not a verify service/.test(refused), 'but not a service that is not flagged isVerify', refused);
}

/** psibase's XSudo as an on-chain privileged service: serveSys calls the action it is given, as any sender. */
async function sudo(): Promise<void> {
  if (!(await simpleService()) || !(await deploy('x-sudo', 'XSudo.wasm', { flags: 1n, server: true }))) return;
  const action = (sender: string) => coreSchema.typeOf('Action').pack({ sender, service: 'simpleserv', method: 'hello', rawData: NO_ARGUMENTS });
  const reply = await get('x-sudo', '/', { method: 'POST', body: action('simpleserv'), headers: { 'content-type': 'application/octet-stream' } });
  report(reply.status === 200, 'XSudo calls simpleserv::hello as simpleserv from its serveSys (RPC mode)', `${reply.status} ${reply.text()}`);
}

/** psibase's test_query.py with AsyncQueryService: replies sent at once, deferred to its onBlock callback, and aborts. */
async function asyncQuery(): Promise<void> {
  // Its package installs it privileged (FLAGS isPrivileged): it writes the session database.
  if (!(await deploy('as-query', 'AsyncQueryService.wasm', { flags: 1n, server: true }))) return;
  // Its package's postinstall: onBlock as a subjective callback.
  const callback = pack({ Object: { type: 'u8', objective: 'bool', act: 'Action' } }, {
    type: 1, objective: false, act: { sender: 0n, service: 'as-query', method: 'onBlock', rawData: NO_ARGUMENTS },
  });
  if (!(await expectSuccess('transact::addCallback(onBlock, subjective, as-query::onBlock)', 'transact', 'transact', 'addCallback', callback)).ok) return;
  const post = async (target: string, body: unknown) => {
    const r = await get('as-query', target, { method: 'POST', body: new TextEncoder().encode(JSON.stringify(body)), headers: { 'content-type': 'application/json' } });
    return `${r.status} ${r.text()}`;
  };
  const expect = async (target: string, body: unknown, answer: string, what: string) => {
    const got = await post(target, body);
    report(got === answer, `AsyncQueryService ${target}: ${what}`, got);
  };
  await expect('/send', { t: 'send' }, '200 {"t":"send"}', 'the reply sent from serveSys');
  await expect('/send_async', { t: 'async' }, '200 {"t":"async"}', 'a deferred reply, sent by its onBlock callback');
  await expect('/abort', { i: 2 }, "500 service 'as-query' aborted with message: test abort", 'an abort answers 500 with its message');
  await expect('/send_and_abort', { t: 'send-abort' }, '200 {"t":"send-abort"}', 'a reply sent before an abort stands');
  await expect('/send_async_and_abort', { t: 'send-async-abort' }, '200 {"t":"send-async-abort"}', 'a deferral survives the abort: the onBlock callback sends the reply');
  await expect('/send_and_abort_async', { i: 3 }, "500 service 'as-query' aborted with message: test send and abort async", 'the onBlock callback\'s abort answers the deferred request');
}

async function others(): Promise<void> {
  if (await deploy('abort', 'AbortService.wasm')) {
    await expectFailure('AbortService::abort aborts with its message', 'abort', 'abort', 'abort', pack({ Object: { message: 'string' } }, { message: 'stop here' }), /aborted with message: stop here/);
  }
  if (await simpleService()) await expectSuccess('SimpleService::hello', 'simpleserv', 'simpleserv', 'hello');
}

/** psibase's "called entry point" test, AsRpc's sanity call, ServerId, AuthNone and Loop (test_txqueue's timeout). */
async function entryPoints(): Promise<void> {
  if (await deploy('entrypoint', 'TestServiceEntry.wasm')) {
    // The service checks itself that start ran once in the context and called at every one of the four nested calls.
    const r = await expectSuccess('TestServiceEntry::call(3, "Counting down"): start once, called at each nested call', 'entrypoint', 'entrypoint', 'call', pack({ Object: { number: 'i32', memo: 'string' } }, { number: 3, memo: 'Counting down' }));
    report(r.ok && unpack('i32', r.retval) === 3 && r.inner.filter((a) => a === 'entrypoint::call').length === 3, 'TestServiceEntry::call returns 3 after three calls of itself', `${r.retval} ${r.inner.join(' ')}`);
  }
  if (!(await simpleService())) return;
  if (await deploy('as-rpc', 'AsRpc.wasm', { flags: 1n })) {
    const hello = pack({ Object: { action: 'Action' } }, { action: { sender: 'as-rpc', service: 'simpleserv', method: 'hello', rawData: NO_ARGUMENTS } });
    const r = await expectSuccess('AsRpc::asRpc calls SimpleService::hello in RPC mode (call flag runModeRpc)', 'as-rpc', 'as-rpc', 'asRpc', hello);
    report(r.ok && r.inner.includes('simpleserv::hello'), 'AsRpc::asRpc ran SimpleService::hello', r.inner.join(' '));
  }
  if (await deploy('serverid', 'ServerId.wasm', { server: true })) {
    const r = await get('serverid', '/anything');
    report(r.status === 200 && r.text() === '"serverid"', 'ServerId: the registered server answers its own account', `${r.status} ${r.text()}`);
  }
  if (await deploy('auth-none', 'AuthNone.wasm')) {
    const created = await expectSuccess('accounts::newAccount(noauth, auth-none)', 'root', 'accounts', 'newAccount',
      pack({ Object: { name: 'AccountNumber', authService: 'AccountNumber', requireMatch: 'bool' } }, { name: 'noauth', authService: 'auth-none', requireMatch: true }));
    if (created.ok) await expectFailure('AuthNone refuses every transaction of an account it guards', 'noauth', 'simpleserv', 'hello', NONE, /Authorization for noauth -> simpleserv::hello failed/);
  }
  if (await deploy('loop', 'Loop.wasm')) {
    // psibase's error says "timed out"; this node's names the limit it ran into (docs/host-abi.md §10).
    await expectFailure('Loop::loop is stopped by the transaction\'s limit', 'loop', 'loop', 'loop', NONE, /fuel|time|limit/i);
    await expectSuccess('the node goes on after it: SimpleService::hello', 'simpleserv', 'simpleserv', 'hello');
  }
}

/** psibase's test_subjective "parallel": concurrent queries that each increment a subjective row lose no increment. */
async function parallelSubjective(): Promise<void> {
  if (!(await deploy('psubj', 'PSubjectiveService.wasm', { flags: 1n, server: true }))) return;
  const post = async (target: string) => {
    const r = await get('psubj', target, { method: 'POST', body: new TextEncoder().encode('{}'), headers: { 'content-type': 'application/json' } });
    return r.json() as { value: number; key: number };
  };
  const QUERIES = 40;
  const values = (await Promise.all(Array.from({ length: QUERIES }, () => post('/inc')))).map((r) => r.value).sort((a, b) => a - b);
  report(JSON.stringify(values) === JSON.stringify(Array.from({ length: QUERIES }, (_, i) => i + 1)), `PSubjectiveService /inc: ${QUERIES} concurrent queries give 1..${QUERIES}`, JSON.stringify(values));
  const keys = (await Promise.all(Array.from({ length: QUERIES }, () => post('/ge')))).map((r) => r.key).sort((a, b) => a - b);
  report(JSON.stringify(keys) === JSON.stringify(Array.from({ length: QUERIES }, (_, i) => 0xffffffff - QUERIES + 1 + i)), `PSubjectiveService /ge: ${QUERIES} concurrent queries each take the next key down from u32 max`, JSON.stringify(keys.slice(0, 3)));
}

/**
 * psibase's test_notify: every subjective callback runs, a failing one applies nothing and the
 * others still run. notify-control (ours) reads the counters NotifyService keeps in its writeOnly
 * tables and sets its subjective FailTable row, as psibase's tester does directly.
 */
async function notify(): Promise<void> {
  if (!(await deploy('notify1', 'NotifyService.wasm')) || !(await deploy('notify2', 'NotifyService.wasm'))) return;
  const control = await compiledEntry('tests/psibase-check/notify-control.as.ts');
  const file = join(mkdtempSync(join(tmpdir(), 'psibase-check-')), 'notify-ctl.wasm');
  writeFileSync(file, control.binary);
  const deployed = await cli(['deploy', 'notify-ctl', file, '-i', '-r', '-w', 'applied', '--no-schema']);
  if (deployed.status !== 0) return report(false, 'deploy notify-control', deployed.stderr);
  const privileged = pack({ Object: { service: 'AccountNumber', flags: 'u64' } }, { service: 'notify-ctl', flags: 1n });
  if (!(await push('setcode', 'setcode', 'setFlags', privileged)).ok) return report(false, 'notify-control made privileged');
  const callbackArgs = (type: number, service: string, method: string) => pack({ Object: { type: 'u8', objective: 'bool', act: 'Action' } }, {
    type, objective: false, act: { sender: 0n, service, method, rawData: NO_ARGUMENTS },
  });
  for (const service of ['notify1', 'notify2']) {
    await expectSuccess(`transact::addCallback(onBlock, subjective, ${service}::onBlock)`, 'transact', 'transact', 'addCallback', callbackArgs(1, service, 'onBlock'));
    await expectSuccess(`transact::addCallback(onTransaction, subjective, ${service}::onTrx)`, 'transact', 'transact', 'addCallback', callbackArgs(0, service, 'onTrx'));
  }
  const count = async (service: string, table: 'blocks' | 'transactions') =>
    (await get('notify-ctl', `/count?service=${service}&table=${table === 'blocks' ? 0 : 1}`)).json() as number | null;
  const setFail = async (service: string, on: boolean) => (await get('notify-ctl', `/fail?service=${service}`, { method: on ? 'POST' : 'DELETE' })).status === 200;
  // notify2 never fails: its block count is the clock the checks of notify1 wait on.
  const blocksPass = async (n: number) => {
    const start = (await count('notify2', 'blocks')) ?? 0;
    for (let tries = 0; tries < 300 && ((await count('notify2', 'blocks')) ?? 0) < start + n; tries++) await new Promise((r) => setTimeout(r, 50));
  };
  const transaction = () => push('simpleserv', 'simpleserv', 'hello', NONE);
  if (!(await simpleService())) return;
  await blocksPass(2);
  const both = [await count('notify1', 'blocks'), await count('notify2', 'blocks')];
  report(both.every((c) => c !== null && c >= 2), 'NotifyService: both onBlock callbacks count blocks', JSON.stringify(both));
  const trxBefore = [await count('notify1', 'transactions') ?? 0, await count('notify2', 'transactions') ?? 0];
  await transaction();
  const trxAfter = [await count('notify1', 'transactions') ?? 0, await count('notify2', 'transactions') ?? 0];
  report(trxAfter[0]! > trxBefore[0]! && trxAfter[1]! > trxBefore[1]!, 'NotifyService: both onTrx callbacks count a pushed transaction', `${trxBefore} -> ${trxAfter}`);

  report(await setFail('notify1', true) && (await get('notify-ctl', '/fail?service=notify1')).text() === 'true', 'notify-control puts notify1\'s FailTable row');
  const frozen = [await count('notify1', 'blocks'), await count('notify1', 'transactions')];
  const others = [await count('notify2', 'blocks') ?? 0, await count('notify2', 'transactions') ?? 0];
  await transaction();
  await blocksPass(3);
  const failing = [await count('notify1', 'blocks'), await count('notify1', 'transactions')];
  const running = [await count('notify2', 'blocks') ?? 0, await count('notify2', 'transactions') ?? 0];
  report(JSON.stringify(failing) === JSON.stringify(frozen), 'NotifyService: a callback that aborts applies none of its writes', `${frozen} -> ${failing}`);
  report(running[0]! >= others[0]! + 3 && running[1]! > others[1]!, 'NotifyService: the other callbacks still run and count', `${others} -> ${running}`);

  report(await setFail('notify1', false), 'notify-control removes notify1\'s FailTable row');
  await transaction();
  await blocksPass(2);
  const resumed = [await count('notify1', 'blocks') ?? 0, await count('notify1', 'transactions') ?? 0];
  report(resumed[0]! > (failing[0] ?? 0) && resumed[1]! > (failing[1] ?? 0), 'NotifyService: with the row gone, notify1 counts again', `${failing} -> ${resumed}`);
}

/** Stops the node: it runs last. psibase's test_exception_exit: the node exits cleanly while a request KeepSocket deferred is open. */
async function keepSocket(): Promise<void> {
  if (!(await deploy('s-keepsock', 'KeepSocketService.wasm', { server: true }))) return;
  let settled = false;
  const open = get('s-keepsock', '/').then((r) => `${r.status} ${r.text()}`, (e: Error) => e.message);
  void open.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 500));
  report(!settled, 'KeepSocketService: a request it deferred, then aborted, stays open');
  const exited = new Promise<number | null>((resolve) => node.process.once('exit', (code) => resolve(code)));
  node.process.kill('SIGTERM');
  const code = await exited;
  report(code === 0, 'KeepSocketService: the node stopped while that request is open exits 0', `exit ${code}`);
  const answer = await open;
  report(answer === '503 the node is shutting down', 'KeepSocketService: the open request is answered 503 as the node stops', answer);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'psibase-check-node-'));
  node = await startBootedNode(dir);
  try {
    console.log(`psibase-built services from ${wasmDir} on a tsibase node at ${node.api}`);
    const sections = { docExamples, kvAndTables, events, others, packageOwners, memo, subjectiveDb, subjectiveCounter, verifyWithCall, sudo, asyncQuery, entryPoints, parallelSubjective, notify, keepSocket };
    for (const [name, run] of Object.entries(sections)) if (only.size === 0 || only.has(name)) await run();
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(failures === 0 ? 'psibase-check: every check passed' : `psibase-check: ${failures} failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();

