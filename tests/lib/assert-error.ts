import * as assert from 'uvu/assert';

/** Asserts that `fn` throws an instance of `type` with `code` and a message holding every part. */
export function assertFails(fn: () => unknown, type: new (...args: never[]) => Error, code: string, messageParts: string[] = []): void {
  try {
    fn();
  } catch (error) {
    assert.instance(error, type);
    assert.is((error as Error & { code?: string }).code, code);
    for (const part of messageParts) assert.ok((error as Error).message.includes(part), (error as Error).message);
    return;
  }
  assert.unreachable(`expected ${code}`);
}
