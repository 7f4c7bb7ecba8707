// Builds the probe test service (tests/services/probe.as.ts) and its rawData encoding.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Action } from '../../host-api/index.js';
import { compileStandalone } from './asc.js';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'services', 'probe.as.ts');

/** Probe method numbers (the probe dispatches on the raw number). */
export const Probe = {
  kvPut: 1n, kvGet: 2n, kvRemove: 3n, kvGreaterEqual: 4n, kvLessThan: 5n, kvMax: 6n,
  putSequential: 7n, getSequential: 8n, call: 9n, writeConsole: 10n, abort: 11n,
  spin: 12n, recurse: 13n, growMemory: 14n, checkoutSubjective: 15n, commitSubjective: 16n,
  abortSubjective: 17n, clockTimeGet: 18n, getRandom: 19n, setRetval: 20n, ecdsaVerify: 21n,
  currentAction: 22n, putThenCall: 23n, putThenAbort: 24n, thisService: 25n, sender: 26n, countEntries: 27n,
  subjectivePut: 28n, checkoutMany: 29n, subjectiveGet: 30n, subjectivePutLeftOpen: 31n,
  scribble: 32n, kvRange: 33n,
} as const;

let compiled: Promise<Uint8Array> | undefined;

export function probeWasm(): Promise<Uint8Array> {
  compiled ??= compileStandalone(SOURCE, 'probe');
  return compiled;
}

const encoder = new TextEncoder();

/** A length-prefixed field (u32 LE length + bytes); strings are UTF-8. */
export function field(bytes: Uint8Array | string): Uint8Array {
  const b = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
  const out = new Uint8Array(4 + b.length);
  new DataView(out.buffer).setUint32(0, b.length, true);
  out.set(b, 4);
  return out;
}

export function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
}

export function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
}

export { concatBytes as concat } from '../../host-api/encoding/bytes.js';

/** An account's 8 bytes as they start a key (big-endian). */
export function accountPrefix(account: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, account, false);
  return out;
}

export function packedAction(sender: string | bigint, service: string | bigint, method: bigint, rawData: Uint8Array): Uint8Array {
  return Action.pack({ sender, service, method, rawData });
}

/** Decodes the probe's lookup reply: [found u8][klen u32][key][vlen u32][value]. */
/** kvRange's rows as the probe returns V: per row u32 key length, key, u32 value length, value. */
export function rangeRows(retval: Uint8Array): { key: Uint8Array; value: Uint8Array }[] {
  const view = new DataView(retval.buffer, retval.byteOffset, retval.byteLength);
  const rows = [];
  for (let at = 0; at < retval.length;) {
    const klen = view.getUint32(at, true);
    const key = retval.slice(at + 4, at + 4 + klen);
    at += 4 + klen;
    const vlen = view.getUint32(at, true);
    rows.push({ key, value: retval.slice(at + 4, at + 4 + vlen) });
    at += 4 + vlen;
  }
  return rows;
}

export function lookup(retval: Uint8Array): { key: Uint8Array; value: Uint8Array } | undefined {
  if (retval[0] === 0) return undefined;
  const view = new DataView(retval.buffer, retval.byteOffset, retval.byteLength);
  const klen = view.getUint32(1, true);
  const key = retval.slice(5, 5 + klen);
  const vlen = view.getUint32(5 + klen, true);
  return { key, value: retval.slice(9 + klen, 9 + klen + vlen) };
}
