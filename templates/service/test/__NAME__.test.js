// Runs the built service (npm run build) in an in-process chain: no node, no blocks.
import { readFileSync } from 'node:fs';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { accountNumberFromName } from 'tsibase';
import { ServiceCodec, TestChain } from 'tsibase/testing';

const code = readFileSync(new URL('../build/__NAME__.wasm', import.meta.url));
const codec = new ServiceCodec(JSON.parse(readFileSync(new URL('../build/__NAME__.schema.json', import.meta.url), 'utf8')));
const chain = TestChain.open();
chain.deploy('__NAME__', code);
after(() => chain.close());

function run(sender, action, args) {
  const result = chain.run({ sender, service: '__NAME__', method: action, rawData: codec.args(action, args) });
  return { ...result, value: codec.valueOf(action, result) };
}

test('setNote stores a note that getNote reads back', () => {
  assert.equal(run('alice', 'setNote', { text: 'hello' }).value, 5);
  assert.equal(run('bob', 'getNote', { owner: 'alice' }).value, 'hello');
});

test('setNote emits noteSet', () => {
  const { events } = run('alice', 'setNote', { text: 'again' });
  assert.equal(events.length, 1);
  assert.deepEqual(codec.event('noteSet', events[0].value), { owner: accountNumberFromName('alice'), text: 'again' });
});

test('an empty note is refused, and nothing is stored', () => {
  assert.match(run('carol', 'setNote', { text: '' }).error, /a note needs some text/);
  assert.match(run('carol', 'getNote', { owner: 'carol' }).error, /no note/);
});
