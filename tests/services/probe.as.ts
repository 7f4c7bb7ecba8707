// probe: an AssemblyScript test service that calls one host import per method number, with
// arguments from the action's rawData, so host tests can drive every import in every mode.
// It uses the raw imports on purpose (no SDK), to test the host on its own.
// rawData: a sequence of fields, each u32 little-endian length + bytes; ints are 4 or 8 bytes.

@external("env", "getResult") declare function getResult(dest: usize, cap: u32, offset: u32): u32;
@external("env", "getKey") declare function getKey(dest: usize, cap: u32): u32;
@external("env", "writeConsole") declare function writeConsole(ptr: usize, len: u32): void;
@external("env", "abortMessage") declare function abortMessage(ptr: usize, len: u32): void;
@external("env", "getCurrentAction") declare function getCurrentAction(): u32;
@external("env", "call") declare function call(ptr: usize, len: u32): u32;
@external("env", "setRetval") declare function setRetval(ptr: usize, len: u32): void;
@external("env", "kvPut") declare function kvPut(db: u32, kptr: usize, klen: u32, vptr: usize, vlen: u32): void;
@external("env", "kvRemove") declare function kvRemove(db: u32, kptr: usize, klen: u32): void;
@external("env", "kvGet") declare function kvGet(db: u32, kptr: usize, klen: u32): u32;
@external("env", "kvGreaterEqual") declare function kvGreaterEqual(db: u32, kptr: usize, klen: u32, match: u32): u32;
@external("env", "kvLessThan") declare function kvLessThan(db: u32, kptr: usize, klen: u32, match: u32): u32;
@external("env", "kvMax") declare function kvMax(db: u32, kptr: usize, klen: u32): u32;
@external("env", "kvRange") declare function kvRange(db: u32, kptr: usize, klen: u32, match: u32, uptr: usize, ulen: u32, maxRows: u32): u32;
@external("env", "putSequential") declare function putSequential(db: u32, vptr: usize, vlen: u32): u64;
@external("env", "getSequential") declare function getSequential(db: u32, id: u64): u32;
@external("env", "checkoutSubjective") declare function checkoutSubjective(): void;
@external("env", "commitSubjective") declare function commitSubjective(): u32;
@external("env", "abortSubjective") declare function abortSubjective(): void;
@external("env", "clockTimeGet") declare function clockTimeGet(id: u32, out: usize): u32;
@external("env", "getRandom") declare function getRandom(ptr: usize, len: u32): void;
@external("env", "ecdsaVerify") declare function ecdsaVerify(kp: usize, kl: u32, dp: usize, dl: u32, sp: usize, sl: u32): u32;

const NONE: u32 = 0xffffffff;

function result(size: u32): Uint8Array {
  const out = new Uint8Array(size);
  if (size > 0) getResult(out.dataStart, size, 0);
  return out;
}

