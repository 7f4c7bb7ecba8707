import * as assert from 'uvu/assert';
import { WireError } from '../../../../../runtime/http/wire/wire-error.js';

/** The status and message `read` refuses with (a WireError), or undefined when it reads. */
export function wireRefusal(read: () => unknown): { status: number; message: string } | undefined {
  try {
    read();
    return undefined;
  } catch (err) {
    assert.instance(err, WireError);
    return { status: (err as WireError).status, message: (err as WireError).message };
  }
}
