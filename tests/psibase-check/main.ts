// `make psibase-check PSIBASE_WASM=<dir>`: psibase's own C++ services, as psibase's SDK builds them
// (../shared/psibase-cpp, or any build of psibase's doc examples and packages/psibase_tests), on a
// real tsibase node: each is installed with `tsibase deploy`, driven with `tsibase push` (rawData)
// and over HTTP, and must behave as psibase's tests say it does (docs/host-abi.md §12). Not part of
// `make test`: it needs psibase's build, which the project does not carry. Prints one line per
// check and exits 1 when any fails.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalServiceSchema, coreSchema, type AnyType } from '../../host-api/index.js';
import { calledActions, findActionTrace, type ActionTraceJson } from '../../runtime/cli/action-traces.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { runCli } from '../lib/cli-process.js';
import { startBootedNode } from '../lib/booted-node.js';
import type { RunningNode } from '../lib/node-process.js';
import { compiledEntry } from '../unit/services-wasm/program.js';

const wasmDir = process.argv[2] ?? process.env.PSIBASE_WASM;
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

/** One action through `tsibase push --trace` with rawData; its return value, and the actions it called. */
async function push(sender: string, service: string, method: string, rawData: string): Promise<Pushed> {
  const r = await cli(['push', '-', '-w', 'applied', '--trace'], JSON.stringify([{ sender, service, method, rawData }]));
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
  if (await deploy('counter', 'CounterService.wasm', { server: true })) {
    const key = pack({ Object: { key: 'string', id: 'u32' } }, { key: 'a', id: 1 });
    const inc = await expectSuccess('CounterService::inc', 'counter', 'counter', 'inc', key);
    // psibase's inc stores the row it makes under the empty key, so `a` is never found: always 1.
    report(inc.ok && unpack('u32', inc.retval) === 1, 'CounterService::inc returns 1, as psibase\'s code does', inc.retval);
    const packed = await get('counter', '/pack_action/inc', { method: 'POST', body: new TextEncoder().encode('{"key":"a","id":1}'), headers: { 'content-type': 'application/json' } });
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

async function others(): Promise<void> {
  if (await deploy('abort', 'AbortService.wasm')) {
    await expectFailure('AbortService::abort aborts with its message', 'abort', 'abort', 'abort', pack({ Object: { message: 'string' } }, { message: 'stop here' }), /aborted with message: stop here/);
  }
  if (await deploy('simpleserv', 'SimpleService.wasm')) await expectSuccess('SimpleService::hello', 'simpleserv', 'simpleserv', 'hello');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'psibase-check-node-'));
  node = await startBootedNode(dir);
  try {
    console.log(`psibase-built services from ${wasmDir} on a tsibase node at ${node.api}`);
    await docExamples();
    await kvAndTables();
    await events();
    await others();
    await packageOwners();
    await memo();
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(failures === 0 ? 'psibase-check: every check passed' : `psibase-check: ${failures} failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();

