// Runs the built service in an in-process chain (no node, no blocks) through its typed client,
// build/__NAME__-client.ts, which `npm run build` writes from the service's schema.
import { readFileSync } from 'node:fs';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { TestChain } from 'tsibase/testing';
import { actions, events, results } from '../build/__NAME__-client.js';

const chain = TestChain.open();
chain.deploy('__NAME__', readFileSync('build/__NAME__.wasm'));
after(() => chain.close());

test('setNote stores a note that getNote reads back', () => {
  const length: number = results.setNote(chain.run(actions('alice').setNote('hello')).retval);
  assert.equal(length, 5);
  assert.equal(results.getNote(chain.run(actions('bob').getNote('alice')).retval), 'hello');
});

test('setNote emits noteSet', () => {
  const run = chain.run(actions('alice').setNote('again'));
  assert.equal(run.events.length, 1);
  assert.deepEqual(events.noteSet(run.events[0]!.value), { owner: 'alice', text: 'again' });
});

test('an empty note is refused, and nothing is stored', () => {
  assert.match(chain.run(actions('carol').setNote('')).error ?? '', /a note needs some text/);
  assert.match(chain.run(actions('carol').getNote('carol')).error ?? '', /no note/);
});
