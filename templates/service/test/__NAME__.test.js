// Runs the built service (npm run build) on a whole chain in this process: the system services
// booted, the service deployed by a real transaction, each push in a block of its own, and HTTP
// through the node's routing without a socket.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { accountNumberFromName } from 'tsibase';
import { ServiceCodec, TestChain } from 'tsibase/testing';

const wasm = fileURLToPath(new URL('../build/__NAME__.wasm', import.meta.url));
const codec = new ServiceCodec(JSON.parse(readFileSync(new URL('../build/__NAME__.schema.json', import.meta.url), 'utf8')));
let chain;

before(async () => {
  chain = await TestChain.boot();
  await chain.deploy('__NAME__', wasm, { registerServer: true });
  for (const name of ['alice', 'bob', 'carol']) await chain.newAccount(name);
});
after(() => chain.close());

/** Pushes one action of the service from `sender`; the trace's value decoded. */
async function push(sender, action, args) {
  const pushed = await chain.push([{ sender, service: '__NAME__', method: action, rawData: codec.args(action, args) }]);
  const value = pushed.error === null ? codec.result(action, pushed.actions[0].rawRetval) : undefined;
  return { ...pushed, value };
}

test('setNote stores a note that getNote reads back', async () => {
  assert.equal((await push('alice', 'setNote', { text: 'hello' })).value, 5);
  assert.equal((await push('bob', 'getNote', { owner: 'alice' })).value, 'hello');
});

test('setNote emits noteSet', async () => {
  const { events } = await push('alice', 'setNote', { text: 'again' });
  assert.equal(events.length, 1);
  assert.deepEqual(codec.event('noteSet', events[0].value), { owner: accountNumberFromName('alice'), text: 'again' });
});

test('an empty note is refused, and nothing is stored', async () => {
  assert.match((await push('carol', 'setNote', { text: '' })).error, /a note needs some text/);
  assert.match((await push('carol', 'getNote', { owner: 'carol' })).error, /no note/);
});

test('the notes are served over GraphQL at the service subdomain', async () => {
  await push('bob', 'setNote', { text: 'from bob' });
  const { data } = await chain.graphql('__NAME__', '{ note(owner: "bob") { owner text } }');
  assert.deepEqual(data, { note: { owner: 'bob', text: 'from bob' } });
});

test('the simple UI answers GET /', async () => {
  const page = await chain.http({ host: '__NAME__.tsibase.localhost', path: '/' });
  assert.equal(page.status, 200);
  assert.match(page.text(), /SimpleUI/);
});
