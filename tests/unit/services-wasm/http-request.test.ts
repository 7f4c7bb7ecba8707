// HttpRequest accessors of docs/serving.md §2: path, query, case-insensitive headers, multi-value
// headers, cookies, removal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, CORE_SCHEMA, type HttpRequest } from '../../../host-api/index.js';
import { sdkProgram } from './sdk-program.js';

const schema = compileSchema({
  ...CORE_SCHEMA,
  RequestAndName: { Object: { request: 'HttpRequest', name: 'string' } },
});
const strings = schema.typeOf({ List: 'string' });
const optionalString = schema.typeOf({ Option: 'string' });

const request: HttpRequest = {
  host: 'example.tsibase.localhost',
  method: 'GET',
  target: '/counter/x?owner=alice&name=a%20b%2Fc&flag&bad=%zz&plus=a+b&e=%C3%A9',
  contentType: '',
  headers: [
    { name: 'Accept', value: 'text/html, application/json' },
    { name: 'accept', value: '*/*' },
    { name: 'Cookie', value: 'session=abc; theme=dark' },
    { name: 'COOKIE', value: 'session=def;other=1' },
  ],
  body: new Uint8Array(0),
};

function run(fn: string, name = '', r: HttpRequest = request): Promise<Uint8Array> {
  return sdkProgram().then((p) => p.run(fn, schema.type('RequestAndName').pack({ request: r, name })));
}

test('path is the target up to the query', async () => {
  assert.is(schema.type('string').unpack(await run('path')), '/counter/x');
  assert.is(schema.type('string').unpack(await run('path', '', { ...request, target: '/plain' })), '/plain');
});

test('query: pairs in order, %XX decoded in values', async () => {
  const pairs = schema.typeOf({ List: 'HttpHeader' }).unpack(await run('query'));
  assert.equal(pairs, [
    { name: 'owner', value: 'alice' },
    { name: 'name', value: 'a b/c' },
    { name: 'flag', value: '' },
    { name: 'bad', value: '%zz' },
    { name: 'plus', value: 'a+b' },
    { name: 'e', value: 'é' },
  ]);
  assert.is(optionalString.unpack(await run('queryParam', 'name')), 'a b/c');
  assert.is(optionalString.unpack(await run('queryParam', 'missing')), null);
});

test('queryParam agrees with query for every name, takes the first of repeated names and matches whole names', async () => {
  const pairs = schema.typeOf({ List: 'HttpHeader' }).unpack(await run('query')) as { name: string; value: string }[];
  for (const { name, value } of pairs) assert.is(optionalString.unpack(await run('queryParam', name)), value, name);
  const repeated = { ...request, target: '/x?name=first&&nam=short&names=long&name=second&flag' };
  assert.is(optionalString.unpack(await run('queryParam', 'name', repeated)), 'first');
  assert.is(optionalString.unpack(await run('queryParam', 'nam', repeated)), 'short');
  assert.is(optionalString.unpack(await run('queryParam', 'na', repeated)), null);
  assert.is(optionalString.unpack(await run('queryParam', 'flag', repeated)), '');
  assert.is(optionalString.unpack(await run('queryParam', '', repeated)), null, 'empty pairs are no parameters');
});

test('header lookup is case-insensitive and returns the first value as sent', async () => {
  assert.is(optionalString.unpack(await run('header', 'ACCEPT')), 'text/html, application/json');
  assert.is(optionalString.unpack(await run('header', 'x-missing')), null);
});

test('multi-value headers: every instance, split at commas', async () => {
  assert.equal(strings.unpack(await run('headerValues', 'Accept')), ['text/html', 'application/json', '*/*']);
});

test('cookies: every value of the name, across Cookie headers', async () => {
  assert.equal(strings.unpack(await run('cookies', 'session')), ['abc', 'def']);
  assert.equal(strings.unpack(await run('cookies', 'theme')), ['dark']);
  assert.equal(strings.unpack(await run('cookies', 'none')), []);
});

test('removing a header or a cookie', async () => {
  const withoutAccept = schema.type<HttpRequest>('HttpRequest').unpack(await run('removeHeader', 'accept'));
  assert.equal(withoutAccept.headers.map((h) => h.name), ['Cookie', 'COOKIE']);
  const withoutSession = schema.type<HttpRequest>('HttpRequest').unpack(await run('removeCookie', 'session'));
  assert.equal(withoutSession.headers.slice(2), [{ name: 'Cookie', value: 'theme=dark' }, { name: 'COOKIE', value: 'other=1' }]);
  const onlySession = { ...request, headers: [{ name: 'Cookie', value: 'session=1' }] };
  assert.equal(schema.type<HttpRequest>('HttpRequest').unpack(await run('removeCookie', 'session', onlySession)).headers, []);
});

test.run();
