// Runs the built service on a whole chain in this process (the system services booted, the
// service deployed by a real transaction, each push in a block of its own, HTTP through the
// node's routing without a socket), through its typed client, build/__NAME__-client.ts, which
// `npm run build` writes from the service's schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TestChain, type BootedChain } from 'tsibase/testing';
import { actions, events, results } from '../build/__NAME__-client.js';

let chain: BootedChain;

before(async () => {
  chain = await TestChain.boot();
  await chain.deploy('__NAME__', 'build/__NAME__.wasm', { registerServer: true });
  for (const name of ['alice', 'bob', 'carol']) await chain.newAccount(name);
});
after(() => chain.close());

test('setNote stores a note that getNote reads back', async () => {
  const set = await chain.push([actions('alice').setNote('hello')]);
  const length: number = results.setNote(set.actions[0]!.rawRetval);
  assert.equal(length, 5);
  const got = await chain.push([actions('bob').getNote('alice')]);
  assert.equal(results.getNote(got.actions[0]!.rawRetval), 'hello');
});

test('setNote emits noteSet', async () => {
  const { events: emitted } = await chain.push([actions('alice').setNote('again')]);
  assert.equal(emitted.length, 1);
  assert.deepEqual(events.noteSet(emitted[0]!.value), { owner: 'alice', text: 'again' });
});

test('an empty note is refused, and nothing is stored', async () => {
  assert.match((await chain.push([actions('carol').setNote('')])).error ?? '', /a note needs some text/);
  assert.match((await chain.push([actions('carol').getNote('carol')])).error ?? '', /no note/);
});

test('the notes are served over GraphQL at the service subdomain', async () => {
  await chain.push([actions('bob').setNote('from bob')]);
  const { data } = await chain.graphql('__NAME__', '{ note(owner: "bob") { owner text } }');
  assert.deepEqual(data, { note: { owner: 'bob', text: 'from bob' } });
});

test('the simple UI answers GET /', async () => {
  const page = await chain.http({ host: '__NAME__.tsibase.localhost', path: '/' });
  assert.equal(page.status, 200);
  assert.match(page.text(), /SimpleUI/);
});
