import * as assert from 'uvu/assert';

/**
 * Asserts that `fn` throws an instance of `type` with `code` and a message holding every part
 * (a string it includes, or a pattern it matches).
 */
export function assertFails(fn: () => unknown, type: new (...args: never[]) => Error, code: string, messageParts: (string | RegExp)[] = []): void {
  try {
    fn();
  } catch (error) {
    assert.instance(error, type);
    assert.is((error as Error & { code?: string }).code, code);
    const message = (error as Error).message;
    for (const part of messageParts) {
      if (typeof part === 'string') assert.ok(message.includes(part), message);
      else assert.match(message, part);
    }
    return;
  }
  assert.unreachable(`expected ${code}`);
}

/** The message of the error `promise` rejects with; fails when it resolves (`what` says what went through). */
export async function rejectionMessage(promise: Promise<unknown>, what: string): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return assert.unreachable(what) as never;
}
