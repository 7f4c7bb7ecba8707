// handle-probe: an AssemblyScript test service for the handle generation of the host ABI
// (docs/host-abi.md §12). It imports kvOpen, so the node holds it to that generation. Method 1
// runs a script from rawData, so one action (one execution context, where handles live) can open,
// use, pass and close handles the way psibase's SDK does: open through db::open and importHandles,
// export a handle and call another service, import what a callee returned.
//
// A script is a sequence of ops, each a u32 opcode and its operands; handles are kept in
// registers (an op that yields handles appends them). Ops that answer append one output field
// (u32 length + bytes) to the return value. Raw imports, no SDK, to test the host on its own.

@external("env", "getResult") declare function getResult(dest: usize, cap: u32, offset: u32): u32;
@external("env", "getKey") declare function getKey(dest: usize, cap: u32): u32;
@external("env", "abortMessage") declare function abortMessage(ptr: usize, len: u32): void;
@external("env", "getCurrentAction") declare function getCurrentAction(): u32;
@external("env", "call") declare function call(ptr: usize, len: u32, flags: u64): u32;
@external("env", "setRetval") declare function setRetval(ptr: usize, len: u32): void;
@external("env", "kvOpen") declare function kvOpen(db: u32, ptr: usize, len: u32, mode: u32): u32;
@external("env", "kvOpenAt") declare function kvOpenAt(handle: u32, ptr: usize, len: u32, mode: u32): u32;
@external("env", "kvClose") declare function kvClose(handle: u32): void;
@external("env", "exportHandles") declare function exportHandles(ptr: usize, len: u32): void;
@external("env", "importHandles") declare function importHandles(): u32;
@external("env", "kvPut") declare function kvPut(handle: u32, kptr: usize, klen: u32, vptr: usize, vlen: u32): void;
@external("env", "kvRemove") declare function kvRemove(handle: u32, kptr: usize, klen: u32): void;
@external("env", "kvGet") declare function kvGet(handle: u32, kptr: usize, klen: u32): u32;
@external("env", "kvGreaterEqual") declare function kvGreaterEqual(handle: u32, kptr: usize, klen: u32, match: u32): u32;
@external("env", "kvLessThan") declare function kvLessThan(handle: u32, kptr: usize, klen: u32, match: u32): u32;
@external("env", "kvMax") declare function kvMax(handle: u32, kptr: usize, klen: u32): u32;
@external("env", "checkoutSubjective") declare function checkoutSubjective(): void;
@external("env", "commitSubjective") declare function commitSubjective(): u32;
@external("env", "setMaxCpuTime") declare function setMaxCpuTime(ns: u64): void;
@external("env", "socketOpen") declare function socketOpen(ptr: usize, len: u32): i32;
@external("env", "socketSend") declare function socketSend(fd: i32, ptr: usize, len: u32, flags: u32): i32;
@external("env", "socketSetFlags") declare function socketSetFlags(fd: i32, mask: u32, value: u32): i32;
@external("env", "readFile") declare function readFile(ptr: usize, len: u32): u32;
@external("env", "clockTimeGet") declare function clockTimeGet(id: u32, out: usize): u32;

const NONE: u32 = 0xffffffff;

function result(size: u32): Uint8Array {
  const out = new Uint8Array(size);
  if (size > 0 && size != NONE) getResult(out.dataStart, size, 0);
  return out;
}

class Fields {
  pos: i32 = 0;
  constructor(public data: Uint8Array) {}
  get done(): bool {
    return this.pos >= this.data.length;
  }
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

class Output {
  parts: Array<Uint8Array> = [];
  size: i32 = 0;
  field(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += 4 + bytes.length;
  }
  u32(v: u32): void {
    const b = new Uint8Array(4);
    store<u32>(b.dataStart, v);
    this.field(b);
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let pos = 0;
    for (let i = 0; i < this.parts.length; i++) {
      const p = this.parts[i];
      store<u32>(out.dataStart + pos, p.length);
      memory.copy(out.dataStart + pos + 4, p.dataStart, p.length);
      pos += 4 + p.length;
    }
    return out;
  }
}

/** A lookup's answer: [found u8][klen u32][key][value], the key as getKey gives it. */
function lookup(size: u32, withKey: bool): Uint8Array {
  if (size == NONE) {
    // K is cleared with V: getKey must say 0.
    const out = new Uint8Array(5);
    store<u32>(out.dataStart + 1, getKey(0, 0));
    return out;
  }
  const value = result(size);
  const klen = withKey ? getKey(0, 0) : 0;
  const out = new Uint8Array(5 + klen + value.length);
  out[0] = 1;
  store<u32>(out.dataStart + 1, klen);
  if (klen > 0) getKey(out.dataStart + 5, klen);
  memory.copy(out.dataStart + 5 + klen, value.dataStart, value.length);
  return out;
}

/** Packs an Action {sender, service, method, rawData} as fracpack does. */
function packAction(sender: u64, service: u64, method: u64, raw: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + 28 + 4 + raw.length);
  const p = out.dataStart;
  store<u16>(p, 28);
  store<u64>(p + 2, sender);
  store<u64>(p + 10, service);
  store<u64>(p + 18, method);
  store<u32>(p + 26, raw.length == 0 ? 0 : 4);
  store<u32>(p + 30, raw.length);
  memory.copy(p + 34, raw.dataStart, raw.length);
  return raw.length == 0 ? out.slice(0, 30) : out;
}

