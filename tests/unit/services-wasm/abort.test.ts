// Aborts reach the host's abortMessage: checks with exactly their message, runtime errors and
// assertions with their source location.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sdkProgram } from './sdk-program.js';

test('check aborts with exactly its message', async () => {
  assert.is((await sdkProgram()).abortOf('failCheck'), 'input needed');
});

test('assert and runtime errors abort with their location', async () => {
  const p = await sdkProgram();
  assert.match(p.abortOf('failAssert') ?? '', /^assertion \(tests\/unit\/services-wasm\/programs\/sdk-functions\.ts:\d+:\d+\)$/);
  assert.match(p.abortOf('failBounds', Uint8Array.of(1)) ?? '', /^Index out of range \(~lib\/typedarray\.ts:\d+:\d+\)$/);
});

test.run();