class Fields {
  pos: i32 = 0;
  constructor(public data: Uint8Array) {}
  bytes(): Uint8Array {
    const n = load<u32>(this.data.dataStart + this.pos);
    this.pos += 4;
    const out = this.data.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  u32(): u32 {
    const v = load<u32>(this.data.dataStart + this.pos);
    this.pos += 4;
    return v;
  }
  u64(): u64 {
    const v = load<u64>(this.data.dataStart + this.pos);
    this.pos += 8;
    return v;
  }
}

function retval(bytes: Uint8Array): void {
  setRetval(bytes.dataStart, bytes.length);
}

/** [found u8][len u32][value] for a value lookup; [found][klen][key][vlen][value] for an entry. */
function lookupResult(size: u32, withKey: bool): void {
  if (size == NONE) {
    retval(new Uint8Array(1));
    return;
  }
  const value = result(size);
  let key = new Uint8Array(0);
  if (withKey) {
    const klen = getKey(0, 0);
    key = new Uint8Array(klen);
    getKey(key.dataStart, klen);
  }
  const out = new Uint8Array(1 + 4 + key.length + 4 + value.length);
  out[0] = 1;
  store<u32>(out.dataStart + 1, key.length);
  memory.copy(out.dataStart + 5, key.dataStart, key.length);
  store<u32>(out.dataStart + 5 + key.length, value.length);
  memory.copy(out.dataStart + 9 + key.length, value.dataStart, value.length);
  retval(out);
}

function spin(n: u64): u64 {
  let x: u64 = 0;
  while (true) { x += n; if (x == 1) break; }
  return x;
}

function recurse(n: u32): u32 {
  return recurse(n + 1) + 1;
}

let thisService: u64 = 0;
let entries: u32 = 0;

export function start(service: u64): void {
  thisService = service;
}

export function called(receiver: u64, sender: u64): void {
  const action = result(getCurrentAction());
  // Action: u16 fixed size, sender u64, service u64, method u64, rawData offset (slot at 26).
  const method = load<u64>(action.dataStart + 18);
  const rawSlot = action.dataStart + 26;
  const rawOffset = load<u32>(rawSlot);
  let raw = new Uint8Array(0);
  if (rawOffset != 0) {
    const start = <i32>(26 + rawOffset);
    const len = load<u32>(action.dataStart + start);
    raw = action.slice(start + 4, start + 4 + <i32>len);
  }
  const f = new Fields(raw);
  switch (<i32>method) {
    case 1: { const db = f.u32(); const k = f.bytes(); const v = f.bytes(); kvPut(db, k.dataStart, k.length, v.dataStart, v.length); break; }
    case 2: { const db = f.u32(); const k = f.bytes(); lookupResult(kvGet(db, k.dataStart, k.length), false); break; }
    case 3: { const db = f.u32(); const k = f.bytes(); kvRemove(db, k.dataStart, k.length); break; }
    case 4: { const db = f.u32(); const k = f.bytes(); const m = f.u32(); lookupResult(kvGreaterEqual(db, k.dataStart, k.length, m), true); break; }
    case 5: { const db = f.u32(); const k = f.bytes(); const m = f.u32(); lookupResult(kvLessThan(db, k.dataStart, k.length, m), true); break; }
    case 6: { const db = f.u32(); const k = f.bytes(); lookupResult(kvMax(db, k.dataStart, k.length), true); break; }
    case 7: {
      const db = f.u32(); const v = f.bytes();
      const id = putSequential(db, v.dataStart, v.length);
      const out = new Uint8Array(8); store<u64>(out.dataStart, id); retval(out);
      break;
    }
    case 8: { const db = f.u32(); const id = f.u64(); lookupResult(getSequential(db, id), false); break; }
    case 9: { const a = f.bytes(); retval(result(call(a.dataStart, a.length))); break; }
    case 10: { const t = f.bytes(); writeConsole(t.dataStart, t.length); break; }
    case 11: { const t = f.bytes(); abortMessage(t.dataStart, t.length); break; }
    case 12: { const out = new Uint8Array(8); store<u64>(out.dataStart, spin(3)); retval(out); break; }
    case 13: { recurse(0); break; }
    case 14: {
      // Grows until the host's cap refuses, then reports the size reached in pages.
      while (memory.grow(1) >= 0) {}
      const out = new Uint8Array(4); store<u32>(out.dataStart, <u32>memory.size()); retval(out);
      break;
    }
    case 15: { checkoutSubjective(); break; }
    case 16: { const out = new Uint8Array(4); store<u32>(out.dataStart, commitSubjective()); retval(out); break; }
    case 17: { abortSubjective(); break; }
    case 18: {
      const out = new Uint8Array(12);
      store<u32>(out.dataStart, clockTimeGet(f.u32(), out.dataStart + 4));
      retval(out);
      break;
    }
    case 19: { const out = new Uint8Array(f.u32()); getRandom(out.dataStart, out.length); retval(out); break; }
    case 20: { retval(f.bytes()); break; }
    case 21: {
      const k = f.bytes(); const d = f.bytes(); const s = f.bytes();
      const out = new Uint8Array(1);
      out[0] = <u8>ecdsaVerify(k.dataStart, k.length, d.dataStart, d.length, s.dataStart, s.length);
      retval(out);
      break;
    }
    case 22: { retval(action); break; }
    case 23: {
      // Write a counter in the service db, then call the given action (e.g. back into this service).
      const k = f.bytes(); const a = f.bytes();
      const v = new Uint8Array(1); v[0] = 7;
      kvPut(0, k.dataStart, k.length, v.dataStart, 1);
      retval(result(call(a.dataStart, a.length)));
      break;
    }
    case 24: {
      // Runs the listed sub-commands' effects: puts a value then aborts (rollback check).
      const db = f.u32(); const k = f.bytes(); const v = f.bytes(); const t = f.bytes();
      kvPut(db, k.dataStart, k.length, v.dataStart, v.length);
      abortMessage(t.dataStart, t.length);
      break;
    }
    case 25: { const out = new Uint8Array(8); store<u64>(out.dataStart, thisService); retval(out); break; }
    case 26: { const out = new Uint8Array(8); store<u64>(out.dataStart, sender); retval(out); break; }
    case 27: {
      // Counts entries into this instance; with a nested action, calls it and returns its result.
      entries++;
      if (raw.length > 0) { const a = f.bytes(); retval(result(call(a.dataStart, a.length))); break; }
      const out = new Uint8Array(4); store<u32>(out.dataStart, entries); retval(out);
      break;
    }
    case 28: {
      // checkout; put into the subjective db; commit (flag 1) or abort (flag 0), all in one action.
      const k = f.bytes(); const v = f.bytes(); const commit = f.u32();
      checkoutSubjective();
      kvPut(64, k.dataStart, k.length, v.dataStart, v.length);
      const out = new Uint8Array(4);
      if (commit) store<u32>(out.dataStart, commitSubjective()); else abortSubjective();
      retval(out);
      break;
    }
    case 29: { const n = f.u32(); for (let i: u32 = 0; i < n; i++) checkoutSubjective(); break; }
    case 30: {
      // checkout, then read a subjective key (inside the view).
      const k = f.bytes();
      checkoutSubjective();
      lookupResult(kvGet(64, k.dataStart, k.length), false);
      break;
    }
    case 31: {
      // checkout and put without closing the view: the host discards it when the action returns.
      const k = f.bytes(); const v = f.bytes();
      checkoutSubjective();
      kvPut(64, k.dataStart, k.length, v.dataStart, v.length);
      break;
    }
    case 32: {
      // Returns the u32s at the given addresses, then overwrites them: a reused instance must
      // show the first values again (memory reset everywhere, not only where it allocates).
      const n = f.u32();
      const addresses = new Array<u32>(n);
      for (let i: u32 = 0; i < n; i++) addresses[i] = f.u32();
      const out = new Uint8Array(4 * n);
      for (let i: u32 = 0; i < n; i++) store<u32>(out.dataStart + 4 * i, load<u32>(addresses[i]));
      retval(out);
      for (let i: i32 = <i32>n - 1; i >= 0; i--) store<u32>(addresses[i], 0xa5a5a5a5);
      break;
    }
    case 33: {
      // kvRange: the value buffer V as the host filled it.
      const db = f.u32(); const k = f.bytes(); const m = f.u32(); const upper = f.bytes(); const n = f.u32();
      retval(result(kvRange(db, k.dataStart, k.length, m, upper.dataStart, upper.length, n)));
      break;
    }
    default: {
      const t = Uint8Array.wrap(String.UTF8.encode('unknown probe method'));
      abortMessage(t.dataStart, t.length);
    }
  }
}
