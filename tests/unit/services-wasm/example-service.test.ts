// The example service, built like `make services` builds it, running on the real host in the
// in-process test chain: dispatch, tables with a secondary index, events, serveSys, errors, and
// a second service calling it through the generated ExampleActor.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName, compileSchema, methodNumberFromName } from '../../../host-api/index.js';
import { TestChain } from '../../../runtime/testing/test-chain.js';
import { compiledEntry, compiledService } from './program.js';
import { ServiceCodec, type ServiceSchema } from '../../../host-api/client/service-codec.js';

const CALLER = 'tests/unit/services-wasm/programs/caller.ts';
const CALLER_SOURCE = `
import { ExampleActor } from "../../../../services-wasm/example/index";
@service("caller")
class Caller {
  /** Increments the caller's own counter in the example service, twice. */
  @action twice(name: string, by: u64): u64 {
    const example = new ExampleActor();
    example.increment(name, by);
    return example.increment(name, by);
  }
}
`;

let chain: TestChain;
let codec: ServiceCodec;

test.before(async () => {
  const example = await compiledService('example');
  const caller = await compiledEntry(CALLER, { [CALLER]: CALLER_SOURCE });
  codec = new ServiceCodec(example.schema as ServiceSchema);
  chain = TestChain.open();
  chain.deploy('example', example.binary);
  chain.deploy('caller', caller.binary);
});

test.after(async () => {
  await chain.close();
});

function run(sender: string, action: string, args: unknown, mode?: 'rpc') {
  const result = chain.run({ sender, service: 'example', method: action, rawData: codec.args(action, args) }, { mode });
  return { ...result, value: codec.valueOf(action, result) };
}

test('the schema names the service, its actions and its event', () => {
  assert.is(codec.schema.service, 'example');
  assert.equal(Object.keys(codec.schema.actions), ['increment', 'reset', 'get', 'top', 'serveSys']);
  assert.equal(codec.schema.actions.increment, { params: { Object: { name: 'string', by: 'u64' } }, result: 'u64' });
  assert.equal(codec.schema.history, { incremented: { Object: { owner: 'AccountNumber', name: 'string', value: 'u64' } } });
});

test('increment returns the new value and get reads it back', () => {
  assert.is(run('alice', 'increment', { name: 'a', by: 5n }).value, 5n);
  assert.is(run('alice', 'increment', { name: 'a', by: 2n }).value, 7n);
  assert.is(run('bob', 'get', { owner: 'alice', name: 'a' }).value, 7n);
  assert.is(run('bob', 'get', { owner: 'bob', name: 'a' }).value, null);
});

test('increment emits a history event in the format of docs/host-abi.md §9', () => {
  const { events, error } = run('carol', 'increment', { name: 'c', by: 1n });
  assert.is(error, undefined);
  assert.is(events.length, 1);
  assert.is(events[0]!.db, 4);
  const envelope = codec.types.typeOf({
    Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: codec.schema.history.incremented! } },
  }).unpack(events[0]!.value);
  assert.equal(envelope, {
    service: accountNumberFromName('example'),
    type: methodNumberFromName('incremented'),
    data: { owner: accountNumberFromName('carol'), name: 'c', value: 1n },
  });
});

test('top walks the secondary index from the highest value; reset removes rows and index entries', () => {
  run('dave', 'increment', { name: 'd', by: 100n });
  run('erin', 'increment', { name: 'e', by: 50n });
  const top = run('bob', 'top', { limit: 2 }).value as { owner: bigint; name: string; value: bigint }[];
  assert.equal(top.map((c) => c.value), [100n, 50n]);
  assert.is(run('dave', 'reset', { name: 'd' }).error, undefined);
  const after = run('bob', 'top', { limit: 10 }).value as { value: bigint }[];
  assert.equal(after.map((c) => c.value), [50n, 7n, 1n]);
});

test('failed checks and unknown actions abort with their messages', () => {
  assert.match(run('alice', 'increment', { name: '', by: 1n }).error ?? '', 'a counter needs a name');
  const unknown = chain.run({ sender: 'alice', service: 'example', method: 'nosuchaction', rawData: '0000' });
  assert.match(unknown.error ?? '', `unknown action nosuchaction (method ${methodNumberFromName('nosuchaction')}) of service example`);
});

