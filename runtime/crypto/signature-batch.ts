// How a batch of checks travels from the chain thread to a signature worker thread: packed into
// one buffer (one copy, transferred, instead of cloning each check's views and their whole
// backing buffers). Verdicts come back as one message per batch (signature-worker-thread.ts).

export interface SignatureCheck {
  readonly key: Uint8Array;
  readonly signedData: Uint8Array;
  readonly signature: Uint8Array;
}

/** Per check: three u32 lengths (key, signed data, signature), then those bytes. */
export function packChecks(checks: readonly SignatureCheck[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const c of checks) size += 12 + c.key.length + c.signedData.length + c.signature.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const { key, signedData, signature } of checks) {
    view.setUint32(at, key.length, true);
    view.setUint32(at + 4, signedData.length, true);
    view.setUint32(at + 8, signature.length, true);
    at += 12;
    for (const part of [key, signedData, signature]) {
      out.set(part, at);
      at += part.length;
    }
  }
  return out;
}

export function unpackChecks(packed: Uint8Array): SignatureCheck[] {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.length);
  const checks: SignatureCheck[] = [];
  for (let at = 0; at < packed.length;) {
    const keyEnd = at + 12 + view.getUint32(at, true);
    const dataEnd = keyEnd + view.getUint32(at + 4, true);
    const end = dataEnd + view.getUint32(at + 8, true);
    if (end > packed.length) throw new RangeError('signature batch: a check runs past the end');
    checks.push({ key: packed.subarray(at + 12, keyEnd), signedData: packed.subarray(keyEnd, dataEnd), signature: packed.subarray(dataEnd, end) });
    at = end;
  }
  return checks;
}
