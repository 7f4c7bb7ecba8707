// Overlay keys are "binary strings": one UTF-16 unit per byte, each in 0..255. Such strings
// compare with `<` exactly as the bytes compare with memcmp (shorter prefix first), and hash
// fast as Map keys, so the overlay needs no byte comparator of its own.

// Buffer's latin1 decoder (one character per byte, 0-255), the native half of
// buffer.toString('latin1'): called on the bytes directly it needs no Buffer view, and it is
// about twice as fast as String.fromCharCode.apply on keys.
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(this: Uint8Array, start: number, end: number): string }).latin1Slice;

export function toBinaryString(bytes: Uint8Array): string {
  return latin1Slice.call(bytes, 0, bytes.length);
}

export function fromBinaryString(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * The smallest byte string greater than every string that starts with `prefix`, or undefined
 * when there is none (an empty prefix, or one of only 0xff bytes).
 */
export function prefixSuccessor(prefix: Uint8Array): Uint8Array | undefined {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return undefined;
  const successor = prefix.slice(0, end);
  successor[end - 1]++;
  return successor;
}

/** A copy that shares no memory with `bytes` (Buffer's slice() would return a view). */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** Whether `key` starts with the first `length` bytes of `prefix` (all of them by default). */
export function startsWithBytes(key: Uint8Array, prefix: Uint8Array, length = prefix.length): boolean {
  if (key.length < length) return false;
  for (let i = 0; i < length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