test('serveSys answers GET /counter for the http-server service only', () => {
  const request = (target: string) => ({ host: 'example.tsibase.localhost', method: 'GET', target, contentType: '', headers: [], body: '' });
  const ok = run('http', 'serveSys', { request: request('/counter?owner=alice&name=a'), socket: 3, user: null }, 'rpc');
  assert.is(ok.error, undefined);
  const reply = ok.value as { status: number; contentType: string; body: Uint8Array };
  assert.is(reply.status, 200);
  assert.is(reply.contentType, 'application/json');
  assert.is(new TextDecoder().decode(reply.body), '7');
  assert.is(run('http', 'serveSys', { request: request('/other'), socket: null, user: null }, 'rpc').value, null);
  assert.match(run('alice', 'serveSys', { request: request('/counter'), socket: null, user: null }, 'rpc').error ?? '', 'http-server');
});

test('the simple UI helper serves /action_templates and the root page', () => {
  const get = (target: string) => run('http', 'serveSys', {
    request: { host: 'example.tsibase.localhost', method: 'GET', target, contentType: '', headers: [], body: '' }, socket: null, user: null,
  }, 'rpc').value as { contentType: string; body: Uint8Array };
  const templates = get('/action_templates');
  assert.is(templates.contentType, 'application/json');
  assert.equal(JSON.parse(new TextDecoder().decode(templates.body)), {
    increment: { name: '', by: '0' },
    reset: { name: '' },
    get: { owner: '', name: '' },
    top: { limit: 0 },
    serveSys: { request: { host: '', method: '', target: '', contentType: '', headers: [], body: '' }, socket: null, user: null },
  });
  const page = get('/');
  assert.is(page.contentType, 'text/html');
  assert.match(new TextDecoder().decode(page.body), '<script src="/common/SimpleUI.mjs" type="module"></script>');
});

test('the simple UI helper packs action arguments from JSON: POST /pack_action/<action>', () => {
  const post = (action: string, json: unknown) => run('http', 'serveSys', {
    request: { host: 'example.tsibase.localhost', method: 'POST', target: `/pack_action/${action}`, contentType: 'application/json', headers: [], body: new TextEncoder().encode(typeof json === 'string' ? json : JSON.stringify(json)) },
    socket: null, user: null,
  }, 'rpc');
  const cases: [string, unknown][] = [
    ['increment', { name: 'a', by: '18446744073709551615' }],
    ['get', { owner: 'alice', name: 'ünï\u0000😀"\\' }],
    ['get', '{"owner": "alice", "name": "\\ud83d\\ude00 \\n"}'],
    ['top', { limit: 4294967295 }],
    ['increment', { name: 'a' }],
    ['get', {}],
    ['serveSys', { request: { host: 'h', method: 'GET', target: '/', contentType: '', headers: [{ name: 'A', value: 'b' }], body: '00FF' }, socket: -3, user: 'bob' }],
  ];
  for (const [action, json] of cases) {
    const reply = post(action, json).value as { contentType: string; body: Uint8Array };
    assert.is(reply.contentType, 'application/octet-stream');
    const params = codec.types.typeOf(codec.schema.actions[action]!.params);
    assert.equal(reply.body, params.pack(params.fromJson(typeof json === 'string' ? JSON.parse(json) : json)), action);
  }
  assert.is(post('nosuchaction', {}).value, null);
  // The client's mistakes are a 400 naming the member, with CORS; the service does not abort.
  const refused = (action: string, json: unknown) => {
    const r = post(action, json);
    assert.is(r.error, undefined, r.error);
    const reply = r.value as { status: number; contentType: string; headers: { name: string; value: string }[]; body: Uint8Array };
    assert.is(reply.status, 400);
    assert.is(reply.contentType, 'text/plain');
    assert.ok(reply.headers.some((h) => h.name === 'Access-Control-Allow-Origin' && h.value === '*'));
    return new TextDecoder().decode(reply.body);
  };
  assert.is(refused('increment', { name: 'a', count: 1 }), "action 'increment' does not have argument 'count'");
  assert.is(refused('increment', { name: 'a', by: '-1' }), 'increment.by: expected an integer in range');
  assert.is(refused('get', { owner: 'Not_Valid', name: '' }), 'get.owner: invalid account name "Not_Valid"');
  assert.match(refused('top', '{"limit": 1,}'), /^invalid JSON at \d+: /);
});

test('another service calls example through ExampleActor, as itself', () => {
  const rawData = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'x', by: 4n });
  const result = chain.run({ sender: 'alice', service: 'caller', method: 'twice', rawData });
  assert.is(result.error, undefined);
  assert.is(compileSchema({}).type('u64').unpack(result.retval), 8n);
  assert.is(run('bob', 'get', { owner: 'caller', name: 'x' }).value, 8n);
});

test.run();