function packHandles(regs: Array<u32>, indices: Array<u32>): Uint8Array {
  const out = new Uint8Array(4 + 4 * indices.length);
  store<u32>(out.dataStart, 4 * indices.length);
  for (let i = 0; i < indices.length; i++) store<u32>(out.dataStart + 4 + 4 * i, regs[indices[i]]);
  return out;
}

/** Appends the handles importHandles gives to the registers; answers how many. */
function takeImports(regs: Array<u32>, out: Output): void {
  const packed = result(importHandles());
  const count = load<u32>(packed.dataStart) / 4;
  for (let i: u32 = 0; i < count; i++) regs.push(load<u32>(packed.dataStart + 4 + 4 * i));
  out.u32(count);
}

let thisService: u64 = 0;

export function start(service: u64): void {
  thisService = service;
}

function fail(text: string): void {
  const message = Uint8Array.wrap(String.UTF8.encode(text));
  abortMessage(message.dataStart, message.length);
}

function run(script: Uint8Array): Uint8Array {
  const f = new Fields(script);
  const regs = new Array<u32>();
  const out = new Output();
  while (!f.done) {
    const op = f.u32();
    switch (op) {
      case 1: { const db = f.u32(); const prefix = f.bytes(); regs.push(kvOpen(db, prefix.dataStart, prefix.length, f.u32())); break; }
      case 2: { const h = regs[f.u32()]; const prefix = f.bytes(); regs.push(kvOpenAt(h, prefix.dataStart, prefix.length, f.u32())); break; }
      case 3: { kvClose(regs[f.u32()]); break; }
      case 4: { const h = regs[f.u32()]; const k = f.bytes(); const v = f.bytes(); kvPut(h, k.dataStart, k.length, v.dataStart, v.length); break; }
      case 5: { const h = regs[f.u32()]; const k = f.bytes(); kvRemove(h, k.dataStart, k.length); break; }
      case 6: { const h = regs[f.u32()]; const k = f.bytes(); out.field(lookup(kvGet(h, k.dataStart, k.length), false)); break; }
      case 7: { const h = regs[f.u32()]; const k = f.bytes(); const m = f.u32(); out.field(lookup(kvGreaterEqual(h, k.dataStart, k.length, m), true)); break; }
      case 8: { const h = regs[f.u32()]; const k = f.bytes(); const m = f.u32(); out.field(lookup(kvLessThan(h, k.dataStart, k.length, m), true)); break; }
      case 9: { const h = regs[f.u32()]; const k = f.bytes(); out.field(lookup(kvMax(h, k.dataStart, k.length), true)); break; }
      case 10: {
        // exportHandles of registers [count u32, index u32 ...]
        const n = f.u32();
        const indices = new Array<u32>();
        for (let i: u32 = 0; i < n; i++) indices.push(f.u32());
        const packed = packHandles(regs, indices);
        exportHandles(packed.dataStart, packed.length);
        break;
      }
      case 11: { takeImports(regs, out); break; }
      case 12: {
        // call service method rawData flags (sender: this service); answers the return value
        const service = f.u64(); const method = f.u64(); const raw = f.bytes(); const flags = f.u64();
        const action = packAction(thisService, service, method, raw);
        out.field(result(call(action.dataStart, action.length, flags)));
        break;
      }
      case 13: { regs.push(f.u32()); break; }
      case 14: { checkoutSubjective(); break; }
      case 15: { out.u32(commitSubjective()); break; }
      case 16: { const bytes = f.bytes(); exportHandles(bytes.dataStart, bytes.length); break; }
      case 17: { setMaxCpuTime(f.u64()); break; }
      case 18: { const fd = f.u32(); const mask = f.u32(); out.u32(<u32>socketSetFlags(<i32>fd, mask, f.u32())); break; }
      case 19: { const name = f.bytes(); out.u32(readFile(name.dataStart, name.length)); break; }
      case 20: { const args = f.bytes(); out.u32(<u32>socketOpen(args.dataStart, args.length)); break; }
      case 21: { const fd = f.u32(); const data = f.bytes(); out.u32(<u32>socketSend(<i32>fd, data.dataStart, data.length, f.u32())); break; }
      case 22: { const t = new Uint8Array(8); out.u32(clockTimeGet(f.u32(), t.dataStart)); break; }
      case 23: { out.u32(regs[f.u32()]); break; }
      case 24: {
        // the clock's time (8 bytes), aborting when the host refuses it
        const t = new Uint8Array(8);
        if (clockTimeGet(f.u32(), t.dataStart) != 0) fail("clockTimeGet failed");
        out.field(t);
        break;
      }
      default: fail("unknown op " + op.toString());
    }
  }
  return out.finish();
}

export function called(receiver: u64, sender: u64): void {
  const action = result(getCurrentAction());
  const method = load<u64>(action.dataStart + 18);
  const rawOffset = load<u32>(action.dataStart + 26);
  let raw = new Uint8Array(0);
  if (rawOffset != 0) {
    const start = <i32>(26 + rawOffset);
    const len = load<u32>(action.dataStart + start);
    raw = action.slice(start + 4, start + 4 + <i32>len);
  }
  if (method != 1) {
    const message = Uint8Array.wrap(String.UTF8.encode("unknown method"));
    abortMessage(message.dataStart, message.length);
  }
  const out = run(raw);
  setRetval(out.dataStart, out.length);
}
