// packages (docs/system-services.md): setSchema takes psibase's packed ServiceSchema and getSchema
// gives it back; the JSON it stores for /schema is psibase HEAD's form (host-api's codec of the
// same type reads both), checked with a schema that uses every kind of type, tables and events.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { accountNumberFromName, coreSchema, headServiceSchema, setSchemaAction, serviceSchemaTypes } from '../../../../host-api/index.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { compiledService } from '../program.js';
import { accountPrefix, concat } from '../../../lib/probe.js';

let chain: TestChain;

test.before(async () => {
  chain = TestChain.open();
  chain.deploy('packages', (await compiledService('packages')).binary);
});

test.after(async () => {
  await chain.close();
});

const every = {
  service: 'carol',
  types: {
    u32: { Int: { bits: 32, isSigned: false } },
    Point: { Struct: { x: 'f64', y: { Float: { exp: 8, mantissa: 24 } } } },
    Row: { Object: { who: 'AccountNumber', tags: { List: 'string' }, note: { Option: 'string' }, pair: { Tuple: ['u32', 'Point'] } } },
    Choice: { Variant: { none: { Struct: {} }, some: 'Row' } },
    Fixed: { Array: { type: 'u8', len: '4' } },
    Wrapped: { FracPack: 'Row' },
    Key: { Custom: { type: { List: 'u8' }, id: 'hex' } },
  },
  actions: {
    put: { params: { Object: { row: 'Row', choice: 'Choice' } }, result: null },
    get: { params: { Object: { who: 'AccountNumber' } }, result: { Option: 'Row' } },
  },
  history: { stored: { type: { Object: { row: 'Row' } }, access: 'public' } },
  merkle: { fixed: { type: { Object: { key: 'Fixed', wrapped: 'Wrapped' } }, access: 'private' } },
  database: {
    service: [{ name: 'RowTable', table: 1, type: 'Row', indexes: [[{ path: [0], transform: null, type: null }], [{ path: [1, 0], transform: 'lower', type: 'string' }]] }],
  },
};

function run(sender: string, action: ReturnType<typeof setSchemaAction>) {
  return chain.run({ sender, service: 'packages', method: 'setSchema', rawData: action.rawData });
}

test('setSchema stores the schema in psibase HEAD\'s JSON form, and getSchema returns it packed', () => {
  assert.is(run('carol', setSchemaAction('carol', JSON.stringify(every))).error, undefined);
  const row = chain.store.get(DbId.service, concat(accountPrefix(accountNumberFromName('packages')), Uint8Array.of(0, 1, 0), accountPrefix(accountNumberFromName('carol'))));
  const stored = coreSchema.typeOf({ Object: { account: 'AccountNumber', schema: 'string' } }).unpack(row!) as { schema: string };
  assert.equal(JSON.parse(stored.schema), every);
  const got = chain.run({ sender: 'alice', service: 'packages', method: 'getSchema', rawData: coreSchema.typeOf({ Object: { service: 'AccountNumber' } }).pack({ service: 'carol' }) }, { mode: 'rpc' });
  assert.is(got.error, undefined);
  assert.equal(serviceSchemaTypes.typeOf({ Option: 'ServiceSchema' }).toJson(serviceSchemaTypes.typeOf({ Option: 'ServiceSchema' }).unpack(got.retval)), every);
  const none = chain.run({ sender: 'alice', service: 'packages', method: 'getSchema', rawData: coreSchema.typeOf({ Object: { service: 'AccountNumber' } }).pack({ service: 'nobody' }) }, { mode: 'rpc' });
  assert.equal(none.retval, serviceSchemaTypes.typeOf({ Option: 'ServiceSchema' }).pack(null), 'no schema: an empty option');
});

test('our SDK\'s schemas are converted to HEAD\'s form: events become {type, access}, no ui, absent options null, the tables kept', async () => {
  const tokens = (await compiledService('tokens')).schema as Record<string, unknown>;
  const head = headServiceSchema(tokens) as { history: Record<string, unknown>; actions: Record<string, { result: unknown }>; database: unknown; ui?: unknown };
  assert.equal(head.history.transferred, { type: (tokens.history as Record<string, unknown>).transferred, access: 'public' });
  assert.is(head.actions.init!.result, null);
  // Its tables as the build found them: name, number and row type; keys the service computes.
  assert.equal(head.database, { service: [{ name: 'balances', table: 1, type: 'Balance', indexes: [] }, { name: 'supplies', table: 2, type: 'Supply', indexes: [] }] });
  assert.is(head.ui, undefined);
  assert.equal(headServiceSchema(head), head, 'a HEAD schema stays as it is');
  assert.is(run('tokens', setSchemaAction('tokens', JSON.stringify(tokens))).error, undefined);
});

test('setSchema refuses a schema naming an undefined type, and the client refuses what is no schema', () => {
  const undefinedType = { ...every, service: 'dave', actions: { act: { params: { Object: { who: 'Nope' } }, result: null } } };
  const r = run('dave', setSchemaAction('dave', JSON.stringify(undefinedType)));
  assert.is(r.errorCode, 'SERVICE_ABORTED');
  assert.match(r.error!, /schema\.actions\.act\.params: type Nope is not defined/);
  const badEvent = { ...every, service: 'dave', history: { e: { type: { List: 'Missing' }, access: 'public' } } };
  assert.match(run('dave', setSchemaAction('dave', JSON.stringify(badEvent))).error!, /schema\.history\.e: type Missing is not defined/);
  assert.throws(() => setSchemaAction('dave', '{"service":'), /the service schema is not JSON/);
  assert.throws(() => setSchemaAction('dave', '[]'), /is not a JSON object/);
  assert.throws(() => setSchemaAction('dave', '{"service":"dave","types":{"T":{"Nonsense":1}}}'), /is not a psibase ServiceSchema/);
});

test.run();
